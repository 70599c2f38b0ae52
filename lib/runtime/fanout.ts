// Fan-out query over the shards of a write-sharded GSI partition key (seed 004, issue 4): one
// query per shard, in parallel, merged in index order with a k-way merge; the limit applies to
// the merged result and the returned state resumes every shard exactly after the last item it
// contributed, so pages never lose or repeat an item.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MinHeap } from './fanout-heap';
import { itemOrder } from './fanout-order';

type Item = Record<string, AttributeValue>;

/** One page of one shard's query. */
export interface ShardPage {
  /** Items in index order. */
  items: Record<string, AttributeValue>[];
  /** DynamoDB's LastEvaluatedKey: set when the shard may hold more items. */
  lastEvaluatedKey?: Record<string, AttributeValue>;
}

/** Queries one shard: up to `limit` items after `exclusiveStartKey` (from the start when undefined). */
export type ShardPageFetcher = (
  shard: number,
  exclusiveStartKey: Record<string, AttributeValue> | undefined,
  limit: number,
) => Promise<ShardPage>;

/** Where one shard stands between pages. */
export interface ShardPosition {
  /**
   * Key of the last item returned to the caller from this shard; the next page starts after it.
   * @default - nothing returned yet: start from the beginning
   */
  after?: Record<string, AttributeValue>;
  /** Every item of the shard has been returned. @default false */
  exhausted?: boolean;
}

/** Positions of every shard between pages; plain JSON (string key attributes only). */
export interface FanOutState {
  /** One position per shard, by shard number. */
  shards: ShardPosition[];
}

/** How to fan out and merge. */
export interface FanOutOptions {
  /** Shards to query: 0 to shardCount - 1 (the index's read count). */
  shardCount: number;
  /** Most items in the merged page. */
  limit: number;
  /** Merge in descending sort-key order. */
  descending: boolean;
  /** The index sort key attribute. */
  sortKey: string;
  /** Attributes that break sort-key ties (the table key), so the merged order is total. */
  tieBreakKeys: string[];
  /**
   * The index partition key attribute: with it, each shard position is a complete ExclusiveStartKey
   * (index and table keys) that the fetcher can pass to DynamoDB as is.
   * @default - positions hold `sortKey` and `tieBreakKeys` only; the fetcher adds the shard's partition key
   */
  partitionKey?: string;
  /** Most shard queries in flight at once. @default - all shards at once */
  concurrency?: number;
  /** The state a previous page returned. @default - first page */
  state?: FanOutState;
}

/** Runs one fan-out page; `state` is undefined when every shard is exhausted. */
export async function fanOutQuery(
  fetch: ShardPageFetcher,
  options: FanOutOptions,
): Promise<{ items: Record<string, AttributeValue>[]; state?: FanOutState }> {
  checkOptions(options);
  const limit = options.limit;
  const keyAttributes = [options.partitionKey, options.sortKey, ...options.tieBreakKeys].filter((a): a is string => a !== undefined);
  const shards = Array.from({ length: options.shardCount }, (_, i) => new ShardCursor(i, options.state?.shards[i] ?? {}));
  const live = shards.filter((s) => !s.exhausted);
  const firstPage = firstPageSize(limit, live.length);
  await forEachBounded(live, options.concurrency ?? live.length, (s) => s.fill(fetch, firstPage));

  const order = itemOrder(options.sortKey, options.tieBreakKeys, options.descending);
  const heads = new MinHeap<ShardCursor>((a, b) => order(a.head, b.head));
  for (const s of live) if (s.hasHead) heads.push(s);

  const items: Item[] = [];
  while (items.length < limit && heads.size > 0) {
    const s = heads.pop()!;
    items.push(s.take());
    // Only the shard just taken from can need a refill, and only while the page has room.
    if (!s.hasHead && s.hasMore && items.length < limit) await s.fill(fetch, limit - items.length);
    if (s.hasHead) heads.push(s);
  }

  const positions = shards.map((s) => s.position(keyAttributes));
  return positions.every((p) => p.exhausted) ? { items } : { items, state: { shards: positions } };
}

