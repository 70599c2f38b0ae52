// Property tests of the fan-out merge against an in-memory index with DynamoDB's paging rules:
// concatenated pages equal an oracle, nothing lost or repeated, also with writes between pages.
import fc from 'fast-check';
import { allShards, byteCompare, expectedOrder, FakeIndex, idOf, PARTITION_KEY, readAllPages, tieBreak, TieOrder } from './fanout-fake';
import { fanOutQuery, FanOutState } from '../../lib/runtime/query/fanout';
import { heapPop, heapPush } from '../../lib/runtime/query/fanout-heap';
import { compareUtf8 } from '../../lib/runtime/query/fanout-order';
import { SingleTableError } from '../../lib/runtime/table/errors';
import { propertyRuns } from '../support/property-runs';

const sign = (n: number) => Math.sign(n);
// A small alphabet with multi-byte and astral characters: many sort-key ties, and UTF-16 order
// differs from UTF-8 order ('\uffff' sorts before '😀' in UTF-8, after it in UTF-16).
const sortKey = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\uffff', '😀'), maxLength: 3 });
const fakeItem = fc.record({ sk: sortKey, pk: fc.string({ maxLength: 2 }), hidden: fc.integer({ min: 0, max: 5 }).map((n) => n === 0) });
/** Shard contents with table keys made unique (the random prefix mixes their order across shards). */
const shardContents = fc.array(fc.array(fakeItem, { maxLength: 12 }), { minLength: 1, maxLength: 8 })
  .map((shards) => shards.map((items, s) => items.map((f, i) => ({ ...f, pk: `${f.pk}#${s}.${i}` }))));

const scenario = fc.record({
  contents: shardContents,
  limit: fc.integer({ min: 1, max: 10 }),
  pageCaps: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 8, maxLength: 8 }),
  descending: fc.boolean(),
  tieOrder: fc.constantFrom<TieOrder>('tableKey', 'hash'),
  concurrency: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

