// The order a fan-out query merges shard results in: the index sort key the way DynamoDB sorts
// it (string keys by UTF-8 bytes; a multi-attribute GSI's sort attributes as a tuple, numbers by
// value), then the table key so that two shards' items with the same sort key always come out in
// the same order.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

type Item = Record<string, AttributeValue>;

/**
 * Compares strings by their UTF-8 bytes, as DynamoDB does. UTF-16 code units already sort that
 * way except surrogates (code points above U+FFFF, four UTF-8 bytes), which must come after
 * U+E000-U+FFFF; ranking the first differing unit fixes that without encoding either string.
 */
export function compareUtf8(a: string, b: string): number {
  return compareUtf8Known(a, hasHighUnit(a), b, hasHighUnit(b));
}

/**
 * Whether `s` holds a unit from U+D800 up: only where both strings do can the UTF-16 and UTF-8
 * orders differ. Keys rarely do, and the engine's native comparison is several times faster than
 * comparing unit by unit.
 */
export function hasHighUnit(s: string): boolean {
  return HIGH_UNIT.test(s);
}

/**
 * compareUtf8 with each string's hasHighUnit already known: the merge works it out once per item
 * rather than scanning both strings again at every heap comparison.
 */
export function compareUtf8Known(a: string, aHigh: boolean, b: string, bHigh: boolean): number {
  if (a === b) return 0;
  if (!aHigh || !bHigh) return a < b ? -1 : 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

const HIGH_UNIT = /[\ud800-\uffff]/;

function utf8Rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  return unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** The string value of a key attribute; composed key attributes are all strings. */
export function keyString(item: Item, attribute: string): string {
  return keyText(item, attribute, false);
}

/** The text of a key attribute's value: a string (S), or a number's (N). */
export function keyText(item: Item, attribute: string, numeric: boolean | undefined): string {
  const value = numeric ? item[attribute]?.N : item[attribute]?.S;
  if (value === undefined) {
    throw new Error(`fan-out query: item has no ${numeric ? 'number' : 'string'} key attribute '${attribute}' (got ${JSON.stringify(item[attribute])}); `
      + 'every item of an index query carries the index and table keys');
  }
  return value;
}

/** A sort attribute of a multi-attribute GSI as the merge reads it: its name, and whether it is a number (N) rather than a string (S). */
export interface SortAttribute {
  readonly name: string;
  readonly numeric: boolean;
}

/**
 * A string that orders items as DynamoDB orders a multi-attribute GSI's sort attribute tuple, by
 * compareUtf8: each attribute in key order, a string (S) by its UTF-8 bytes, a number (N) by value
 * (any decimal DynamoDB holds), each ended by U+0000 U+0001 (a U+0000 in a string is written
 * U+0000 U+0002), so that a shorter value sorts first and never runs into the next attribute.
 */
export function tupleSortString(item: Item, attributes: readonly SortAttribute[]): string {
  let out = '';
  for (let i = 0; i < attributes.length; i++) {
    const { name, numeric } = attributes[i];
    const value = keyText(item, name, numeric);
    out += (numeric ? numberSortText(value) : value.includes('\0') ? value.replace(/\0/g, '\0\x02') : value) + '\0\x01';
  }
  return out;
}

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Whether a text is a number as DynamoDB writes one (N). */
export function isNumberText(text: string): boolean {
  const m = NUMBER_TEXT.exec(text);
  return m !== null && (m[2] + (m[3] ?? '')).length > 0;
}

/**
 * A decimal number's text as a string of ASCII that sorts as the numbers do: `1` for zero; else
 * `2` (positive) or `0` (negative), the decimal exponent of its leading digit in three digits
 * (inverted for a negative), and its significant digits (nines' complement and a closing `~` for a
 * negative, so that more digits sort lower there).
 */
export function numberSortText(text: string): string {
  const m = NUMBER_TEXT.exec(text);
  if (!m) throw new Error(`fan-out query: ${JSON.stringify(text)} is not a number's text`);
  const all = m[2] + (m[3] ?? '');
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 48) first++;
  let end = all.length;
  while (end > first && all.charCodeAt(end - 1) === 48) end--;
  if (first === end) return '1';
  // value = 0.<digits> x 10^exponent; DynamoDB's range keeps it within -130..126, shifted to 70..326.
  const exponent = m[2].length + Number(m[4] ?? 0) - first + 200;
  const digits = all.slice(first, end);
  if (m[1] !== '-') return '2' + String(exponent).padStart(3, '0') + digits;
  let complement = '';
  for (let i = 0; i < digits.length; i++) complement += String(57 - digits.charCodeAt(i));
  return '0' + String(999 - exponent).padStart(3, '0') + complement + '~';
}

/**
 * Comparator of items by their sort string (`sortOf`: the sort key's value, or tupleSortString),
 * then each of `tieBreakKeys`, ascending or descending.
 */
export function itemOrder(sortOf: (item: Item) => string, tieBreakKeys: string[], descending: boolean): (a: Item, b: Item) => number {
  const sign = descending ? -1 : 1;
  // An index loop: for-of allocates an iterator per comparison until the engine optimizes the function.
  return (a, b) => {
    const c = compareUtf8(sortOf(a), sortOf(b));
    if (c !== 0) return sign * c;
    for (let i = 0; i < tieBreakKeys.length; i++) {
      const t = compareUtf8(keyString(a, tieBreakKeys[i]), keyString(b, tieBreakKeys[i]));
      if (t !== 0) return sign * t;
    }
    return 0;
  };
}
