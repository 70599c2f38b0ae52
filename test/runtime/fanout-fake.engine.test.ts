// The in-memory index the fan-out tests page through (fanout-fake.ts) against the run's embedded
// engine: the same shard contents, limits, orders, filtered items and start keys (those pages
// return, and positions no item holds) give the same pages, items, order and LastEvaluatedKey, and
// the same start keys are refused. So the fake cannot drift from the engine it stands in for.
import { AttributeValue, BatchWriteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { FakeIndex, Item } from './fanout-fake';
import type { ShardPage } from '../../lib/runtime/query/fanout';
import { Engine, startEngine } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

// The example app's table as the construct synthesizes it; its GSI2 (GSI2PK / GSI2SK, `status`
// projected) holds the shards. Each case writes to partitions of its own.
let engine: Engine;
let table: string;
let cases = 0;

beforeAll(async () => {
  engine = await startEngine();
  table = await engine.createTable();
});
afterAll(() => engine.stop());

const SHARDS = 2;
// Few characters, so sort keys tie often; multi-byte ones, so UTF-8 order differs from UTF-16 order.
const sortKey = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '#', 'é', '😀', '\uffff'), minLength: 1, maxLength: 3 });
const scenario = fc.record({
  items: fc.uniqueArray(fc.record({ shard: fc.nat(SHARDS - 1), sk: sortKey, pk: fc.string({ unit: fc.constantFrom('a', 'b', 'é'), minLength: 1, maxLength: 4 }), hidden: fc.boolean() }),
    { maxLength: 24, selector: (i) => i.pk }),
  limit: fc.integer({ min: 1, max: 7 }),
  descending: fc.boolean(),
  // A first start key at a position no item need hold.
  start: fc.option(fc.record({ sk: sortKey, pk: fc.string({ unit: fc.constantFrom('a', 'b', 'é'), minLength: 1, maxLength: 4 }) }), { nil: undefined }),
});

/** The engine's names for the fake's: its partition `BASE#<shard>` is `<base>#<shard>` on GSI2, a filtered item has status HIDDEN. */
function engineItem(base: string, item: Item): Item {
  const { GSIPK, GSISK, PK, SK, hidden } = item;
  return { GSI2PK: { S: GSIPK.S!.replace('BASE', base) }, GSI2SK: GSISK, PK, SK, ...(hidden ? { status: { S: 'HIDDEN' } } : {}) };
}
function fakeItem(base: string, item: Record<string, AttributeValue>): Item {
  const { GSI2PK, GSI2SK, PK, SK } = item;
  return { GSIPK: { S: GSI2PK.S!.replace(base, 'BASE') }, GSISK: GSI2SK, PK, SK };
}
const engineKey = (base: string, key: Item) => {
  const { GSI2PK, GSI2SK, PK, SK } = engineItem(base, key);
  return { GSI2PK, GSI2SK, PK, SK };
};

/** One page of one shard from the engine, in the fake's names; or the error it answered. */
async function enginePage(base: string, shard: number, start: Item | undefined, limit: number, descending: boolean): Promise<ShardPage | string> {
  try {
    const out = await engine.client.send(new QueryCommand({
      TableName: table,
      IndexName: 'GSI2',
      KeyConditionExpression: '#pk = :pk',
      FilterExpression: 'attribute_not_exists(#status)',
      ExpressionAttributeNames: { '#pk': 'GSI2PK', '#status': 'status' },
      ExpressionAttributeValues: { ':pk': { S: `${base}#${shard}` } },
      ExclusiveStartKey: start && (start.GSI2PK ? start : engineKey(base, start)),
      Limit: limit,
      ScanIndexForward: !descending,
    }));
    const page: ShardPage = { Items: (out.Items ?? []).map((i) => fakeItem(base, i)) };
    if (out.LastEvaluatedKey) page.LastEvaluatedKey = fakeItem(base, out.LastEvaluatedKey);
    return page;
  } catch (e) {
    return `refused: ${(e as Error).name}`;
  }
}

/** The fake's answer to the same request; its refusals read as the engine's. */
async function fakePage(index: FakeIndex, shard: number, start: Item | undefined, limit: number, descending: boolean): Promise<ShardPage | string> {
  try {
    return await index.fetcher(descending)(shard, start, limit);
  } catch {
    return 'refused: ValidationException';
  }
}

