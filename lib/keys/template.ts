// Key templates: `CUSTOMER#{username}`. A template is a list of segments joined by the delimiter;
// each segment is either literal text or exactly one `{attribute}`. Segments never mix the two,
// so every attribute value fills a whole segment and prefixes can end at a segment boundary.
//
// lib/keys holds the key formats (templates, value encoding, shard choice, unique guards, what an
// index entry holds), shared by the compiler and the runtime and matched byte for byte by the
// Python runtime. Building requests from them is the runtime's: an item's key attributes in
// runtime/attributes, a query's key condition and cursor in runtime/query.
import { booleanSegment, DATE_SEGMENT, dateSegment, encodeValue, KEYABLE_KINDS, NUMBER_SEGMENT, numberSegment, SegmentResult, stringSegment } from './encoding';
import { AttributeKind } from '../model/manifest';
import type { KeySegmentModel, KeyTemplateModel } from '../model/model';

const PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_.-]*)\}$/;

/**
 * Parses a template; returns an error message (without location) when it is malformed, and the
 * attribute it names when that one is not declared (so the caller can suggest a declared one).
 */
export function parseTemplate(
  source: string,
  delimiter: string,
  escapeChar: string,
  attributeKind: (name: string) => AttributeKind | undefined,
): { template: KeyTemplateModel } | { error: string; undeclared?: string } {
  if (typeof source !== 'string' || source.length === 0) return { error: 'is empty; write e.g. `ORDER#{orderId}`' };
  const segments: KeySegmentModel[] = [];
  const attributes: string[] = [];
  const parts = source.split(delimiter);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length === 0) {
      return {
        error: `has an empty segment at position ${i + 1}; segments are separated by exactly one '${delimiter}' and the template neither starts nor ends with it`,
      };
    }
    const placeholder = PLACEHOLDER.exec(part);
    if (placeholder) {
      const name = placeholder[1];
      const kind = attributeKind(name);
      if (kind === undefined) return { error: `names undeclared attribute '${name}'`, undeclared: name };
      if (!KEYABLE_KINDS.has(kind)) {
        return { error: `uses attribute '${name}' of type ${kind}; only STRING, NUMBER, DATE and BOOLEAN can be key segments` };
      }
      segments.push({ attribute: name, kind });
      attributes.push(name);
      continue;
    }
    if (part.includes('{') || part.includes('}')) {
      return {
        error: `segment '${part}' mixes literal text and a placeholder or is malformed; make each '{attribute}' a segment of its own, separated by '${delimiter}'`,
      };
    }
    for (const ch of part) {
      if (ch.charCodeAt(0) <= escapeChar.charCodeAt(0)) {
        return {
          error: `literal segment '${part}' contains ${JSON.stringify(ch)}; literals may not contain spaces, control characters or characters up to '${escapeChar}'`,
        };
      }
      // for-of yields a surrogate pair as one two-unit string: a one-unit surrogate is unpaired.
      if (ch.length === 1 && ch >= '\ud800' && ch <= '\udfff') {
        return { error: `literal segment ${JSON.stringify(part)} holds an unpaired UTF-16 surrogate, which UTF-8 (and so a DynamoDB key) cannot hold; remove it` };
      }
    }
    segments.push({ literal: part });
  }
  return { template: { source, segments, attributes } };
}

/** The outcome of composing a key. */
export type ComposeResult = { readonly key: string } | ComposeFailure;

/** Why a key could not be composed: an input is absent, or a value cannot be encoded. */
export type ComposeFailure = { readonly absent: string } | { readonly error: string; readonly attribute: string };

/** A template compiled for one delimiter: the key, or why there is none. */
export type Composer = (values: Readonly<Record<string, unknown>>) => string | ComposeFailure;

/** Compiles a template into a composer, once per template (see templateParts). */
export function composerOf(template: KeyTemplateModel, delimiter: string, escapeChar: string): Composer {
  const parts = templateParts(template, delimiter);
  return (values) => composeParts(parts, values, escapeChar);
}

/** Encodes a given (not absent) value as a key segment; see encodeValue. */
export type SegmentEncode = (value: unknown, escapeChar: string) => SegmentResult;

/**
 * A template as the text around its placeholders: the literal text before the first attribute
 * (delimiters included), then per attribute its name, its encoder and the literal text after it:
 * `CUSTOMER#{username}` is `['CUSTOMER#', 'username', stringSegment, '']`.
 */
export type TemplateParts = readonly (string | SegmentEncode)[];

/**
 * Composes a key from its template's parts, walking only the attributes and allocating nothing
 * but the key. A value that is undefined, null or '' is absent.
 */
export function composeParts(parts: TemplateParts, values: Readonly<Record<string, unknown>>, escapeChar: string): string | ComposeFailure {
  let key = parts[0] as string;
  for (let i = 1; i < parts.length; i += 3) {
    const name = parts[i] as string;
    const value = values[name];
    const r = value === undefined || value === null || value === '' ? undefined : (parts[i + 1] as SegmentEncode)(value, escapeChar);
    if (typeof r !== 'string') return r === undefined ? { absent: name } : { ...r, attribute: name };
    key += r + (parts[i + 2] as string);
  }
  return key;
}

/** The template a list of parts was made from: `CUSTOMER#{username}` (for messages). */
export function partsSource(parts: TemplateParts): string {
  return parts.map((p, i) => (i % 3 ? (i % 3 < 2 ? `{${p as string}}` : '') : p)).join('');
}

/**
 * A template's parts (TemplateParts), each attribute with the encoder of its kind: the same
 * functions a generated access module's parts hold, so the encoder call in composeParts sees a few
 * functions, not one closure per template, and V8 keeps it fast on both paths in one process.
 */
