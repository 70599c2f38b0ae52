// normalizeDate's fast path (a string already in normalized form, matched by one range-checked
// pattern) must agree with parsing through Date, for real and impossible dates alike.
import { execFileSync } from 'child_process';
import fc from 'fast-check';
import { normalizeDate } from '../../lib/keys/encoding';
import { bundle } from '../support/bundle';
import { propertyRuns } from '../support/property-runs';

const viaDate = (s: string) => {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) || d.toISOString() !== s ? undefined : s;
};
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));

test('normalized strings: the fast path accepts exactly what Date round-trips', () => {
  const shaped = fc.tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(61), two(61), fc.integer({ min: 0, max: 999 }))
    .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}Z`);
  fc.assert(fc.property(shaped, (s) => {
    expect(normalizeDate(s)).toBe(viaDate(s));
  }), { numRuns: propertyRuns(2000) });
  for (const s of ['2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '2024-04-31T00:00:00.000Z']) {
    expect(normalizeDate(s)).toBe(viaDate(s));
  }
});

test('one character off a normalized string: accepted as is exactly when Date round-trips it, also right after the original', () => {
  // The fast path matches digits and separators with a pattern and remembers the last string it
  // accepted; neither may let a near miss through.
  const base = '2024-02-29T23:59:59.999Z';
  const variant = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom('0', '9', '/', ':', ' ', 'a', 'T', 'Z', '-', '.', '\u0660'))
    .map(([i, c]) => base.slice(0, i) + c + base.slice(i + 1));
  fc.assert(fc.property(variant, (s) => {
    expect(normalizeDate(base)).toBe(base);
    expect(normalizeDate(s) === s).toBe(viaDate(s) === s);
    expect(normalizeDate(s) === s).toBe(viaDate(s) === s);
    expect(normalizeDate(base)).toBe(base);
  }), { numRuns: propertyRuns(200) });
});

test('any sequence of calls: each result is what the value alone gives, whatever was checked before', () => {
  // The remembered string is process-wide (values, keys, cost reports): interleave different
  // normalized strings, near misses, Dates and non-strings, repeated, and compare with a reference.
  // Few values per field, so strings in one sequence often differ in a single field (or not at all).
  const field = (...values: string[]) => fc.constantFrom(...values);
  const shaped = fc.tuple(field('0000', '1900', '2000', '2024', '9999'), field('01', '02', '12', '13'), field('00', '28', '29', '31'),
    field('00', '23', '24'), field('00', '59', '60'), field('00', '59', '60'), field('000', '001', '999'))
    .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
  const value = fc.oneof(shaped, fc.date(), fc.constantFrom<unknown>(undefined, null, 0, 1706745600000, {}, ['2024-01-01T00:00:00.000Z']));
  const expected = (v: unknown) => {
    if (typeof v === 'string') return viaDate(v);
    if (!(v instanceof Date) || Number.isNaN(v.getTime())) return undefined;
    return v.getUTCFullYear() >= 0 && v.getUTCFullYear() <= 9999 ? v.toISOString() : undefined;
  };
  fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), fc.array(fc.nat()), (values, picks) => {
    const calls = [...values, ...picks.map((p) => values[p % values.length])];
    for (const v of calls) expect([v, normalizeDate(v)]).toEqual([v, expected(v)]);
  }), { numRuns: propertyRuns(300) });
});

test('impossible dates are refused in every accepted form, not rolled over into the next month', () => {
  // Date parses 2024-02-30 as March 1st; the normalized fast path refuses it, so every form must.
  for (const s of ['2024-02-30', '2023-02-29', '2024-04-31T00:00:00Z', '2024-02-30T10:00:00+02:00', '2024-01-15 23:60:00Z',
    '2024-01-15T10:30:61Z', '2024-01-15T24:00:00Z', '2024-13-01', '2024-00-10', '2024-01-00T00:00:00.000+00:00']) {
    expect([s, normalizeDate(s)]).toEqual([s, undefined]);
  }
  expect(normalizeDate('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
  expect(normalizeDate('2024-02-29T23:59:59.9999+05:30')).toBe('2024-02-29T18:29:59.999Z');
});

test('a date-time without an offset is UTC whatever the process time zone is', async () => {
  // Date reads one as local time, which would give the same item another key on a laptop than in
  // Lambda (UTC). The zone is fixed when a process starts, so each zone runs in a process of its own.
  const { code } = await bundle('lib/keys/encoding.ts');
  const probe = `${code};console.log(JSON.stringify(['2024-01-15T10:30', '2024-01-15 10:30:05.5'].map(module.exports.normalizeDate)))`;
  for (const zone of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
    const out = execFileSync(process.execPath, ['-e', probe], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
    expect([zone, JSON.parse(out)]).toEqual([zone, ['2024-01-15T10:30:00.000Z', '2024-01-15T10:30:05.500Z']]);
  }
});

test('real dates with offsets normalize as Date reads them', () => {
  const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = (y: number, m: number) => new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !leap(y) ? 1 : 0);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const input = fc.record({
    y: fc.integer({ min: 1000, max: 9000 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    ms: fc.integer({ min: 0, max: 999 }),
    oh: fc.integer({ min: -14, max: 14 }),
    om: fc.constantFrom(0, 30, 45),
    colon: fc.boolean(),
  }).filter((v) => v.d <= days(v.y, v.m));
  fc.assert(fc.property(input, (v) => {
    const offset = `${v.oh < 0 ? '-' : '+'}${pad(Math.abs(v.oh))}${v.colon ? ':' : ''}${pad(v.om)}`;
    const s = `${v.y}-${pad(v.m)}-${pad(v.d)}T${pad(v.h)}:${pad(v.mi)}:${pad(v.s)}.${pad(v.ms, 3)}${offset}`;
    expect(normalizeDate(s)).toBe(new Date(s).toISOString());
  }), { numRuns: propertyRuns(500) });
});
