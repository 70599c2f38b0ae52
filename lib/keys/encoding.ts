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
import { AttributeKind } from '../manifest/structs';

/** Delimiters a manifest may choose: low ASCII punctuation, below every digit and letter. */
export const ALLOWED_DELIMITERS = '!#$%&*+';

const ESCAPE_BASE = 0x41; // 'A'

/** The escape character that goes with a delimiter: the next code point. */
export function escapeCharFor(delimiter: string): string {
  return String.fromCharCode(delimiter.charCodeAt(0) + 1);
}

/** Escapes a string value for use as a key segment; undefined when it holds an unpaired surrogate (no UTF-8 encoding). */
export function encodeString(value: string, escapeChar: string): string | undefined {
  const limit = escapeChar.charCodeAt(0);
  let needs = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= limit || (c >= 0xd800 && c <= 0xdfff)) {
      needs = true;
      break;
    }
  }
  if (!needs) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= limit) {
      out += escapeChar + String.fromCharCode(ESCAPE_BASE + c);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate is only valid as the first half of a pair; a lone one has no UTF-8 encoding.
      if (c > 0xdbff || !isLowSurrogate(value.charCodeAt(i + 1))) return undefined;
      out += value[i] + value[++i];
    } else {
      out += value[i];
    }
  }
  return out;
}

/** Reverses `encodeString`. */
export function decodeString(segment: string, escapeChar: string): string {
  if (!segment.includes(escapeChar)) return segment;
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === escapeChar) {
      out += String.fromCharCode(segment.charCodeAt(++i) - ESCAPE_BASE);
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

/** The last string `normalizeDate` found normalized (see there). */
let lastNormalized = '';

/**
 * Normalizes a date to ISO-8601 UTC with milliseconds (fixed width, so it sorts chronologically
 * for years 0000..9999). Returns undefined for an invalid or out-of-range date.
 */
export function normalizeDate(value: unknown): string | undefined {
  // Fast path: a string already in the normalized form is returned as is once its fields are in
  // range. Parsing it through Date costs about a microsecond, most of a put's time.
  if (typeof value === 'string' && value.length === 24 && value.charCodeAt(23) === 90 /* Z */) {
    // A put checks its date once as a value and again as a key segment: remember the last one.
    if (value === lastNormalized) return value;
    const shape = normalizedShape(value);
    if (shape) lastNormalized = value;
    if (shape !== undefined) return shape ? value : undefined;
  }
  let time: number;
  if (value instanceof Date) {
    time = value.getTime();
  } else if (typeof value === 'string') {
    time = parseIsoDate(value);
  } else {
    return undefined;
  }
  if (Number.isNaN(time)) return undefined;
  const date = value instanceof Date ? value : new Date(time);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return undefined;
  return date.toISOString();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * The instant an ISO-8601 string names, or NaN. Parsed here rather than by Date, which rolls
 * impossible dates over (2024-02-30 is March 1st) and reads a date-time without an offset as the
 * process's local time; here every field must be in range and no offset means UTC.
 */
function parseIsoDate(s: string): number {
  const m = ISO_DATE.exec(s);
  if (!m) return NaN;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (!inRange(year, month, day, hour, minute, second) || offsetHours > 23 || offsetMinutes > 59) return NaN;
  const millis = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC, which maps years 0-99 to 1900-1999
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - (m[9] === '-' ? -1 : m[9] === '+' ? 1 : 0) * (offsetHours * 60 + offsetMinutes) * 60000;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the fields name a real instant: month, day (leap years included) and time in range. */
function inRange(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return month >= 1 && month <= 12 && day >= 1 && day <= days && hour < 24 && minute < 60 && second < 60;
}

/** The number the two decimal digits at `at` spell, or a negative number when either is not a digit. */
function twoDigits(s: string, at: number): number {
  const a = s.charCodeAt(at) - 48;
  const b = s.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * For a 24-character string: undefined when it does not have DATE_SEGMENT's shape (the slow path
 * decides), else whether it names a real instant (month, day, time in range). Field by field, by
 * character code: about a quarter faster than DATE_SEGMENT.test.
 */
function normalizedShape(iso: string): boolean | undefined {
  const separators = iso.charCodeAt(4) === 45 && iso.charCodeAt(7) === 45 && iso.charCodeAt(10) === 84 // - - T
    && iso.charCodeAt(13) === 58 && iso.charCodeAt(16) === 58 && iso.charCodeAt(19) === 46; // : : .
  const century = twoDigits(iso, 0);
  const years = twoDigits(iso, 2);
  const month = twoDigits(iso, 5);
  const day = twoDigits(iso, 8);
  const hour = twoDigits(iso, 11);
  const minute = twoDigits(iso, 14);
  const second = twoDigits(iso, 17);
  // Digits 20-21 and 21-22: the three of the milliseconds.
  if (!separators || Math.min(century, years, month, day, hour, minute, second, twoDigits(iso, 20), twoDigits(iso, 21)) < 0) return undefined;
  return inRange(century * 100 + years, month, day, hour, minute, second);
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
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : { error: `must be a shard number, got ${describe(value)}` };
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
  return typeof value !== 'string' ? { error: `must be a string, got ${describe(value)}` } : encodeString(value, escapeChar) ?? { error: UNPAIRED_SURROGATE };
}

export function numberSegment(value: unknown): SegmentResult {
  return typeof value === 'number' && Number.isFinite(value) ? encodeNumber(value) : { error: `must be a finite number, got ${describe(value)}` };
}

export function dateSegment(value: unknown): SegmentResult {
  return normalizeDate(value) ?? { error: `must be a Date or an ISO-8601 date string, got ${describe(value)}` };
}

export function booleanSegment(value: unknown): SegmentResult {
  if (typeof value !== 'boolean') return { error: `must be a boolean, got ${describe(value)}` };
  return value ? 'true' : undefined;
}

const UNPAIRED_SURROGATE = 'holds an unpaired UTF-16 surrogate, which UTF-8 cannot encode: DynamoDB keys are UTF-8, and two such values could become one key';

/** A short description of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Kinds that can appear in key templates. */
export const KEYABLE_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  AttributeKind.STRING,
  AttributeKind.NUMBER,
  AttributeKind.DATE,
  AttributeKind.BOOLEAN,
]);

/** UTF-8 byte length of a string, without allocating. */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {bytes += 1;} else if (c < 0x800) {bytes += 2;} else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else {bytes += 3;}
  }
  return bytes;
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** DynamoDB's key size limits in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;
