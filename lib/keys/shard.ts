/* eslint-disable no-bitwise */
// Shard choice for write-sharded GSI partition keys. The shard is a suffix segment:
// `ORDER#OPEN` becomes `ORDER#OPEN#2`.
//
// RANDOM is "random" over items but stable per item: the shard is a hash of the item's table key,
// so writes spread evenly across shards while an update of the same item lands on the same shard
// and never moves it (a truly random pick per write would move the item on every key change, at
// two index writes each time). ATTRIBUTE hashes the shard attribute's encoded value, so a reader
// that knows the value queries one shard.

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Murmur3's 32-bit finalizer. FNV-1a alone spreads badly over small moduli: its low bit is the
 * parity of the characters' low bits, so consecutive ids (ORDER#000122, ORDER#000123, ...) fell
 * on only half of an even shard count. Mixing makes every output bit depend on every input bit.
 */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Shard for an item under the RANDOM strategy: from its table key. */
export function shardForItem(tablePk: string, tableSk: string, shardCount: number): number {
  return mix32(fnv1a(tablePk + '\u0000' + tableSk)) % shardCount;
}

/** Shard for an attribute's encoded key segment under the ATTRIBUTE strategy. */
export function shardForValue(encodedSegment: string, shardCount: number): number {
  return mix32(fnv1a(encodedSegment)) % shardCount;
}

/** The partition key of one shard. */
export function shardedKey(baseKey: string, shard: number, delimiter: string): string {
  return baseKey + delimiter + shard;
}
