// Value encoding for key segments. Three promises, property-tested in test/keys:
// 1. injective: two distinct values of one kind never encode to the same segment;
// 2. order-preserving: comparing encoded segments as UTF-8 bytes (what DynamoDB does) orders them
//    the way their values order, also when a segment is followed by more segments;
// 3. delimiter-free: an encoded value never contains the delimiter, so a key splits into exactly
//    its template's segments and a begins_with prefix ending in a delimiter stops at a boundary.
//
// Strings: every character up to and including the escape character (the delimiter's code point
// plus one) is written as the escape character followed by 'A' + its code. The delimiter is then
// the smallest byte that can follow a value, which keeps tuples in order ("Ann" < "Ann Lee" even
// when more segments follow), and escaped characters keep their relative order.
import { AttributeKind } from '../model/manifest';

/** Delimiters a manifest may choose: low ASCII punctuation, below every digit and letter. */
export const ALLOWED_DELIMITERS = '!#$%&*+';

/** The escape character that goes with a delimiter: the next code point. */
export function escapeCharFor(delimiter: string): string {
  return String.fromCharCode(delimiter.charCodeAt(0) + 1);
}

/** Escapes a string value for use as a key segment; undefined when it holds an unpaired surrogate (no UTF-8 encoding). */
export function encodeString(value: string, escapeChar: string): string | undefined {
  const limit = escapeChar.charCodeAt(0);
  // The escaped text up to `from`; a value with nothing to escape is returned as it is.
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    let c = value.charCodeAt(i);
    if (c <= limit) {
      // The escape character, then 'A' (0x41) plus the code.
      out += value.slice(from, i) + escapeChar + String.fromCharCode(0x41 + c);
      from = i + 1;
    } else if ((c & 0xf800) === 0xd800) { // eslint-disable-line no-bitwise
      // A surrogate (0xd800 to 0xdfff) is only valid as a high one (up to 0xdbff) followed by a
      // low one (0xdc00 to 0xdfff; NaN past the end is neither); a lone one has no UTF-8 encoding.
      if (c > 0xdbff || ((c = value.charCodeAt(++i)) & 0xfc00) !== 0xdc00) return undefined; // eslint-disable-line no-bitwise
    }
  }
  return from ? out + value.slice(from) : value;
}

/** Reverses `encodeString`. */
export function decodeString(segment: string, escapeChar: string): string {
  if (!segment.includes(escapeChar)) return segment;
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === escapeChar) {
      out += String.fromCharCode(segment.charCodeAt(++i) - 0x41);
    } else {
      out += segment[i];
    }
  }
  return out;
}

// Numbers: sign class, a biased decimal exponent, then the shortest round-trip mantissa digits.
//   positive: 'P' + (exponent + 500, 3 digits) + digits        100   -> P5021
//   zero:     'P000'                                            (below every positive exponent)
//   negative: 'N' + (499 - exponent, 3 digits) + 9's complement of digits + '~'
// The '~' terminator sorts above every digit, so among negatives with one exponent a longer
// complement (a larger magnitude) sorts first. Doubles have exponents -324..308.
const EXPONENT_BIAS = 500;

/** Order-preserving encoding of a finite number. */
export function encodeNumber(value: number): string {
  if (value === 0) return 'P000';
  const [mantissa, exp] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exp);
  if (value > 0) return 'P' + String(exponent + EXPONENT_BIAS).padStart(3, '0') + digits;
  let complement = '';
  for (let i = 0; i < digits.length; i++) complement += String(9 - (digits.charCodeAt(i) - 48));
  return 'N' + String(EXPONENT_BIAS - 1 - exponent).padStart(3, '0') + complement + '~';
}

/** Reverses `encodeNumber`. */
export function decodeNumber(segment: string): number {
  if (segment === 'P000') return 0;
  const negative = segment[0] === 'N';
  const biased = Number(segment.slice(1, 4));
  let digits = segment.slice(4, negative ? -1 : undefined);
  if (negative) digits = digits.split('').map((d) => String(9 - Number(d))).join('');
  const exponent = negative ? EXPONENT_BIAS - 1 - biased : biased - EXPONENT_BIAS;
  const magnitude = Number(`${digits[0]}.${digits.slice(1) || '0'}e${exponent}`);
  return negative ? -magnitude : magnitude;
}

/** Matches every output of `encodeNumber`. */
export const NUMBER_SEGMENT = /^(P000|P\d{3}[1-9]\d*|N\d{3}[0-8]\d*~)$/;

/** Matches every output of `normalizeDate`. */
export const DATE_SEGMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The last string `normalizeDate` returned: a put checks its date once as a value and again as a key segment. */
let lastNormalized: string | undefined;

/**
 * Normalizes a date to ISO-8601 UTC with milliseconds (fixed width, so it sorts chronologically
 * for years 0000..9999). Returns undefined for an invalid or out-of-range date.
 */
