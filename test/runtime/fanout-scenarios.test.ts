// Sharded-index scenarios end to end through the public runtime API, on the embedded engine with
// the table the construct synthesizes: orders by status newest first (the example's
// GSI2 with 3 shards), open orders by date on a sharded sparse index, where writes put
// items, that updates never move them, and that readers cover the largest shard count ever declared.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

/** What these tests use of a client's query, whatever manifest typed it. */
type Page = { items: { item: { orderId: string } }[]; cursor?: string };
type Pager = { query(pattern: string, input: object, options: { limit: number; cursor?: string }): Promise<Page> };
type Order = { username: string; orderId: string; status: string; createdAt: string; amount: number };

const HOUR = 3_600_000;
const at = (i: number) => new Date(Date.UTC(2024, 3, 1) + i * HOUR).toISOString();

/** Every page of a pattern, following the cursor; returns the order ids in result order. */
async function allPages(db: unknown, pattern: string, input: object, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await (db as Pager).query(pattern, input, { limit, cursor });
    ids.push(...page.items.map((r) => r.item.orderId));
    cursor = page.cursor;
  } while (cursor);
  return ids;
}

/** The index partition key DynamoDB holds for an order, read straight from the table. */
async function rawIndexKey(engine: Engine, tableName: string, o: Pick<Order, 'username' | 'orderId'>, attribute: string) {
  const out = await engine.client.send(new GetItemCommand({
    TableName: tableName,
    Key: { PK: { S: `CUSTOMER#${o.username}` }, SK: { S: `ORDER#${o.orderId}` } },
  }));
  return out.Item?.[attribute]?.S;
}

/** The example manifest with other sharding on GSI2 (the table's shape does not change). */
function withGsi2Sharding(sharding: { shardCount: number; previousShardCounts?: number[] }): SingleTableManifest {
  const m = manifest as SingleTableManifest;
  return { ...m, globalIndexes: { ...m.globalIndexes, GSI2: { ...m.globalIndexes!.GSI2, sharding } } };
}

function orders(count: number, status: (i: number) => string): Order[] {
  return Array.from({ length: count }, (_, i) => ({
    username: `user${i % 7}`,
    orderId: `o${String(i).padStart(3, '0')}`,
    status: status(i),
    createdAt: at(i),
    amount: 10 + i,
  }));
}

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine();
});
afterAll(() => engine.stop());

describe('orders by status, newest first, on GSI2 with 3 shards', () => {
  test('pages through every shard in date order and writes each order to its shard', async () => {
    const gsi2 = compileManifest(manifest).model.indexes.GSI2;
    expect(gsi2.shards).toMatchObject({ writeCount: 3, readCount: 3 }); // 2,000 writes/s -> 3 shards
    const tableName = await engine.createTable();
    const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    const all = orders(45, (i) => (i % 3 === 1 ? 'SHIPPED' : 'OPEN'));
    for (const o of all) await db.putItem('Order', o);

    const from = 5;
    const to = 38;
    const expected = all.filter((o, i) => o.status === 'OPEN' && i >= from && i <= to).reverse().map((o) => o.orderId);
    const got = await allPages(db, 'ordersByStatus', { status: 'OPEN', between: [{ createdAt: at(from) }, { createdAt: at(to) }] }, 4);
    expect(got).toEqual(expected);

    // The shard of each order's table key, in order of `all`.
    const SHARDS = '210000211111102110221221011002101010212021201';
    for (const [i, o] of all.entries()) expect(await rawIndexKey(engine, tableName, o, 'GSI2PK')).toBe(`ORDER#${o.status}#${SHARDS[i]}`);
  });

  test('updates keep an order on its shard, also when its status moves it to another partition', async () => {
    const tableName = await engine.createTable();
    const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    const all = orders(12, () => 'OPEN');
    for (const o of all) await db.putItem('Order', o);
    for (const o of all) {
      const before = await rawIndexKey(engine, tableName, o, 'GSI2PK');
      await db.updateItem('Order', { username: o.username, orderId: o.orderId, amount: 99 } as never);
      expect(await rawIndexKey(engine, tableName, o, 'GSI2PK')).toBe(before);
      // GSI2 composes its keys from status and createdAt: the runtime asks for both.
      await db.updateItem('Order', { username: o.username, orderId: o.orderId, status: 'SHIPPED', createdAt: o.createdAt } as never);
      expect(await rawIndexKey(engine, tableName, o, 'GSI2PK')).toBe(before!.replace('ORDER#OPEN#', 'ORDER#SHIPPED#'));
    }
    const wide = [{ createdAt: at(0) }, { createdAt: at(100) }];
    expect(await allPages(db, 'ordersByStatus', { status: 'OPEN', between: wide }, 5)).toEqual([]);
    expect(await allPages(db, 'ordersByStatus', { status: 'SHIPPED', between: wide }, 5)).toEqual(all.map((o) => o.orderId).reverse());
  });
});

describe('one cursor across shards', () => {
  test('orders written between pages: every order present from the start comes back exactly once', async () => {
    const tableName = await engine.createTable();
    const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    const all = orders(60, () => 'OPEN');
    const first = all.filter((_, i) => i % 2 === 0);
    const later = all.filter((_, i) => i % 2 === 1);
    for (const o of first) await db.putItem('Order', o);
    const input = { status: 'OPEN', between: [{ createdAt: at(0) }, { createdAt: at(100) }] };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await (db as Pager).query('ordersByStatus', input, { limit: 4, cursor });
      seen.push(...page.items.map((r) => r.item.orderId));
      cursor = page.cursor;
      // Two more orders per page, from both ends of the date range: behind and ahead of the cursor.
      for (const o of [later.shift(), later.pop()]) if (o) await db.putItem('Order', o);
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const o of first) expect(seen).toContain(o.orderId);
  });
});

