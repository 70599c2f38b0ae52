// An in-memory stand-in for the shards of a sharded GSI, with DynamoDB's paging semantics: items
// in index order, Limit counts evaluated items (a filter can hide some of them, so a page can be
// short or even empty while LastEvaluatedKey is set), ExclusiveStartKey is a position that need not
// be an existing item, and it must hold exactly the index and table key attributes.
// fanout-fake.engine.test.ts holds it to the engine's answers.
import { createHash } from 'crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { fanOutQuery, FanOutState } from '../../lib/runtime/query/fanout';
import type { ShardPage, ShardPageFetcher } from '../../lib/runtime/query/fanout';

export type Item = Record<string, AttributeValue>;
export const KEY_ATTRIBUTES = ['GSIPK', 'GSISK', 'PK', 'SK'];

/** A shard's item before encoding: sort key, table key, and whether a filter hides it. */
export interface FakeItem {
  sk: string;
  pk: string;
  hidden?: boolean;
}

/** DynamoDB compares string keys as UTF-8 bytes; Buffer.compare is an independent reference. */
export const byteCompare = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** How the engine orders items with equal sort keys inside one shard. */
export type TieOrder = 'tableKey' | 'hash';

const tieRank = (item: Item, tieOrder: TieOrder) =>
  tieOrder === 'hash' ? createHash('md5').update(item.PK.S! + '/' + item.SK.S!).digest('hex') : '';

/** Engine order inside one shard, ascending. */
export function engineCompare(tieOrder: TieOrder): (a: Item, b: Item) => number {
  return (a, b) => byteCompare(a.GSISK.S!, b.GSISK.S!)
    || byteCompare(tieRank(a, tieOrder), tieRank(b, tieOrder))
    || byteCompare(a.PK.S!, b.PK.S!)
    || byteCompare(a.SK.S!, b.SK.S!);
}

export function toItem(shard: number, f: FakeItem): Item {
  const item: Item = { GSIPK: { S: `BASE#${shard}` }, GSISK: { S: f.sk }, PK: { S: f.pk }, SK: { S: 'X' } };
  if (f.hidden) item.hidden = { BOOL: true };
  return item;
}

export interface FetchLog {
  inFlight: number;
  maxInFlight: number;
  calls: { shard: number; limit: number }[];
}

/** A fake index: one mutable, engine-ordered list per shard. */
export class FakeIndex {
  readonly shards: Item[][];
  readonly log: FetchLog = { inFlight: 0, maxInFlight: 0, calls: [] };

  /** `pageCap` (at least 1) stands for the 1 MB page limit: the most items one page evaluates. */
  constructor(contents: FakeItem[][], private readonly tieOrder: TieOrder, private readonly pageCap: (shard: number) => number) {
    this.shards = contents.map((items, shard) => items.map((f) => toItem(shard, f)).sort(engineCompare(tieOrder)));
  }

  insert(shard: number, f: FakeItem): void {
    this.shards[shard].push(toItem(shard, f));
    this.shards[shard].sort(engineCompare(this.tieOrder));
  }

  remove(shard: number, index: number): Item {
    return this.shards[shard].splice(index, 1)[0];
  }