/**
 * What two answers of pages with tied sort keys share: the engine orders ties its own way (the fake
 * by the table key, or by a hash), so a filtered item among ties may fall on another page, but every
 * page ends at the same sort key, and the pages together return the same sort keys in order.
 */
const lastSortKey = (page: ShardPage | string) => (typeof page === 'string' ? page : page.LastEvaluatedKey?.GSISK.S ?? null);

test('the fake index answers every page as the engine does: items, order, filtered items, LastEvaluatedKey, refused start keys', async () => {
  await fc.assert(fc.asyncProperty(scenario, fc.boolean(), async (s, ties) => {
    const base = `FAKE${++cases}`;
    // Without ties, whole pages compare; with them, what does not depend on how ties are ordered.
    const items = ties ? s.items : s.items.filter((i, n) => s.items.findIndex((j) => j.shard === i.shard && j.sk === i.sk) === n);
    const contents = Array.from({ length: SHARDS }, (_, shard) => items.filter((i) => i.shard === shard)
      .map((i) => ({ sk: i.sk, pk: `${base}:${i.pk}`, hidden: i.hidden })));
    const index = new FakeIndex(contents, 'tableKey', () => Infinity);
    const written = index.shards.flat().map((i) => ({ PutRequest: { Item: engineItem(base, i) } }));
    for (let i = 0; i < written.length; i += 25) {
      await engine.client.send(new BatchWriteItemCommand({ RequestItems: { [table]: written.slice(i, i + 25) } }));
    }

    for (let shard = 0; shard < SHARDS; shard++) {
      const tied = (sk: string) => items.some((i) => i.shard === shard && i.sk === sk);
      const first: Item | undefined = s.start && !tied(s.start.sk)
        ? { GSIPK: { S: `BASE#${shard}` }, GSISK: { S: s.start.sk }, PK: { S: `${base}:${s.start.pk}` }, SK: { S: 'X' } } : undefined;
      // Each pages on from the position it returned (with ties the two may differ).
      let [fakeStart, realStart] = [first, first];
      const seen: string[][] = [[], []];
      const sortKeys: string[][] = [[], []];
      for (let pages = 0; pages < 30; pages++) {
        const fake = await fakePage(index, shard, fakeStart, s.limit, s.descending);
        const real = await enginePage(base, shard, realStart, s.limit, s.descending);
        if (ties) {
          expect({ shard, page: pages, last: lastSortKey(fake) }).toEqual({ shard, page: pages, last: lastSortKey(real) });
        } else {
          expect({ shard, start: fakeStart, fake }).toEqual({ shard, start: fakeStart, fake: real });
        }
        if (typeof fake === 'string' || typeof real === 'string') break;
        seen[0].push(...(fake.Items ?? []).map((i) => i.PK.S!));
        seen[1].push(...(real.Items ?? []).map((i) => i.PK.S!));
        sortKeys[0].push(...(fake.Items ?? []).map((i) => i.GSISK.S!));
        sortKeys[1].push(...(real.Items ?? []).map((i) => i.GSISK.S!));
        if (!fake.LastEvaluatedKey || !real.LastEvaluatedKey) break;
        [fakeStart, realStart] = [fake.LastEvaluatedKey, real.LastEvaluatedKey];
      }
      expect({ shard, sortKeys: sortKeys[0] }).toEqual({ shard, sortKeys: sortKeys[1] });
      expect(seen[0].sort()).toEqual(seen[1].sort());
    }
    // A start key of another shard, and one without the table key, are refused by both.
    const some = index.shards[0][0] ?? index.shards[1][0];
    if (some) {
      const shard = some.GSIPK.S === 'BASE#0' ? 0 : 1;
      expect(await enginePage(base, 1 - shard, some, s.limit, s.descending)).toBe(await fakePage(index, 1 - shard, some, s.limit, s.descending));
      const { PK: _pk, ...noTableKey } = some;
      expect(await enginePage(base, shard, { GSI2PK: { S: `${base}#${shard}` }, GSI2SK: noTableKey.GSISK }, s.limit, s.descending))
        .toBe(await fakePage(index, shard, noTableKey, s.limit, s.descending));
    }
  }), { numRuns: propertyRuns(30) });
});
