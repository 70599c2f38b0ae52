// normalizeDate's fast path (a string already in normalized form, checked field by field) must
// agree with parsing through Date, for real and impossible dates alike.
import fc from 'fast-check';
import { normalizeDate } from '../../lib/keys/encoding';

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
  }), { numRuns: 20000 });
  for (const s of ['2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '2024-04-31T00:00:00.000Z']) {
    expect(normalizeDate(s)).toBe(viaDate(s));
  }
});
