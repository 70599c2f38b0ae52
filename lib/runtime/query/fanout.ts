// Fan-out query over the shards of a write-sharded GSI partition key: one
// query per shard, in parallel, merged in index order with a k-way merge; the limit applies to
// the merged result and the returned state resumes every shard exactly after the last item it
// contributed, so pages never lose or repeat an item.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { heapPop, heapPush } from './fanout-heap';
import { compareUtf8Known, hasHighUnit, isNumberText, itemOrder, keyString, keyText, SortAttribute, tupleSortString } from './fanout-order';
import { mustBe } from '../../keys/encoding';
import { SingleTableError } from '../table/errors';

type Item = Record<string, AttributeValue>;

/** One page of one shard's query, in the fields of DynamoDB's Query output (which a fetcher can return as is). */
export interface ShardPage {
  /** Items in index order. @default - none */
  Items?: Record<string, AttributeValue>[];
  /** DynamoDB's LastEvaluatedKey: set when the shard may hold more items. */
  LastEvaluatedKey?: Record<string, AttributeValue>;
}

/** Queries one shard: up to `limit` items after `exclusiveStartKey` (from the start when undefined). */
export type ShardPageFetcher = (
  shard: number,
  exclusiveStartKey: Record<string, AttributeValue> | undefined,
  limit: number,
) => Promise<ShardPage>;

/**
 * Positions of every queried shard between pages; plain, compact JSON (it travels in the cursor).
 * There is no "exhausted" mark: a shard that had nothing more is queried again from its position,
 * because an item written into it since may sort after the merge position.
 */
export interface FanOutState {
  /**
   * Per queried shard, in the order of `shards`: the key values (sort key, or each sort attribute's,
   * a number's as DynamoDB's text; then tie-break keys) of the last item returned from it, or null
   * when none has been returned yet.
   */
  after: (string[] | null)[];
  /** Index into `after` of the shard that returned the last item: its position is the merge position. */
  last: number;
}

/** How to fan out and merge. */
export interface FanOutOptions {
  /** Shard numbers to query (all of 0 to readCount - 1, or the few a known shard attribute value can be on). */
  shards: number[];
  /** Most items in the merged page. */
  limit: number;
  /** Merge in descending sort-key order. */
  descending: boolean;
  /** The index sort key attribute (unused where `sortAttributes` are given). */
  sortKey: string;
  /**
   * A multi-attribute GSI's sort attributes, in key order: the merge orders items by their tuple as
   * DynamoDB does (tupleSortString), and a position holds their values before the tie-break keys.
   * @default - the index's sort key is `sortKey`
   */
  sortAttributes?: readonly SortAttribute[];
  /** Attributes that break sort-key ties (the table key), so the merged order is total. */
  tieBreakKeys: string[];
  /**
   * The index partition key attributes of a shard: with them, a shard's ExclusiveStartKey is
   * complete (index and table keys) and the fetcher can pass it to DynamoDB as is; the cursor never
   * holds them, since they follow from the query and the shard number.
   * @default - start keys hold the sort key and `tieBreakKeys` only; the fetcher adds the partition key
   */
  partitionKeyOf?: (shard: number) => Record<string, AttributeValue>;
  /**
   * Whether a shard returns its items in `sortKey` order, so items sorting before the merge position
   * can be read past. A GSI without a sort key returns a partition's items in an order of the
   * engine's own (dynalite: a hash of the table key); reading past by key there drops unread items.
   * @default true
   */
  sorted?: boolean;
  /** Most shard queries in flight at once (the `shardConcurrency` option). @default - all shards at once */
  concurrency?: number;
  /** The state a previous page returned. @default - first page */
  state?: FanOutState;
  /** The access pattern the fan-out serves, named in a bad state's INVALID_CURSOR error. @default - none named */
  pattern?: string;
}

/**
 * Runs one fan-out page; `state` is undefined when no shard has anything more. A bad concurrency
 * rejects the promise with an INVALID_VALUE SingleTableError; a state that does not fit the query
 * (from another shard layout, an older runtime, or altered: it travels in the cursor) with an
 * INVALID_CURSOR one.
 */
export async function fanOutQuery(
  fetch: ShardPageFetcher,
  options: FanOutOptions,
): Promise<{ items: Record<string, AttributeValue>[]; state?: FanOutState }> {
  checkOptions(options);
  return ShardCursor.merge(fetch, options);
}

/**
 * One shard's progress through a page, and the merge of the page's shards: the merge reads the
 * cursors' private members, which a bundle minifies (property and method names it keeps).
 */
