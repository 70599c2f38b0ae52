// A generated access module writes each key template once, as its parts (literal text around one
// runtime encoder per attribute); the runtime reads sources, segments and prefixes back from them.
import fc from 'fast-check';
import { ALLOWED_DELIMITERS, booleanSegment, dateSegment, escapeCharFor, numberSegment, stringSegment } from '../../lib/keys/encoding';
import { composeParts, composePrefix, partsSegments, partsTemplate, SegmentEncode, templateParts } from '../../lib/keys/template';
import { AttributeKind } from '../../lib/model/manifest';
import type { KeySegmentModel, KeyTemplateModel } from '../../lib/model/model';
import { propertyRuns } from '../support/property-runs';

const ENCODERS: Record<string, SegmentEncode> = { STRING: stringSegment, NUMBER: numberSegment, DATE: dateSegment, BOOLEAN: booleanSegment };
const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  STRING: fc.string({ minLength: 1, maxLength: 6 }),
  NUMBER: fc.double({ noNaN: true, noDefaultInfinity: true }),
  DATE: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  BOOLEAN: fc.constant(true),
};

const segment = fc.oneof(
  fc.stringMatching(/^[A-Z]{1,4}$/).map((literal): KeySegmentModel => ({ literal })),
  fc.constantFrom('STRING', 'NUMBER', 'DATE', 'BOOLEAN').map((kind): KeySegmentModel => ({ kind: kind as AttributeKind })),
);

/** A template of 1 to 5 segments, its attributes named a0, a1, ... */
const template = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments): KeyTemplateModel => {
  let n = 0;
  const named = segments.map((s) => (s.literal !== undefined ? s : { attribute: `a${n++}`, kind: s.kind }));
  return { source: '', segments: named, attributes: named.flatMap((s) => s.attribute ?? []) };
});

/** The parts as a generated module writes them: the runtime's encoder of each kind. */
function moduleParts(t: KeyTemplateModel, delimiter: string) {
  const kinds = t.segments.flatMap((s) => (s.kind ? [s.kind] : []));
  return templateParts(t, delimiter).map((p, i) => (i % 3 === 2 ? ENCODERS[kinds[(i - 2) / 3]] : p));
}

const sourceOf = (t: KeyTemplateModel, delimiter: string) => t.segments.map((s) => s.literal ?? `{${s.attribute}}`).join(delimiter);

test('a template read back from its parts has its segments, source and attributes', () => {
  fc.assert(fc.property(template, fc.constantFrom(...ALLOWED_DELIMITERS), (t, delimiter) => {
    const parts = moduleParts(t, delimiter);
    // The runtime's own parts of a template are a generated module's: one encoder function per kind.
    expect(templateParts(t, delimiter)).toEqual(parts);
    expect(partsSegments(parts, delimiter)).toEqual(t.segments);
    expect(partsTemplate(parts)).toEqual({ source: sourceOf(t, delimiter), attributes: t.attributes });
  }), { numRuns: propertyRuns(100) });
});

test('a prefix of the leading attributes starts the full key and ends at a delimiter; with every attribute it is the key', () => {
  const withValues = template.chain((t) => fc.tuple(
    fc.constant(t),
    fc.tuple(...t.segments.map((s) => (s.kind ? VALUES[s.kind] : fc.constant(undefined)))),
    fc.nat({ max: t.attributes.length }),
  ));
  fc.assert(fc.property(withValues, fc.constantFrom(...ALLOWED_DELIMITERS), ([t, segmentValues, given], delimiter) => {
    const escapeChar = escapeCharFor(delimiter);
    const parts = moduleParts(t, delimiter);
    const all: Record<string, unknown> = {};
    t.segments.forEach((s, i) => { if (s.attribute) all[s.attribute] = segmentValues[i]; });
    const key = composeParts(parts, all, escapeChar) as string;
    const leading = Object.fromEntries(t.attributes.slice(0, given).map((a) => [a, all[a]]));
    const p = composePrefix(parts, leading, escapeChar);
    if ('error' in p) throw new Error(p.error);
    expect(p.used).toEqual(t.attributes.slice(0, given));
    expect(p.complete).toBe(given === t.attributes.length);
    if (p.complete) {
      expect(p.prefix).toBe(key);
    } else {
      expect(key.startsWith(p.prefix)).toBe(true);
      // Ends where a segment ends: never inside a value, so it matches no longer value.
      expect(p.prefix === '' || p.prefix.endsWith(delimiter)).toBe(true);
    }
  }), { numRuns: propertyRuns(100) });
});
