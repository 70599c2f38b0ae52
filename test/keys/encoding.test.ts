import fc from 'fast-check';
import {
  decodeNumber,
  decodeString,
  encodeNumber,
  encodeSegment,
  encodeString,
  escapeCharFor,
  normalizeDate,
  NUMBER_SEGMENT,
  utf8Length,
} from '../../lib/keys/encoding';
import { AttributeKind } from '../../lib/model/manifest';
import { propertyRuns } from '../support/property-runs';

const ESC = escapeCharFor('#');
/** DynamoDB compares string keys as UTF-8 bytes. */
const byteCompare = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const anyString = fc.string({ unit: 'binary', maxLength: 12 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

describe('string segments', () => {
  test('round-trip and never contain the delimiter', () => {
    fc.assert(fc.property(anyString, (s) => {
      const e = encodeString(s, ESC)!;
      expect(e.includes('#')).toBe(false);
      expect(decodeString(e, ESC)).toBe(s);
    }));
  });

  test('order of values is the order of encoded segments, also with a segment following', () => {
    fc.assert(fc.property(anyString, anyString, anyString, anyString, (a, b, x, y) => {
      const expected = sign(byteCompare(a, b));
      expect(sign(byteCompare(encodeString(a, ESC)!, encodeString(b, ESC)!))).toBe(expected);
      if (expected !== 0) {
        const ka = `${encodeString(a, ESC)!}#${encodeString(x, ESC)!}`;
        const kb = `${encodeString(b, ESC)!}#${encodeString(y, ESC)!}`;
        expect(sign(byteCompare(ka, kb))).toBe(expected);
      }
    }));
  });

  test('a prefix ending at the delimiter matches only its own value', () => {
    fc.assert(fc.property(anyString, anyString, anyString, (a, b, rest) => {
      fc.pre(a !== b);
      const key = `T#${encodeString(b, ESC)!}#${encodeString(rest, ESC)!}`;
      expect(key.startsWith(`T#${encodeString(a, ESC)!}#`)).toBe(false);
    }));
  });

  test('an unpaired surrogate has no UTF-8 encoding: no segment, and encodeSegment says why; pairs pass through', () => {
    fc.assert(fc.property(anyString, anyString, fc.integer({ min: 0xd800, max: 0xdfff }), (a, b, unit) => {
      const lone = String.fromCharCode(unit);
      // Well-formed neighbours never pair with it, but a high one directly before b's low half would.
      const value = a + lone + (unit <= 0xdbff ? 'x' : '') + b;
      expect(encodeString(value, ESC)).toBeUndefined();
      expect(encodeSegment(AttributeKind.STRING, value, ESC)).toEqual({ error: expect.stringContaining('unpaired UTF-16 surrogate') });
    }));
    expect(encodeString('a\u{1F600}#b', ESC)).toBe('a\u{1F600}$db');
    // Over any UTF-16 units, surrogates and low characters frequent: refused exactly when UTF-8 has no
    // encoding (encodeURIComponent, which encodes UTF-8, then throws), and otherwise decoded back.
    const unit = fc.oneof(fc.integer({ min: 0, max: 0x26 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(fc.property(fc.string({ unit: unit.map((c) => String.fromCharCode(c)), maxLength: 8 }), (value) => {
      let utf8 = true;
      try {
        encodeURIComponent(value);
      } catch {
        utf8 = false;
      }
      const encoded = encodeString(value, ESC);
      expect(encoded !== undefined).toBe(utf8);
      if (encoded !== undefined) expect(decodeString(encoded, ESC)).toBe(value);
    }), { numRuns: propertyRuns(300) });
    expect(encodeString('\ud83d\ude00', ESC)).toBe('\u{1F600}');
  });

  test('readable where no escaping is needed', () => {
    expect(encodeString('alice@example.com', ESC)).toBe('alice@example.com');
    expect(encodeString('a#b', ESC)).toBe('a$db');
    expect(encodeString('Ann Lee', ESC)).toBe('Ann$aLee');
  });
});

describe('number segments', () => {
  test('round-trip, match the number pattern and keep numeric order', () => {
    fc.assert(fc.property(finite, finite, (a, b) => {
      const ea = encodeNumber(a);
      expect(NUMBER_SEGMENT.test(ea)).toBe(true);
      expect(decodeNumber(ea)).toBe(a === 0 ? 0 : a);
      expect(sign(byteCompare(ea, encodeNumber(b)))).toBe(sign(a - b));
      if (a !== b) expect(sign(byteCompare(`${ea}#z`, `${encodeNumber(b)}#a`))).toBe(sign(a - b));
    }), { numRuns: propertyRuns(200) });
  });

  test('PRICE#99.99 sorts before PRICE#100.00 (as plain strings it would not)', () => {
    expect(byteCompare(`PRICE#${encodeNumber(99.99)}`, `PRICE#${encodeNumber(100)}`)).toBeLessThan(0);
    expect(byteCompare(encodeNumber(-1.5), encodeNumber(-1))).toBeLessThan(0);
    expect(encodeNumber(-0)).toBe(encodeNumber(0));
  });
});

describe('dates', () => {
  test('normalized to ISO-8601 UTC, chronological as strings', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (a, b) => {
      expect(sign(byteCompare(normalizeDate(a)!, normalizeDate(b)!))).toBe(sign(a.getTime() - b.getTime()));
    }));
    expect(normalizeDate('2024-01-15T10:30:00+02:00')).toBe('2024-01-15T08:30:00.000Z');
    expect(normalizeDate('2024-01-15')).toBe('2024-01-15T00:00:00.000Z');
    expect(normalizeDate('yesterday')).toBeUndefined();
  });
});

describe('segments by kind', () => {
  test('missing, empty and false are absent; wrong types are errors', () => {
    expect(encodeSegment(AttributeKind.STRING, '', ESC)).toEqual({ absent: true });
    expect(encodeSegment(AttributeKind.STRING, undefined, ESC)).toEqual({ absent: true });
    expect(encodeSegment(AttributeKind.BOOLEAN, false, ESC)).toEqual({ absent: true });
    expect(encodeSegment(AttributeKind.BOOLEAN, true, ESC)).toEqual({ segment: 'true' });
    expect(encodeSegment(AttributeKind.NUMBER, '12', ESC)).toEqual({ error: 'must be a finite number, got "12"' });
    expect(encodeSegment(AttributeKind.NUMBER, Infinity, ESC)).toHaveProperty('error');
    expect(encodeSegment(AttributeKind.MAP, {}, ESC)).toHaveProperty('error');
  });

  test('UTF-8 length counts bytes, not UTF-16 units: 1 to 4 per code point, 3 for a lone surrogate (as U+FFFD)', () => {
    expect(utf8Length('aé中\ud83d\ude00')).toBe(1 + 2 + 3 + 4);
    expect(utf8Length('\ud800x\udc00')).toBe(3 + 1 + 3);
    // Per code point: the length of the string is the sum of its code points' lengths.
    const bytesOf = (c: number) => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
    fc.assert(fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udc00'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (s) => {
      expect(utf8Length(s)).toBe([...s].reduce((n, ch) => n + bytesOf(ch.codePointAt(0)!), 0));
    }));
  });
});
