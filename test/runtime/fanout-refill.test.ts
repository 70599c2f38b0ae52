// Refills of the fan-out merge: when a shard runs dry mid-page, every shard predicted to run dry
// before the page fills is read in the same round trip (refillWave), and a shard read ahead keeps
// the items it still holds; a shard whose LastEvaluatedKey bounds its unread items waits until the
// merge reaches that key. A filter (Limit counts evaluated items) makes shards run dry together,
// which is where this matters. Pages must still equal the reference merge: nothing lost or repeated.
import fc from 'fast-check';
import { allShards, expectedOrder, FakeIndex, FakeItem, idOf, PARTITION_KEY, readAllPages, TieOrder } from './fanout-fake';
import { fanOutQuery, ShardPageFetcher } from '../../lib/runtime/query/fanout';
import { propertyRuns } from '../support/property-runs';

/** Counts round trips: a read that starts while none is in flight begins a new one. */
function counted(fetch: ShardPageFetcher): { fetch: ShardPageFetcher; roundTrips: () => number } {
  let inFlight = 0;
  let trips = 0;
  return {
    fetch: async (shard, start, limit) => {
      if (inFlight++ === 0) trips++;
      try {
        return await fetch(shard, start, limit);
      } finally {
        inFlight--;
      }
    },
    roundTrips: () => trips,
  };
}


describe('fan-out refills', () => {
  test('heavily filtered and skewed shards: pages equal the reference merge, nothing lost or repeated', async () => {
    // Larger shards and limits than fanout.test.ts, so first pages are shorter than the limit and
    // shards run dry mid-page; most items hidden by the filter; one shard may hold most items.
    const scenario = fc.record({
      shardCount: fc.integer({ min: 1, max: 6 }),
      items: fc.array(fc.record({
        sk: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '\uffff', '😀'), maxLength: 4 }),
        shard: fc.nat(),
        hot: fc.boolean(),
        hidden: fc.integer({ min: 0, max: 9 }),
      }), { minLength: 10, maxLength: 200, size: 'medium' }),
      hiddenBelow: fc.integer({ min: 0, max: 9 }),
      limit: fc.integer({ min: 1, max: 60 }),
      pageCap: fc.integer({ min: 1, max: 50 }),
      descending: fc.boolean(),
      tieOrder: fc.constantFrom<TieOrder>('tableKey', 'hash'),
      concurrency: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    });
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const contents: FakeItem[][] = allShards(s.shardCount).map(() => []);
      s.items.forEach((f, i) => {
        contents[f.hot ? 0 : f.shard % s.shardCount].push({ sk: f.sk, pk: `p${i}`, hidden: f.hidden < s.hiddenBelow });
      });
      const index = new FakeIndex(contents, s.tieOrder, () => s.pageCap);
      const pages = await readAllPages(index, s);
      expect(pages.flat().map(idOf)).toEqual(expectedOrder(index.shards, s.descending).map(idOf));
      for (const call of index.log.calls) expect(call.limit).toBeLessThanOrEqual(s.limit);
      if (s.concurrency !== undefined) expect(index.log.maxInFlight).toBeLessThanOrEqual(s.concurrency);
    }), { numRuns: propertyRuns(40) });
  });

  test('shards that run dry together under a filter are read again in one round trip, keeping what they still hold', async () => {
    // Three shards interleaved in sort-key order, two items in three hidden: each first page (21
    // evaluated) returns 7, so shard 0 runs dry at the 19th item while shards 1 and 2 still hold one
    // item each and would run dry right after. All three are read again at once: 2 round trips,
    // where reading each when it runs dry took 4.
    const contents = allShards(3).map((s) => Array.from({ length: 60 }, (_, i) => ({
      sk: String(3 * i + s).padStart(3, '0'),
      pk: `p${s}.${i}`,
      hidden: i % 3 !== 0,
    })));
    for (const descending of [false, true]) {
      const index = new FakeIndex(contents, 'tableKey', () => 1000);
      const { fetch, roundTrips } = counted(index.fetcher(descending));
      const page = await fanOutQuery(fetch, {
        shards: [0, 1, 2], limit: 30, descending, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'], partitionKeyOf: PARTITION_KEY,
      });
      expect(page.items.map(idOf)).toEqual(expectedOrder(index.shards, descending).slice(0, 30).map(idOf));
      expect(roundTrips()).toBe(2);
      // The next pages go on from there, and all pages together hold every visible item once.
      const rest = await readAllPages(index, { limit: 30, descending });
      expect(rest.flat().map(idOf)).toEqual(expectedOrder(index.shards, descending).map(idOf));
    }
  });

  test('a shard whose page the filter emptied waits at its LastEvaluatedKey, read again only if the merge gets there', async () => {
    // Shard 1's first page (3 evaluated) is all filtered out; its LastEvaluatedKey 'o' sorts after
    // the page's 3 items from shard 0, so the page needs nothing more from it: one round trip.
    const contents = [
      ['a', 'b', 'c', 'd', 'e'].map((sk, i) => ({ sk, pk: `p0.${i}` })),
      ['m', 'n', 'o', 'z'].map((sk, i) => ({ sk, pk: `p1.${i}`, hidden: sk !== 'z' })),
    ];
    const index = new FakeIndex(contents, 'tableKey', () => 1000);
    const { fetch, roundTrips } = counted(index.fetcher(false));
    const page = await fanOutQuery(fetch, { shards: [0, 1], limit: 3, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'], partitionKeyOf: PARTITION_KEY });
    expect(page.items.map((i) => i.GSISK.S)).toEqual(['a', 'b', 'c']);
    expect(roundTrips()).toBe(1);
    expect(index.log.calls).toHaveLength(2);
    // Shard 1 is read from its position (nothing returned from it yet) on the next pages: nothing skipped.
    const all = await readAllPages(index, { limit: 3, descending: false });
    expect(all.flat().map((i) => i.GSISK.S)).toEqual(['a', 'b', 'c', 'd', 'e', 'z']);
    // Descending, the filtered items come first and the shard is read on until 'z'.
    const down = await readAllPages(new FakeIndex(contents, 'tableKey', () => 1000), { limit: 3, descending: true });
    expect(down.flat().map((i) => i.GSISK.S)).toEqual(['z', 'e', 'd', 'c', 'b', 'a']);
  });

  test('unfiltered shards with even data: one round trip, no shard read again', async () => {
    // 10 shards of 60 items each in interleaved order: a page of 100 takes 10 from each, within the
    // first pages (21 each), so no shard is predicted to run dry.
    const even = allShards(10).map((s) => Array.from({ length: 60 }, (_, i) => ({ sk: String(10 * i + s).padStart(4, '0'), pk: `p${s}.${i}` })));
    const index = new FakeIndex(even, 'tableKey', () => 1000);
    const { fetch, roundTrips } = counted(index.fetcher(false));
    const page = await fanOutQuery(fetch, { shards: allShards(10), limit: 100, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'] });
    expect(page.items.map(idOf)).toEqual(expectedOrder(index.shards, false).slice(0, 100).map(idOf));
    expect(roundTrips()).toBe(1);
    expect(index.log.calls.map((c) => c.limit)).toEqual(Array(10).fill(21));
  });
});