  fetcher(descending: boolean): ShardPageFetcher {
    const cmp = engineCompare(this.tieOrder);
    const dir = descending ? -1 : 1;
    return async (shard, start, limit) => {
      this.log.calls.push({ shard, limit });
      this.log.maxInFlight = Math.max(this.log.maxInFlight, ++this.log.inFlight);
      await new Promise((r) => setImmediate(r));
      try {
        if (start && Object.keys(start).sort().join() !== [...KEY_ATTRIBUTES].sort().join()) {
          throw new Error(`The provided starting key is invalid: ${JSON.stringify(start)}`);
        }
        if (start && start.GSIPK.S !== `BASE#${shard}`) throw new Error('The provided starting key is outside query boundaries');
        const ordered = descending ? [...this.shards[shard]].reverse() : this.shards[shard];
        const after = start ? ordered.filter((i) => dir * cmp(i, start) > 0) : ordered;
        const evaluated = after.slice(0, Math.min(limit, this.pageCap(shard)));
        const page: ShardPage = { Items: evaluated.filter((i) => !i.hidden).map((i) => ({ ...i })) };
        const last = evaluated[evaluated.length - 1];
        if (evaluated.length < after.length || evaluated.length === limit) {
          page.LastEvaluatedKey = Object.fromEntries(KEY_ATTRIBUTES.map((k) => [k, last[k]]));
        }
        return page;
      } finally {
        this.log.inFlight--;
      }
    };
  }
}

/** Identity of an item: its table key. */
export const idOf = (item: Item) => `${item.PK.S}|${item.SK.S}`;

/** Reference merge, obviously right and slow: repeatedly take the smallest head of whole shard lists (each in query order). */
export function naiveMerge(lists: Item[][], order: (a: Item, b: Item) => number): Item[] {
  const heads = lists.map((l) => [...l]);
  const out: Item[] = [];
  for (;;) {
    let best = -1;
    heads.forEach((l, i) => {
      if (l.length && (best < 0 || order(l[0], heads[best][0]) < 0)) best = i;
    });
    if (best < 0) return out;
    out.push(heads[best].shift()!);
  }
}

/** The merge order: index sort key, then table key, as UTF-8 bytes; `dir` -1 for descending. */
export const tieBreak = (dir: number) => (a: Item, b: Item) =>
  dir * (byteCompare(a.GSISK.S!, b.GSISK.S!) || byteCompare(a.PK.S!, b.PK.S!) || byteCompare(a.SK.S!, b.SK.S!));

/** The reference merge over whole shard lists, hidden (filtered) items left out. */
export function expectedOrder(shards: Item[][], descending: boolean): Item[] {
  const lists = shards.map((s) => (descending ? [...s].reverse() : s).filter((i) => !i.hidden));
  return naiveMerge(lists, tieBreak(descending ? -1 : 1));
}

export const PARTITION_KEY = (shard: number) => ({ GSIPK: { S: `BASE#${shard}` } });
export const allShards = (count: number) => Array.from({ length: count }, (_, i) => i);

/** How a test pages through the fake index. */
export interface PageRun { limit: number; descending: boolean; concurrency?: number }

/**
 * Reads every page of a fan-out over every shard of the index, passing the state through JSON as a
 * cursor would. Checks what holds of every page: its position is the last item it returned, and a
 * page with more to come is full (the merge only stops early when every shard is exhausted).
 * `between` runs before each next page with what came so far (writes between pages).
 */
export async function readAllPages(
  index: FakeIndex, run: PageRun, options: { fetch?: ShardPageFetcher; between?: (returned: Item[]) => void } = {},
): Promise<Item[][]> {
  const fetch = options.fetch ?? index.fetcher(run.descending);
  const pages: Item[][] = [];
  let state: FanOutState | undefined;
  do {
    const page = await fanOutQuery(fetch, {
      shards: allShards(index.shards.length),
      limit: run.limit,
      descending: run.descending,
      sortKey: 'GSISK',
      tieBreakKeys: ['PK', 'SK'],
      partitionKeyOf: PARTITION_KEY,
      concurrency: run.concurrency,
      state,
    });
    pages.push(page.items);
    state = page.state && JSON.parse(JSON.stringify(page.state));
    if (state) {
      expect(state.after[state.last]).toEqual(['GSISK', 'PK', 'SK'].map((k) => page.items[page.items.length - 1][k].S));
      expect(page.items).toHaveLength(run.limit);
    }
    if (pages.length > 500) throw new Error('paging does not end');
    if (state) options.between?.(pages.flat());
  } while (state);
  return pages;
}