describe('fanOutQuery on an in-memory index', () => {
  test('concatenated pages equal the reference merge: sorted, nothing lost or repeated', async () => {
    await fc.assert(fc.asyncProperty(scenario, async (s) => {
      const index = new FakeIndex(s.contents, s.tieOrder, (shard) => s.pageCaps[shard]);
      const expected = expectedOrder(index.shards, s.descending);
      const pages = await readAllPages(index, s);
      expect(pages.flat().map(idOf)).toEqual(expected.map(idOf));
      // With the engine ordering ties by table key, the result is the plain sort of every item.
      if (s.tieOrder === 'tableKey') expect(expected).toEqual([...index.shards.flat().filter((i) => !i.hidden)].sort(tieBreak(s.descending ? -1 : 1)));
      for (const call of index.log.calls) expect(call.limit).toBeLessThanOrEqual(s.limit);
      if (s.concurrency !== undefined) expect(index.log.maxInFlight).toBeLessThanOrEqual(s.concurrency);
    }), { numRuns: propertyRuns(40) });
  });

  test('with items written and deleted between pages: nothing present throughout or written ahead of the merge position is lost, nothing repeats, order holds across pages', async () => {
    const writes = fc.array(fc.record({ shard: fc.nat(), item: fakeItem, remove: fc.boolean(), at: fc.nat() }), { maxLength: 40 });
    await fc.assert(fc.asyncProperty(scenario, writes, async (s, changes) => {
      const index = new FakeIndex(s.contents, s.tieOrder, (shard) => s.pageCaps[shard]);
      const atStart = new Set(index.shards.flat().filter((i) => !i.hidden).map(idOf));
      const ahead = new Set<string>();
      const removed = new Set<string>();
      const dir = s.descending ? -1 : 1;
      let next = 0;
      const pages = await readAllPages(index, s, {
        between: (returned) => {
          // The merge position: the sort key of the last item returned so far.
          const position = returned[returned.length - 1]?.GSISK.S;
          // A few writes after each page: inserts anywhere in the order (into exhausted shards too),
          // and deletes (sometimes of the very item a shard's position points at).
          for (const c of changes.slice(next, next + 3)) {
            const shard = c.shard % index.shards.length;
            if (c.remove && index.shards[shard].length) {
              removed.add(idOf(index.remove(shard, c.at % index.shards[shard].length)));
            } else {
              const item = { ...c.item, pk: `${c.item.pk}#new${next}` };
              index.insert(shard, item);
              // Strictly ahead of the position: an unsharded query would return it, so must the fan-out.
              if (!item.hidden && (position === undefined || dir * byteCompare(item.sk, position) > 0)) ahead.add(`${item.pk}|X`);
            }
            next++;
          }
        },
      });
      const all = pages.flat();
      const ids = all.map(idOf);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of [...atStart, ...ahead]) if (!removed.has(id)) expect(ids).toContain(id);
      for (let i = 1; i < all.length; i++) expect(dir * sign(byteCompare(all[i - 1].GSISK.S!, all[i].GSISK.S!))).toBeLessThanOrEqual(0);
    }), { numRuns: propertyRuns(30) });
  });

  test('a shard that had nothing more is read again: an item written into it ahead of the position comes back', async () => {
    const index = new FakeIndex([[{ sk: 'a', pk: '1' }, { sk: 'c', pk: '2' }, { sk: 'e', pk: '3' }], [{ sk: 'b', pk: '4' }]], 'tableKey', () => 10);
    const pages = await readAllPages(index, { limit: 2, descending: false }, {
      between: () => {
        // After the first page (a, b) shard 1 has nothing more; write into it ahead of and behind b.
        if (index.shards[1].length === 1) {
          index.insert(1, { sk: 'd', pk: '5' });
          index.insert(1, { sk: 'a', pk: '6' });
        }
      },
    });
    expect(pages.map((p) => p.map((i) => i.GSISK.S).join(''))).toEqual(['ab', 'cd', 'e']);
  });

  test('shards are queried in parallel unless bounded', async () => {
    await fc.assert(fc.asyncProperty(shardContents, fc.integer({ min: 1, max: 8 }), async (contents, bound) => {
      const free = new FakeIndex(contents, 'tableKey', () => 100);
      await fanOutQuery(free.fetcher(false), { shards: allShards(contents.length), limit: 5, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'] });
      expect(free.log.maxInFlight).toBe(contents.length);
      const bounded = new FakeIndex(contents, 'tableKey', () => 100);
      await fanOutQuery(bounded.fetcher(false), {
        shards: allShards(contents.length), limit: 5, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'], concurrency: bound,
      });
      expect(bounded.log.maxInFlight).toBe(Math.min(bound, contents.length));
    }), { numRuns: propertyRuns(50) });
  });

  test('a concurrency that is not a whole number of at least 1 is rejected before any shard is read, naming the option', async () => {
    const index = new FakeIndex([[{ sk: 'a', pk: 'p' }], []], 'tableKey', () => 1);
    for (const concurrency of [0, 1.5, -1, Number.NaN, '2']) {
      await expect(fanOutQuery(index.fetcher(false), {
        shards: [0, 1], limit: 1, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'], concurrency: concurrency as number, pattern: 'ordersByStatus',
      })).rejects.toMatchObject({ code: 'INVALID_VALUE', pattern: 'ordersByStatus', message: expect.stringMatching(/shardConcurrency must be a whole number of at least 1, got/) });
    }
    expect(index.log.calls).toEqual([]);
  });

  test('a state from a query over other shards, or not from a fan-out, is rejected', async () => {
    const index = new FakeIndex([[{ sk: 'a', pk: 'p' }], []], 'tableKey', () => 1);
    const run = (state: unknown) => fanOutQuery(index.fetcher(false), {
      shards: [0, 1], limit: 1, descending: false, sortKey: 'GSISK', tieBreakKeys: ['PK', 'SK'], partitionKeyOf: PARTITION_KEY, state: state as FanOutState, pattern: 'ordersByStatus',
    });
    await expect(run({ after: [null, null, ['a', 'p', 'X']], last: 2 })).rejects.toThrow(/3 shard positions but the query fans out over 2 shards/);
    await expect(run({ after: [null, null], last: 0 })).rejects.toThrow(/not one a fan-out query returned/);
    await expect(run({ after: [['a', 'p'], null], last: 0 })).rejects.toThrow(/not one a fan-out query returned/);
    // the state travels in the cursor: a bad one is a bad cursor of the pattern
    await expect(run({ after: [null], last: 0 })).rejects.toBeInstanceOf(SingleTableError);
    await expect(run({ after: [null], last: 0 })).rejects.toMatchObject({ code: 'INVALID_CURSOR', pattern: 'ordersByStatus' });
    await expect(run({ after: [['a', 'p', 'X'], null], last: 0 })).resolves.toEqual({ items: [] });
  });

  test('items of one shard keep the engine order for sort-key ties', async () => {
    // With ties ordered by a hash inside a shard, the merge must still emit that shard's items in
    // the shard's own order, or positions would skip items on the next page.
    const index = new FakeIndex([[{ sk: 'a', pk: '1' }, { sk: 'a', pk: '2' }, { sk: 'a', pk: '3' }]], 'hash', () => 1);
    const pages = await readAllPages(index, { limit: 1, descending: false });
    expect(pages.flat().map(idOf)).toEqual(index.shards[0].map(idOf));
  });
});

describe('compareUtf8', () => {
  test('orders strings like their UTF-8 bytes', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), (a, b) => {
      expect(sign(compareUtf8(a, b))).toBe(sign(byteCompare(a, b)));
    }), { numRuns: propertyRuns(200) });
  });
});

describe('heapPush and heapPop', () => {
  test('pops the smallest entry at every step of any push/pop sequence', () => {
    fc.assert(fc.property(fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }), { minLength: 1 }), (ops) => {
      const heap: number[] = [];
      const order = (a: number, b: number) => a - b;
      const reference: number[] = [];
      for (const op of ops) {
        if (op === undefined) {
          reference.sort((a, b) => a - b);
          expect(heapPop(heap, order)).toBe(reference.shift());
        } else {
          heapPush(heap, op, order);
          reference.push(op);
        }
        expect(heap.length).toBe(reference.length);
      }
    }), { numRuns: propertyRuns(50) });
  });
});
