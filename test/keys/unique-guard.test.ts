// Guard keys of unique values never equal an entity's key, and distinct (entity, attribute, value)
// triples never share a guard.
import fc from 'fast-check';
import { ALLOWED_DELIMITERS, decodeString, encodeValue, escapeCharFor } from '../../lib/keys/encoding';
import { composeKey, parseTemplate } from '../../lib/keys/template';
import { guardKey, guardMark, isGuardKey, scopePrefix } from '../../lib/keys/unique-guard';
import { AttributeKind } from '../../lib/model/manifest';
import { assertedAtLeast, propertyRuns } from '../support/property-runs';

const delimiter = fc.constantFrom(...ALLOWED_DELIMITERS.split(''));
/** Every guard's mark (the escape character of a delimiter, then `unique`). */
const MARKS = ALLOWED_DELIMITERS.split('').map((d) => guardMark(escapeCharFor(d)));
// Strings near a guard's key on purpose: the marks, `unique` alone, marks inside a value, escape
// characters and delimiters; and any text.
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('unique', 'Unique', ...MARKS, ...MARKS.map((m) => `x${m}`), ...MARKS.map((m) => m.slice(0, 2))),
  fc.string({ unit: fc.constantFrom(...ALLOWED_DELIMITERS.split(''), ...MARKS.map((m) => m[0]), 'u', 'n', 'i', 'q', 'e'), maxLength: 8 }),
);
const KINDS = [AttributeKind.STRING, AttributeKind.NUMBER, AttributeKind.DATE, AttributeKind.BOOLEAN] as const;
const valueOf = (kind: AttributeKind): fc.Arbitrary<unknown> => {
  switch (kind) {
    case AttributeKind.NUMBER: return fc.double({ noNaN: true, noDefaultInfinity: true });
    case AttributeKind.DATE: return fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    case AttributeKind.BOOLEAN: return fc.boolean();
    default: return anyString;
  }
};
/** A template segment: a literal (possibly one the parser refuses) or an attribute of some kind. */
const segment = fc.oneof(
  fc.record({ literal: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('unique', 'UNIQUE', ...MARKS)) }),
  fc.record({ kind: fc.constantFrom(...KINDS) }),
);