export function normalizeDate(value: unknown): string | undefined {
  if (value === lastNormalized) return lastNormalized;
  // Most dates arrive normalized: matched by one pattern they skip the parsing (Date and its
  // toISOString would cost most of a put's time).
  if (typeof value === 'string' && NORMALIZED_IN_RANGE.test(value)) return (lastNormalized = value);
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? parseIsoDate(value) : NaN;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  // NaN fails both comparisons.
  if (!(year >= 0 && year <= 9999)) return undefined;
  return date.toISOString();
}

/** A normalized date whose month, day and time are in range; a February 29th is left to the general path. */
const NORMALIZED_IN_RANGE = /^\d{4}-((0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?:(:\d{2})(?:\.(\d+))?)?(?:Z|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * The instant an ISO-8601 string names, or NaN. Date alone would roll impossible dates over
 * (2024-02-30 is March 1st, 24:00 the next day) and read a date-time without an offset as the
 * process's local time: here every field must be in range (leap years included) and no offset means UTC.
 */
function parseIsoDate(s: string): number {
  const m = ISO_DATE.exec(s);
  if (!m) return NaN;
  const [, calendarDate, hourMinute = '00:00', seconds = ':00', fraction = '', sign, offsetHours = 0, offsetMinutes = 0] = m;
  const utc = `${calendarDate}T${hourMinute}${seconds}.${fraction.slice(0, 3).padEnd(3, '0')}Z`;
  const time = Date.parse(utc);
  // Date.parse rejects other fields out of range, but rolls a day past the month's end or 24:00
  // over: the instant it then returns is written as other text.
  if (Number.isNaN(time) || new Date(time).toISOString() !== utc || +offsetHours > 23 || +offsetMinutes > 59) return NaN;
  return time - (sign === '-' ? -1 : sign ? 1 : 0) * (+offsetHours * 60 + +offsetMinutes) * 60000;
}

/** Why a value cannot be encoded, or undefined when it can. */
export type EncodeResult = { readonly segment: string } | { readonly absent: true } | { readonly error: string };

/**
 * Encodes one attribute value as a key segment. A missing value, an empty string or `false`
 * (booleans) is "absent": the key cannot be composed, and an index key is then left out (sparse).
 */
export function encodeSegment(kind: AttributeKind | 'SHARD', value: unknown, escapeChar: string): EncodeResult {
  const r = encodeValue(kind, value, escapeChar);
  return typeof r === 'string' ? { segment: r } : r ?? { absent: true };
}

/**
 * `encodeSegment` without a result object, for the composers that run on every put and query:
 * the segment, undefined when the value is absent, or why it cannot be encoded.
 */
export function encodeValue(kind: AttributeKind | 'SHARD', value: unknown, escapeChar: string): SegmentResult {
  if (value === undefined || value === null || value === '') return undefined;
  switch (kind) {
    case AttributeKind.STRING: return stringSegment(value, escapeChar);
    case AttributeKind.NUMBER: return numberSegment(value);
    case AttributeKind.DATE: return dateSegment(value);
    case AttributeKind.BOOLEAN: return booleanSegment(value);
    case 'SHARD':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : { error: mustBe('a shard number', value) };
    default:
      return { error: `has type ${kind}, which cannot be part of a key` };
  }
}

/** A key segment, undefined when the value is absent, or why the value cannot be one. */
export type SegmentResult = string | undefined | { readonly error: string };

/**
 * The segment encoders of each key kind, for a value that is given (not undefined, null or ''):
 * one function per kind, so code that composes keys of known kinds (a generated access module)
 * carries only those kinds' encoders.
 */
export function stringSegment(value: unknown, escapeChar: string): SegmentResult {
  return typeof value !== 'string' ? { error: mustBe('a string', value) } : encodeString(value, escapeChar) ?? { error: UNPAIRED_SURROGATE };
}

export function numberSegment(value: unknown): SegmentResult {
  return typeof value === 'number' && Number.isFinite(value) ? encodeNumber(value) : { error: mustBe('a finite number', value) };
}

export function dateSegment(value: unknown): SegmentResult {
  return normalizeDate(value) ?? { error: mustBe(DATE_RULE, value) };
}

export function booleanSegment(value: unknown): SegmentResult {
  if (typeof value !== 'boolean') return { error: mustBe('a boolean', value) };
  return value ? 'true' : undefined;
}

export const UNPAIRED_SURROGATE = 'holds an unpaired UTF-16 surrogate: DynamoDB keys are UTF-8, which has no form for it';

/** What a date value may be (the rule a bad one's message states). */
export const DATE_RULE = 'a Date or an ISO-8601 date string (stored as ISO-8601 UTC)';

/** The reason a value is refused: what it must be, and what it is. */
export const mustBe = (rule: string, value: unknown) => `must be ${rule}, got ${describe(value)}`;

/** A short description of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Kinds that can appear in key templates. */
// The kinds' values, not AttributeKind's members: a bundler keeps a set built from property reads
// of another module (they might have effects) even where nothing uses it.
export const KEYABLE_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set<`${AttributeKind}`>(['STRING', 'NUMBER', 'DATE', 'BOOLEAN']);

/** UTF-8 byte length of a string, without allocating: a lone surrogate counts as the 3 bytes of the U+FFFD it would become. */
export const utf8Length = (s: string): number => Buffer.byteLength(s);

/** DynamoDB's key size limits in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;