class ShardCursor {
  /** Runs one fan-out page over checked options (fanOutQuery). */
  static async merge(
    fetch: ShardPageFetcher,
    options: FanOutOptions,
  ): Promise<{ items: Record<string, AttributeValue>[]; state?: FanOutState }> {
    const { limit, state, sortKey, sortAttributes, descending } = options;
    const keys = positionKeys(options);
    // The sort string of an item: its sort key's value, or on a multi-attribute GSI its sort attributes' tuple as one string.
    const sortOf = sortAttributes ? (item: Item) => tupleSortString(item, sortAttributes) : (item: Item) => keyString(item, sortKey);
    // Items written behind the merge position since the last page sort before items already
    // returned; like an unsharded query, which resumes after its LastEvaluatedKey, the page leaves
    // them out. Only the sort key is compared: the engine's order among equal sort keys inside one
    // shard need not be the table-key order, so an equal sort key can still be an item not yet seen.
    const sorted = options.sorted !== false;
    const position = state && sorted ? state.after[state.last]! : undefined;
    const floor = position && (sortAttributes ? sortOf(keyOfPosition(keys, position)) : position[0]);
    const shards = options.shards.map((shard, i) =>
      new ShardCursor(i, shard, state?.after[i] ?? undefined, keys, sortOf, options.partitionKeyOf, sorted));
    // The first page of each shard (pageSize): its even share of the page.
    const firstPage = pageSize(limit, 1 / shards.length);
    const concurrency = options.concurrency ?? shards.length;
    const fill = (s: ShardCursor, n: number) => s.#fill(fetch, n, descending, floor);
    await forEachBounded(shards, concurrency, (s) => fill(s, firstPage));

    // Heads are compared by their sort keys, taken from the item once per head rather than at each
    // of the heap's comparisons; only equal sort keys need the tie-break keys. A waiting shard (run
    // dry, its unread items known to sort at or after its LastEvaluatedKey's sort key) comes before
    // every head with that sort key: an unread item may tie with it and sort first.
    const order = itemOrder(sortOf, options.tieBreakKeys, descending);
    const sign = descending ? -1 : 1;
    const headOrder = (a: ShardCursor, b: ShardCursor) => {
      if (a.#headSort !== b.#headSort) return sign * compareUtf8Known(a.#headSort, a.#headHigh, b.#headSort, b.#headHigh);
      if (a.#hasHead && b.#hasHead) return order(a.#head, b.#head);
      return Number(a.#hasHead) - Number(b.#hasHead);
    };
    const heads: ShardCursor[] = [];
    for (const s of shards) if (s.#hasHead || s.#waiting) heapPush(heads, s, headOrder);

    const items: Item[] = [];
    let last = -1;
    while (items.length < limit && heads.length > 0) {
      const s = heapPop(heads, headOrder)!;
      // A shard that ran dry is read again once the merge needs its next item: at once, or, where its
      // LastEvaluatedKey bounds its unread items (a filter left items out of its last page), only when
      // it reaches the front of the heap, waiting in it until then.
      let read = true;
      if (s.#hasHead) {
        items.push(s.#take());
        last = s.#slot;
        read = !s.#hasHead && !s.#waiting && s.#more;
      }
      if (read && items.length < limit) {
        const wave = ShardCursor.#refillWave(s, shards, items.length, limit, sorted ? order : undefined);
        // A waiting shard read along gets a later key, or leaves the merge: the heap is rebuilt.
        const rekeyed = wave.some(([c]) => c !== s && c.#waiting);
        await forEachBounded(wave, concurrency, ([c, n]) => fill(c, n));
        if (rekeyed) {
          heads.length = 0;
          for (const c of shards) if (c !== s && (c.#hasHead || c.#waiting)) heapPush(heads, c, headOrder);
        }
      }
      if (s.#hasHead || s.#waiting) heapPush(heads, s, headOrder);
    }

    if (!shards.some((s) => s.#hasHead || s.#more)) return { items };
    // A page that stops with more to come is full, so `last` names the shard of its last item.
    return { items, state: { after: shards.map((s) => s.#position()), last } };
  }
  #buffer: Item[] = [];
  #next = 0;
  #resumeKey?: Item;
  #more = true;
  /**
   * Whether resumeKey bounds the unread items: on an index with a sort key they follow it in sort-key
   * order, and it holds every key attribute the merge compares.
   */
  #bounded = false;
  /** Items taken from this shard in this page. */
  #taken = 0;
  /** Items asked for (evaluated, with a filter) and items returned, over this page's reads. */
  #asked = 0;
  #got = 0;
  /** The last item taken, or read past as behind the merge position: the next page starts after it. */
  #passed?: Item;
  readonly #start: string[] | undefined;
  readonly #keys: PositionKeys;
  readonly #sortOf: (item: Item) => string;
  readonly #sorted: boolean;
  /**
   * The head's sort key, or a waiting shard's LastEvaluatedKey's, and whether it holds a unit from
   * U+D800 up (compareUtf8Known); set while hasHead or waiting.
   */
  #headSort = '';
  #headHigh = false;

  /** Index of the shard in the fan-out's shard list (and in the state). */
  readonly #slot: number;
  readonly #shard: number;

  constructor(
    slot: number,
    shard: number,
    start: string[] | undefined,
    keys: PositionKeys,
    sortOf: (item: Item) => string,
    partitionKeyOf: FanOutOptions['partitionKeyOf'],
    sorted: boolean,
  ) {
    this.#slot = slot;
    this.#shard = shard;
    this.#start = start;
    this.#keys = keys;
    this.#sortOf = sortOf;
    this.#sorted = sorted;
    if (start) this.#resumeKey = keyOfPosition(keys, start, partitionKeyOf?.(shard));
  }

  get #hasHead(): boolean {
    return this.#next < this.#buffer.length;
  }

  /** Run dry with more to come, and every unread item sorts at or after its LastEvaluatedKey. */
  get #waiting(): boolean {
    return !this.#hasHead && this.#more && this.#bounded;
  }

  get #head(): Item {
    return this.#buffer[this.#next];
  }

  #take(): Item {
    this.#passed = this.#buffer[this.#next++];
    this.#taken++;
    this.#settle();
    return this.#passed;
  }

  /**
   * How many buffered items sort at or before `item` in `order`, the shard's own order on an index with
   * a sort key (ties the engine orders otherwise can only blur the count, which is a prediction).
   */
  #bufferedUpTo(item: Item, order: (a: Item, b: Item) => number): number {
    let lo = this.#next;
    let hi = this.#buffer.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1; // eslint-disable-line no-bitwise
      if (order(this.#buffer[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.#next;
  }

  /** Reads the new head's sort key (a waiting shard's LastEvaluatedKey's). */
  #settle(): void {
    if (this.#hasHead) this.#headSort = this.#sortOf(this.#buffer[this.#next]);
    else if (this.#waiting) this.#headSort = this.#sortOf(this.#resumeKey!);
    else return;
    this.#headHigh = hasHighUnit(this.#headSort);
  }

  /**
   * Reads the shard's next page; items sorting before `floor` are read past (a shard's items come in
   * sort-key order, so they lead). A page left with no item but a LastEvaluatedKey (a filter, or
   * 1 MB scanned) leaves the shard waiting where that key bounds its unread items, and is followed
   * by the next page at once where it does not (no sort key).
   */
  async #fill(fetch: ShardPageFetcher, limit: number, descending: boolean, floor: string | undefined): Promise<void> {
    const floorHigh = floor !== undefined && hasHighUnit(floor);
    do {
      const page = await fetch(this.#shard, this.#resumeKey, limit);
      this.#asked += limit;
      const items = page.Items ?? [];
      this.#got += items.length;
      // A shard read ahead (refillWave) still holds items: the page continues them, since it starts
      // after the previous page's LastEvaluatedKey.
      this.#buffer = this.#hasHead ? this.#buffer.slice(this.#next).concat(items) : items;
      this.#next = 0;
      const key = page.LastEvaluatedKey;
      this.#resumeKey = key;
      this.#more = key !== undefined;
      const { attributes, numeric } = this.#keys;
      this.#bounded = this.#sorted && key !== undefined && attributes.every((a, i) => typeof key[a]?.[numeric?.[i] ? 'N' : 'S'] === 'string');
      this.#settle();
      if (floor !== undefined) {
        const sign = descending ? -1 : 1;
        // Read past for good: the merge position only moves forward, so they are behind every later page too.
        while (this.#hasHead && sign * compareUtf8Known(this.#headSort, this.#headHigh, floor, floorHigh) < 0) {
          this.#passed = this.#buffer[this.#next++];
          this.#settle();
        }
      }
    } while (!this.#hasHead && this.#more && !this.#bounded);
  }

  /**
   * Where the next page starts. DynamoDB's LastEvaluatedKey can lie beyond items fetched but not
   * returned (still buffered), so the position is the key of the last item actually returned.
   */
  #position(): string[] | null {
    const passed = this.#passed;
    if (!passed) return this.#start ?? null;
    const { attributes, numeric } = this.#keys;
    return attributes.map((a, i) => keyText(passed, a, numeric?.[i]));
  }

  /**
   * What to read when `drained` runs dry mid-page with more to come: the merge cannot go on without
   * its next items, so it is read, and so is every shard whose buffered items would all be merged
   * before the page fills (counting every shard's buffered items up to that shard's last): it would
   * run dry next, and reading it now takes one round trip for both instead of one after the other.
   * With a filter (Limit counts evaluated items) shards run dry together, so this turns a chain of
   * refills into one. Each shard is asked what it should supply of what the page still needs after its
   * buffered items, sized like a first page (pageSize) and scaled up by the part of its evaluated items
   * the filter let through so far. A shard whose order the merge does not share (`order` undefined: no
   * sort key) cannot be predicted; only the drained one is read.
   */
  static #refillWave(
    drained: ShardCursor,
    shards: ShardCursor[],
    returned: number,
    limit: number,
    order: ((a: Item, b: Item) => number) | undefined,
  ): [ShardCursor, number][] {
    const remaining = limit - returned;
    const active = shards.filter((s) => s.#hasHead || s.#more).length;
    // A shard's part of the rest: the even share, or more when it supplied more so far (skewed data);
    // as a Limit, scaled by the rate its filter let items through so far, and at most `limit`.
    const ask = (s: ShardCursor, needed: number) =>
      Math.min(limit, Math.ceil(pageSize(needed, Math.max(1 / active, returned ? s.#taken / returned : 0)) * s.#asked / Math.max(s.#got, 1)));
    const wave: [ShardCursor, number][] = [[drained, ask(drained, remaining)]];
    if (!order) return wave;
    for (const s of shards) {
      if (s === drained || !s.#more || !(s.#hasHead || s.#waiting)) continue;
      // Its last buffered item, or for a waiting shard the key its unread items follow.
      const tail = s.#hasHead ? s.#buffer[s.#buffer.length - 1] : s.#resumeKey!;
      let before = 0;
      for (const c of shards) before += c.#bufferedUpTo(tail, order);
      if (before < remaining) wave.push([s, ask(s, remaining - before)]);
    }
    return wave;
  }
}

/**
 * Items to ask of a shard expected to hold `part` of the next `items` of the merge: its share plus
 * three standard deviations, plus one. Writes spread evenly over shards, so a page of `limit` items
 * takes about limit / shards from each; asking every shard for `limit` would read shards x limit
 * entries (read units) to return `limit`. A first page of the even share plus three standard
 * deviations of a binomial draw covers a shard's part of the page in about 999 shard reads of 1000;
 * a shard that holds more (chance, skewed data, or a filter) is read again (refillWave).
 */
function pageSize(items: number, part: number): number {
  const share = items * part;
  return Math.min(items, Math.ceil(share + 3 * Math.sqrt(share)) + 1);
}

/**
 * Checks what the caller of a query gives the fan-out: the concurrency option, and the state, which
 * travels in the cursor. The shards are the runtime's own choice and the limit the query's, which
 * readOptions checked.
 */
function checkOptions(options: FanOutOptions): void {
  const { shards, concurrency, state } = options;
  const whole = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min;
  if (concurrency !== undefined && !whole(concurrency, 1)) {
    throw new SingleTableError('INVALID_VALUE', 'shardConcurrency ' + mustBe('a whole number of at least 1', concurrency), { pattern: options.pattern });
  }
  if (state === undefined) return;
  const after = state.after;
  const { attributes, numeric } = positionKeys(options);
  const isKey = (p: unknown) => Array.isArray(p) && p.length === attributes.length
    && p.every((v, i) => typeof v === 'string' && (!numeric?.[i] || isNumberText(v)));
  const reason = !Array.isArray(after) || after.length !== shards.length
    ? `the state holds ${Array.isArray(after) ? after.length : 'no'} shard positions but the query fans out over ${shards.length} shards`
    : (!after.every((p) => p === null || isKey(p)) || !whole(state.last, 0) || !isKey(after[state.last]))
      && 'the state is not one a fan-out query returned';
  if (reason) throw new SingleTableError('INVALID_CURSOR', `fan-out query: ${reason}; start again without a state`, { pattern: options.pattern });
}

/** The attributes of a position, in order, and which of them are numbers (none on a composed key). */
interface PositionKeys {
  readonly attributes: readonly string[];
  readonly numeric?: readonly boolean[];
}

function positionKeys(options: FanOutOptions): PositionKeys {
  const sort = options.sortAttributes;
  if (!sort) return { attributes: [options.sortKey, ...options.tieBreakKeys] };
  return {
    attributes: [...sort.map((a) => a.name), ...options.tieBreakKeys],
    numeric: [...sort.map((a) => a.numeric), ...options.tieBreakKeys.map(() => false)],
  };
}

/** The key a position stands for, each value with its type, beside `partitionKey` (a shard's index partition key). */
function keyOfPosition(keys: PositionKeys, position: readonly string[], partitionKey?: Item): Item {
  const key: Item = { ...partitionKey };
  keys.attributes.forEach((a, i) => { key[a] = keys.numeric?.[i] ? { N: position[i] } : { S: position[i] }; });
  return key;
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