describe('changing the shard count: readers cover the largest count ever declared', () => {
  const wide = { status: 'OPEN', between: [{ createdAt: at(0) }, { createdAt: at(1000) }] };

  test('lowering 5 -> 2 with previousShardCounts keeps every old item visible; new writes use 2 shards', async () => {
    const tableName = await engine.createTable();
    const before = createClient({ model: compileModelFile(withGsi2Sharding({ shardCount: 5 })), client: engine.client, tableName });
    const old = orders(30, () => 'OPEN');
    for (const o of old) await before.putItem('Order', o);

    const after = withGsi2Sharding({ shardCount: 2, previousShardCounts: [5] });
    expect(compileManifest(after).model.indexes.GSI2.shards).toMatchObject({ writeCount: 2, readCount: 5 });
    const db = createClient({ model: compileModelFile(after), client: engine.client, tableName });
    const added = orders(40, () => 'OPEN').slice(30);
    for (const o of added) await db.putItem('Order', o);
    for (const o of added) expect(Number((await rawIndexKey(engine, tableName, o, 'GSI2PK'))!.split('#')[2])).toBeLessThan(2);

    const everything = [...old, ...added].map((o) => o.orderId).reverse();
    expect(await allPages(db, 'ordersByStatus', wide, 7)).toEqual(everything);
    // Without the rule, items on shards 2-4 would vanish from every read.
    const forgetful = createClient({ model: compileModelFile(withGsi2Sharding({ shardCount: 2 })), client: engine.client, tableName });
    const partial = await allPages(forgetful, 'ordersByStatus', wide, 7);
    expect(partial.length).toBeLessThan(everything.length);
  });

  test('raising 2 -> 5 reads items written under 2 shards and under 5', async () => {
    const tableName = await engine.createTable();
    const before = createClient({ model: compileModelFile(withGsi2Sharding({ shardCount: 2 })), client: engine.client, tableName });
    const all = orders(30, () => 'OPEN');
    for (const o of all.slice(0, 15)) await before.putItem('Order', o);
    const grown = compileModelFile(withGsi2Sharding({ shardCount: 5, previousShardCounts: [2] }));
    const db = createClient({ model: grown, client: engine.client, tableName });
    for (const o of all.slice(15)) await db.putItem('Order', o);
    expect(await allPages(db, 'ordersByStatus', wide, 4)).toEqual(all.map((o) => o.orderId).reverse());
  });
});

describe('open orders by date on a sharded sparse index', () => {
  const openOrders: SingleTableManifest = {
    entities: {
      Order: {
        attributes: {
          username: { type: AttributeKind.STRING, required: true },
          orderId: { type: AttributeKind.STRING, required: true },
          createdAt: { type: AttributeKind.DATE, required: true },
          open: { type: AttributeKind.BOOLEAN },
        },
        pk: 'CUSTOMER#{username}',
        sk: 'ORDER#{orderId}',
        // Sparse: only open orders are in the index (an open-items index).
        indexes: { GSI1: { pk: 'OPEN#{open}', sk: '{createdAt}' } },
      },
    },
    globalIndexes: { GSI1: { projection: ProjectionKind.ALL, sharding: { peakWritesPerSecond: 2000 } } },
    accessPatterns: { openOrdersByDate: { entities: ['Order'], index: 'GSI1', sortKeyCondition: SortKeyCondition.BETWEEN } },
  };

  test('2,000 writes/s gives 3 shards; the query merges them by date and skips closed orders', async () => {
    expect(compileManifest(openOrders).model.indexes.GSI1.shards).toMatchObject({ writeCount: 3, readCount: 3 });
    const local = await startEngine(synthesizedTemplate(openOrders));
    try {
      const tableName = await local.createTable();
      const db = createClient({ model: compileModelFile(openOrders), client: local.client, tableName });
      const all = Array.from({ length: 40 }, (_, i) => ({ username: `u${i % 5}`, orderId: `o${String(i).padStart(3, '0')}`, createdAt: at(i), open: i % 4 !== 0 }));
      for (const o of all) await db.putItem('Order', o);
      // Closing an order takes it out of the index.
      for (const o of all.filter((_, i) => i % 5 === 0 && all[i].open)) {
        await db.updateItem('Order', { username: o.username, orderId: o.orderId, open: false } as never);
        o.open = false;
      }
      const expected = all.filter((o, i) => o.open && i >= 3 && i <= 33).map((o) => o.orderId);
      expect(await allPages(db, 'openOrdersByDate', { open: true, between: [{ createdAt: at(3) }, { createdAt: at(33) }] }, 3)).toEqual(expected);
      const shards = new Set(await Promise.all(all.filter((o) => o.open).map((o) => rawIndexKey(local, tableName, o, 'GSI1PK'))));
      expect([...shards].sort()).toEqual(['OPEN#true#0', 'OPEN#true#1', 'OPEN#true#2']);
    } finally {
      await local.stop();
    }
  });
});