/** One shard's progress through a page. */
class ShardCursor {
  readonly exhausted: boolean;
  private readonly start?: Item;
  private buffer: Item[] = [];
  private next = 0;
  private resumeKey?: Item;
  private more: boolean;
  private lastTaken?: Item;

  constructor(readonly shard: number, position: ShardPosition) {
    this.exhausted = position.exhausted === true;
    this.start = position.after;
    this.resumeKey = position.after;
    this.more = !this.exhausted;
  }

  get hasHead(): boolean {
    return this.next < this.buffer.length;
  }

  get hasMore(): boolean {
    return this.more;
  }

  get head(): Item {
    return this.buffer[this.next];
  }

  take(): Item {
    this.lastTaken = this.buffer[this.next++];
    return this.lastTaken;
  }

  /** Reads the shard's next page; an empty page with a LastEvaluatedKey (1 MB scanned) is read past. */
  async fill(fetch: ShardPageFetcher, limit: number): Promise<void> {
    do {
      const page = await fetch(this.shard, this.resumeKey, limit);
      this.buffer = page.items;
      this.next = 0;
      this.resumeKey = page.lastEvaluatedKey;
      this.more = page.lastEvaluatedKey !== undefined;
    } while (!this.hasHead && this.more);
  }

  /**
   * Where the next page starts. DynamoDB's LastEvaluatedKey can lie beyond items fetched but not
   * returned (still buffered), so the position is the key of the last item actually returned.
   */
  position(keyAttributes: string[]): ShardPosition {
    if (this.exhausted || (!this.hasHead && !this.more)) return { exhausted: true };
    const last = this.lastTaken ? keyOf(this.lastTaken, keyAttributes) : this.start;
    return last ? { after: last } : {};
  }
}

/**
 * Items asked of each shard first. Writes spread evenly over shards, so a page of `limit` items
 * takes about limit / shards from each; asking every shard for `limit` would read shards x limit
 * entries (read units) to return `limit`. The first page is the even share plus three standard
 * deviations of a binomial draw, which covers a shard's part of the page in about 999 shard reads
 * of 1000; a shard that holds more (chance or skewed data) is refilled with what the page still needs.
 */
export function firstPageSize(limit: number, shards: number): number {
  const share = limit / Math.max(shards, 1);
  return Math.min(limit, Math.ceil(share + 3 * Math.sqrt(share)) + 1);
}

function keyOf(item: Item, attributes: string[]): Item {
  const key: Item = {};
  for (const a of attributes) {
    if (item[a] === undefined) throw new Error(`fan-out query: item has no key attribute '${a}'`);
    key[a] = item[a];
  }
  return key;
}

function checkOptions(options: FanOutOptions): void {
  const whole = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min;
  if (!whole(options.shardCount, 1)) throw new Error(`fan-out query: shardCount ${options.shardCount} is not a whole number of at least 1`);
  if (!whole(options.limit, 1)) throw new Error(`fan-out query: limit ${options.limit} is not a whole number of at least 1`);
  if (options.concurrency !== undefined && !whole(options.concurrency, 1)) {
    throw new Error(`fan-out query: concurrency ${options.concurrency} is not a whole number of at least 1`);
  }
  const positions = options.state?.shards;
  if (options.state && (!Array.isArray(positions) || positions.length !== options.shardCount)) {
    throw new Error(`fan-out query: the state holds ${Array.isArray(positions) ? positions.length : 'no'} shard positions `
      + `but the query fans out over ${options.shardCount} shards; start again without a state`);
  }
}

/** Runs `run` on every entry with at most `bound` in flight; stops starting new ones after a failure. */
async function forEachBounded<T>(entries: T[], bound: number, run: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < entries.length) {
      try {
        await run(entries[next++]);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(bound, entries.length) }, worker));
}