export function templateParts(template: KeyTemplateModel, delimiter: string): TemplateParts {
  const parts: (string | SegmentEncode)[] = [''];
  template.segments.forEach((seg, i) => {
    if (i > 0) parts[parts.length - 1] += delimiter;
    if (seg.literal !== undefined) parts[parts.length - 1] += seg.literal;
    else parts.push(seg.attribute!, ENCODER_KINDS.find(([, kind]) => kind === seg.kind)?.[0] ?? ((value: unknown, escape: string) => encodeValue(seg.kind!, value, escape)), '');
  });
  return parts;
}

/**
 * The segments of a template from its parts (the inverse of templateParts for a generated module's
 * parts, whose encoders are the runtime's of each kind): literal text split at the delimiter, and
 * each attribute with the kind of its encoder.
 */
export function partsSegments(parts: TemplateParts, delimiter: string): KeySegmentModel[] {
  const segments: KeySegmentModel[] = [];
  parts.forEach((part, i) => {
    if (i % 3 === 0) {
      for (const literal of (part as string).split(delimiter)) if (literal) segments.push({ literal });
    } else if (i % 3 === 1) {
      segments.push({ attribute: part as string, kind: ENCODER_KINDS.find(([encode]) => encode === parts[i + 1])![1] as AttributeKind });
    }
  });
  return segments;
}

// The kinds' values, not AttributeKind's members: property reads of another module would keep the
// list (and every encoder) in bundles that call neither templateParts nor partsSegments.
const ENCODER_KINDS: readonly (readonly [SegmentEncode, `${AttributeKind}`])[] = [
  [stringSegment, 'STRING'], [numberSegment, 'NUMBER'], [dateSegment, 'DATE'], [booleanSegment, 'BOOLEAN'],
];

/** The source of a template and its attributes, from its parts: what the errors of a key name. */
export function partsTemplate(parts: TemplateParts): Pick<KeyTemplateModel, 'source' | 'attributes'> {
  return { source: partsSource(parts), attributes: parts.filter((_, i) => i % 3 === 1) as string[] };
}

const composers = new WeakMap<KeyTemplateModel, Composer>();

/** Composes a full key from attribute values. */
export function composeKey(
  template: KeyTemplateModel,
  values: Readonly<Record<string, unknown>>,
  delimiter: string,
  escapeChar: string,
): ComposeResult {
  let compose = composers.get(template);
  if (!compose) {
    compose = composerOf(template, delimiter, escapeChar);
    // Only a frozen (compiled) template is known never to change under its cached composer.
    if (Object.isFrozen(template)) composers.set(template, compose);
  }
  const r = compose(values);
  return typeof r === 'string' ? { key: r } : r;
}

/** A prefix of a template composed from its leading known attributes. */
export type PrefixResult =
  | { readonly prefix: string; readonly complete: boolean; readonly used: string[] }
  | { readonly error: string; readonly attribute: string };

/**
 * Composes the longest prefix of a template (as its parts) whose attributes are all given. An
 * incomplete prefix ends with the delimiter (the text before the first absent attribute), so
 * `TENANT#a#` never matches `TENANT#ab#...`; a complete one is the full key.
 */
export function composePrefix(parts: TemplateParts, values: Readonly<Record<string, unknown>>, escapeChar: string): PrefixResult {
  let prefix = parts[0] as string;
  const used: string[] = [];
  for (let i = 1; i < parts.length; i += 3) {
    const name = parts[i] as string;
    const value = values[name];
    const r = value === undefined || value === null || value === '' ? undefined : (parts[i + 1] as SegmentEncode)(value, escapeChar);
    if (r === undefined) return { prefix, complete: false, used };
    if (typeof r !== 'string') return { error: r.error, attribute: name };
    used.push(name);
    prefix += r + (parts[i + 2] as string);
  }
  return { prefix, complete: true, used };
}

/** Whether a literal could be the encoding of a value of this kind. */
function literalFits(literal: string, kind: AttributeKind | 'SHARD'): boolean {
  switch (kind) {
    case AttributeKind.STRING: return true;
    case AttributeKind.NUMBER: return NUMBER_SEGMENT.test(literal);
    case AttributeKind.DATE: return DATE_SEGMENT.test(literal);
    case AttributeKind.BOOLEAN: return literal === 'true';
    case 'SHARD': return /^\d+$/.test(literal);
    default: return false;
  }
}

/** Whether two value segments of these kinds could encode to the same text. */
function kindsMeet(a: AttributeKind | 'SHARD', b: AttributeKind | 'SHARD'): boolean {
  if (a === b || a === AttributeKind.STRING || b === AttributeKind.STRING) return true;
  return false;
}

function segmentKind(seg: KeySegmentModel): AttributeKind | 'SHARD' {
  return seg.attribute === undefined ? AttributeKind.STRING : (seg.kind ?? AttributeKind.STRING);
}

/**
 * Whether two segment lists can produce the same key. Encoded values never contain the
 * delimiter, so keys with different segment counts never meet.
 */
export function segmentsOverlap(a: readonly KeySegmentModel[], b: readonly KeySegmentModel[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.literal !== undefined && y.literal !== undefined) {
      if (x.literal !== y.literal) return false;
    } else if (x.literal !== undefined) {
      if (!literalFits(x.literal, segmentKind(y))) return false;
    } else if (y.literal !== undefined) {
      if (!literalFits(y.literal, segmentKind(x))) return false;
    } else if (!kindsMeet(segmentKind(x), segmentKind(y))) {
      return false;
    }
  }
  return true;
}

/** The segment that a shard suffix adds to a sharded partition key. */
export const SHARD_SEGMENT: KeySegmentModel = /* @__PURE__ */ Object.freeze({ attribute: '$shard', kind: 'SHARD' as unknown as AttributeKind });