describe('guard keys', () => {
  test('no template the parser accepts composes, from any values, a key that is a guard key', () => {
    // The template's segments, each attribute with a value of its kind.
    const segmentsWithValues = fc.array(segment, { minLength: 1, maxLength: 4 })
      .chain((segs) => fc.tuple(fc.constant(segs), fc.tuple(...segs.map((s) => ('kind' in s ? valueOf(s.kind) : fc.constant(undefined))))));
    fc.assert(fc.property(delimiter, segmentsWithValues, (delim, [segs, drawn]) => {
      const esc = escapeCharFor(delim);
      const kinds: Record<string, AttributeKind> = {};
      const source = segs.map((s, i) => {
        if ('literal' in s) return s.literal;
        kinds[`a${i}`] = s.kind;
        return `{a${i}}`;
      }).join(delim);
      const parsed = parseTemplate(source, delim, esc, (n) => kinds[n]);
      fc.pre('template' in parsed);
      if (!('template' in parsed)) return;
      const values = Object.fromEntries(Object.keys(kinds).map((n) => [n, drawn[Number(n.slice(1))]]));
      const composed = composeKey(parsed.template, values, delim, esc);
      // A value that leaves the key uncomposed (false, '', a lone surrogate) has nothing to check.
      if (!('key' in composed)) return;
      expect(isGuardKey(composed.key, delim, esc)).toBe(false);
      expect(composed.key.split(delim)[0]).not.toBe(guardMark(esc));
    }), { numRuns: propertyRuns(200), plugins: [assertedAtLeast(0.5)] });
  });

  test('no encoded value of any kind holds the guard mark, and a literal holding it is refused', () => {
    fc.assert(fc.property(delimiter, fc.constantFrom(...KINDS).chain((k) => fc.tuple(fc.constant(k), valueOf(k))), (delim, [kind, value]) => {
      const esc = escapeCharFor(delim);
      const encoded = encodeValue(kind, value, esc);
      // false and '' have no segment, a lone surrogate none either.
      if (typeof encoded === 'string') expect(encoded.includes(guardMark(esc).slice(0, 2))).toBe(false);
    }), { numRuns: propertyRuns(300), plugins: [assertedAtLeast(0.6)] });
    for (const delim of ALLOWED_DELIMITERS) {
      const esc = escapeCharFor(delim);
      expect(parseTemplate(`${guardMark(esc)}${delim}{a}`, delim, esc, () => AttributeKind.STRING)).toEqual({ error: expect.stringContaining('literals may not contain') });
    }
  });

  test('distinct entity, attribute and value triples have distinct guards, each decodable back to its triple', () => {
    fc.assert(fc.property(delimiter, anyString, anyString, anyString, (delim, typeValue, attribute, value) => {
      const esc = escapeCharFor(delim);
      const key = guardKey(delim, esc, typeValue || 'T', attribute || 'a', AttributeKind.STRING, value);
      if (!key || 'error' in key) return;
      const parts = key.pk.split(delim);
      expect(parts).toHaveLength(4);
      expect(parts.slice(1).map((p) => decodeString(p, esc))).toEqual([typeValue || 'T', attribute || 'a', value]);
      expect(isGuardKey(key.pk, delim, esc)).toBe(true);
      expect(key.sk).toBe(guardMark(esc));
    }), { numRuns: propertyRuns(100), plugins: [assertedAtLeast(0.6)] });
  });

  test('scoped guards (unique per tenant): never an entity key, distinct per tenant and triple, and under the tenant\'s own key prefix', () => {
    const tenantTemplate = (delim: string, esc: string, literals: string[]) => {
      const parsed = parseTemplate([...literals, '{tenantId}', 'INVOICE', '{invoiceId}'].join(delim), delim, esc, () => AttributeKind.STRING);
      return 'template' in parsed ? parsed.template : undefined;
    };
    fc.assert(fc.property(
      delimiter, fc.array(fc.constantFrom('TENANT', 'T', 'unique', 'ORG'), { maxLength: 2 }), anyString, anyString, anyString, anyString, anyString,
      (delim, literals, tenantA, tenantB, value, invoiceId, typeValue) => {
        const esc = escapeCharFor(delim);
        const template = tenantTemplate(delim, esc, literals)!;
        const guardOf = (tenant: string) => {
          const scope = scopePrefix(template, 'tenantId', tenant, delim, esc);
          if (typeof scope !== 'string') return undefined;
          const key = guardKey(delim, esc, typeValue || 'T', 'email', AttributeKind.STRING, value, scope);
          return key && 'pk' in key ? { key: key.pk, scope } : undefined;
        };
        const a = guardOf(tenantA);
        if (!a) return;
        expect(isGuardKey(a.key, delim, esc)).toBe(true);
        // The tenant's items and its guards share the prefix up to the tenant id, then part at the next segment.
        const item = composeKey(template, { tenantId: tenantA, invoiceId }, delim, esc);
        if ('key' in item) {
          expect(item.key.startsWith(a.scope + delim)).toBe(true);
          expect(a.key.startsWith(a.scope + delim)).toBe(true);
          expect(item.key).not.toBe(a.key);
          expect(isGuardKey(item.key, delim, esc)).toBe(false);
        }
        const b = guardOf(tenantB);
        if (b && tenantA !== tenantB) {
          expect(b.key).not.toBe(a.key);
          // No tenant's prefix reaches another's guards: encoded ids hold no delimiter.
          expect(b.key.startsWith(a.scope + delim)).toBe(false);
        }
        // A guard unique across the table never equals a scoped one.
        const global = guardKey(delim, esc, typeValue || 'T', 'email', AttributeKind.STRING, value);
        if (global && 'pk' in global) expect(global.pk).not.toBe(a.key);
      }), { numRuns: propertyRuns(200), plugins: [assertedAtLeast(0.5)] });
  });

  test('an empty value has no guard; a value the key cannot hold says why', () => {
    expect(guardKey('#', '$', 'Customer', 'email', AttributeKind.STRING, '')).toBeUndefined();
    expect(guardKey('#', '$', 'Customer', 'email', AttributeKind.STRING, 42)).toEqual({ error: 'must be a string, got number 42' });
    expect(guardKey('#', '$', 'Customer', 'email', AttributeKind.STRING, 'a#b')).toEqual({ pk: '$unique#Customer#email#a$db', sk: '$unique' });
  });
});
