// Property tests that try to break the fan-out merge where the other suites do not reach: a subset
// of shard numbers (as a pinned shard attribute reads), no partition key in the options (the fetcher
// adds it), the state carried in a real cursor, many sort-key ties under heavy filters and tiny
// pages (waiting shards and refill waves at every step), and an index without a sort key.
import { createHash } from 'crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { byteCompare, FakeIndex, FakeItem, idOf, Item, naiveMerge, TieOrder } from './fanout-fake';
import { decodeCursor, encodeCursor } from '../../lib/runtime/query/cursor';
import { fanOutQuery, FanOutState, ShardPage, ShardPageFetcher } from '../../lib/runtime/query/fanout';
import { propertyRuns } from '../support/property-runs';

const tieBreak = (dir: number) => (a: Item, b: Item) =>
  dir * (byteCompare(a.GSISK.S!, b.GSISK.S!) || byteCompare(a.PK.S!, b.PK.S!) || byteCompare(a.SK.S!, b.SK.S!));

/** Every page, the state through a cursor; checks that a page with more to come is full. */
async function readAll(fetch: ShardPageFetcher, options: Omit<Parameters<typeof fanOutQuery>[1], 'state'>): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const state = cursor === undefined ? undefined : decodeCursor('p', 'b', cursor) as FanOutState;
    const page = await fanOutQuery(fetch, { ...options, state });
    out.push(...page.items);
    if (!page.state) return out;
    expect(page.items).toHaveLength(options.limit);
    cursor = encodeCursor('p', 'b', page.state);
    if (pages > 400) throw new Error('paging does not end');
  }
}

describe('fan-out merge, adversarial', () => {
  test('shard subsets, no partition key in the options, heavy ties and filters, tiny pages: pages equal the reference merge', async () => {
    const scenario = fc.record({
      items: fc.array(fc.record({
        sk: fc.string({ unit: fc.constantFrom('a', 'b', '\uffff', '😀'), maxLength: 2 }),
        shard: fc.nat(5),
        hidden: fc.nat(9),
      }), { minLength: 5, maxLength: 120, size: 'max' }),
      queried: fc.subarray([0, 1, 2, 3, 4, 5], { minLength: 1 }),
      hiddenBelow: fc.integer({ min: 0, max: 10 }),
      limit: fc.integer({ min: 1, max: 40 }),
      caps: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 6, maxLength: 6 }),
      descending: fc.boolean(),
      tieOrder: fc.constantFrom<TieOrder>('tableKey', 'hash'),
      concurrency: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      withPartitionKey: fc.boolean(),
    });
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const contents: FakeItem[][] = Array.from({ length: 6 }, () => []);
      // Table keys in an order unrelated to the shards' (7919 is prime to 101).
      s.items.forEach((f, i) => contents[f.shard].push({ sk: f.sk, pk: `p${(i * 7919) % 101}.${i}`, hidden: f.hidden < s.hiddenBelow }));
      const index = new FakeIndex(contents, s.tieOrder, (shard) => s.caps[shard]);
      const engine = index.fetcher(s.descending);
      // Without the partition key in the options, start keys from the state lack it: the fetcher adds it.
      const fetch: ShardPageFetcher = s.withPartitionKey ? engine
        : (shard, start, limit) => engine(shard, start && { ...start, GSIPK: { S: `BASE#${shard}` } }, limit);
      const got = await readAll(fetch, {
        shards: s.queried,
        limit: s.limit,
        descending: s.descending,
        sortKey: 'GSISK',
        tieBreakKeys: ['PK', 'SK'],
        concurrency: s.concurrency,
        partitionKeyOf: s.withPartitionKey ? (shard) => ({ GSIPK: { S: `BASE#${shard}` } }) : undefined,
      });
      const lists = s.queried.map((shard) => (s.descending ? [...index.shards[shard]].reverse() : index.shards[shard]).filter((i) => !i.hidden));
      expect(got.map(idOf)).toEqual(naiveMerge(lists, tieBreak(s.descending ? -1 : 1)).map(idOf));
      for (const call of index.log.calls) expect(call.limit).toBeLessThanOrEqual(s.limit);
      if (s.concurrency !== undefined) expect(index.log.maxInFlight).toBeLessThanOrEqual(s.concurrency);
    }), { numRuns: propertyRuns(30) });
  });

  test('index without a sort key (sorted: false), filtered and in tiny pages: every visible item exactly once', async () => {
    // Each shard returns its items in an order of its own (a hash of the table key), and resumes
    // after an ExclusiveStartKey holding exactly the index partition key and the table key.
    type Raw = Record<string, AttributeValue> & { hidden?: AttributeValue };
    const hash = (i: Raw) => createHash('md5').update(`${i.PK.S}/${i.SK.S}`).digest('hex');
    const scenario = fc.record({
      items: fc.array(fc.record({ pk: fc.constantFrom('a', 'b', 'c'), shard: fc.nat(4), hidden: fc.nat(9) }), { maxLength: 60, size: 'max' }),
      hiddenBelow: fc.integer({ min: 0, max: 10 }),
      limit: fc.integer({ min: 1, max: 12 }),
      cap: fc.integer({ min: 1, max: 6 }),
      descending: fc.boolean(),
      concurrency: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    });
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const shards: Raw[][] = Array.from({ length: 5 }, () => []);
      s.items.forEach((f, i) => shards[f.shard].push({ GSIPK: { S: `B#${f.shard}` }, PK: { S: f.pk }, SK: { S: `s${i}` }, hidden: { BOOL: f.hidden < s.hiddenBelow } }));
      for (const list of shards) list.sort((a, b) => byteCompare(hash(a), hash(b)));
      const fetch: ShardPageFetcher = async (shard, start, limit) => {
        await new Promise((r) => setImmediate(r));
        if (start && Object.keys(start).sort().join() !== 'GSIPK,PK,SK') throw new Error(`The provided starting key is invalid: ${JSON.stringify(start)}`);
        const ordered = s.descending ? [...shards[shard]].reverse() : shards[shard];
        const from = start ? ordered.findIndex((i) => i.PK.S === start.PK.S && i.SK.S === start.SK.S) + 1 : 0;
        if (start && from === 0) throw new Error('start key not in the shard');
        const rest = ordered.slice(from);
        const evaluated = rest.slice(0, Math.min(limit, s.cap));
        const page: ShardPage = { Items: evaluated.filter((i) => !i.hidden!.BOOL) };
        const last = evaluated[evaluated.length - 1];
        if (evaluated.length < rest.length || evaluated.length === limit) page.LastEvaluatedKey = { GSIPK: last.GSIPK, PK: last.PK, SK: last.SK };
        return page;
      };
      const got = await readAll(fetch, {
        shards: [0, 1, 2, 3, 4],
        limit: s.limit,
        descending: s.descending,
        sortKey: 'PK',
        sorted: false,
        tieBreakKeys: ['PK', 'SK'],
        partitionKeyOf: (shard) => ({ GSIPK: { S: `B#${shard}` } }),
        concurrency: s.concurrency,
      });
      expect(got.map((i) => i.SK.S).sort()).toEqual(shards.flat().filter((i) => !i.hidden!.BOOL).map((i) => i.SK.S).sort());
    }), { numRuns: propertyRuns(30) });
  });
});
