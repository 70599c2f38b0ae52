/* eslint-disable no-bitwise */
// Shard choice for write-sharded GSI partition keys (seed 004). The shard is a suffix segment:
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

/** Shard for an item under the RANDOM strategy: from its table key. */
export function shardForItem(tablePk: string, tableSk: string, shardCount: number): number {
  return fnv1a(tablePk + '\u0000' + tableSk) % shardCount;
}

/** Shard for an attribute's encoded key segment under the ATTRIBUTE strategy. */
export function shardForValue(encodedSegment: string, shardCount: number): number {
  return fnv1a(encodedSegment) % shardCount;
}

/** The partition key of one shard. */
export function shardedKey(baseKey: string, shard: number, delimiter: string): string {
  return baseKey + delimiter + shard;
}
