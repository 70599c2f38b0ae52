// The order a fan-out query merges shard results in: the index sort key the way DynamoDB sorts
// it (string keys by UTF-8 bytes), then the table key so that two shards' items with the same
// sort key always come out in the same order.
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

/** The string value of a key attribute; the library's key attributes are all strings. */
export function keyString(item: Item, attribute: string): string {
  const value = item[attribute]?.S;
  if (value === undefined) {
    throw new Error(`fan-out query: item has no string key attribute '${attribute}' (got ${JSON.stringify(item[attribute])}); `
      + 'every item of an index query carries the index and table keys');
  }
  return value;
}

/** Comparator of items by `sortKey`, then each of `tieBreakKeys`, ascending or descending. */
export function itemOrder(sortKey: string, tieBreakKeys: string[], descending: boolean): (a: Item, b: Item) => number {
  const keys = [sortKey, ...tieBreakKeys];
  const sign = descending ? -1 : 1;
  // An index loop: for-of allocates an iterator per comparison until the engine optimizes the function.
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareUtf8(keyString(a, keys[i]), keyString(b, keys[i]));
      if (c !== 0) return sign * c;
    }
    return 0;
  };
}
