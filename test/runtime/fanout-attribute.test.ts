// ShardStrategy.ATTRIBUTE through the public client on the embedded engine: a query whose key condition pins
// the shard attribute reads only that value's shard under every count ever declared, and finds
// every item, also those written before a count change; without the value it reads every shard.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ShardStrategy } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ShardedOrder, shardedOrders } from '../fixtures/sharded-orders';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { recordQueriedPartitions } from '../support/requests';

type Order = ShardedOrder;
type Page = { items: { item: Order }[]; cursor?: string };
type Pager = { query(pattern: string, input: object, options: { limit: number; cursor?: string }): Promise<Page> };

/** Orders by status, then customer and date, sharded by customer. */
const manifestWith = (sharding: { shardCount: number; previousShardCounts?: number[] }) =>
  shardedOrders({ ...sharding, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'customerId' });

const HOUR = 3_600_000;
const order = (customerId: string, i: number): Order => ({
  customerId, orderId: `${customerId}-${String(i).padStart(3, '0')}`, status: 'OPEN', createdAt: new Date(Date.UTC(2024, 3, 1) + i * HOUR).toISOString(),
});

let engine: Engine;
let sdk: DynamoDBClient;
/** Partition key values of every Query sent, in order. */
let queried: string[];

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifestWith({ shardCount: 4 })));
  sdk = engine.newClient();
  queried = recordQueriedPartitions(sdk);
});
afterAll(async () => {
  sdk.destroy();
  await engine.stop();
});

/** Every page of the pattern; returns the order ids and the distinct partitions the pages read. */
async function readAll(db: unknown, input: object, limit: number): Promise<{ ids: string[]; partitions: string[] }> {
  queried.length = 0;
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await (db as Pager).query('byStatusAndCustomer', input, { limit, cursor });
    ids.push(...page.items.map((r) => r.item.orderId));
    cursor = page.cursor;
  } while (cursor);
  return { ids, partitions: [...new Set(queried)].sort() };
}

const customers = Array.from({ length: 12 }, (_, i) => `c${i}`);

test('with the customer in the sort-key prefix, one shard is read; without it, every shard', async () => {
  const tableName = await engine.createTable();
  const db = createClient({ model: compileModelFile(manifestWith({ shardCount: 4 })), client: sdk, tableName });
  const all = customers.flatMap((c) => Array.from({ length: 5 }, (_, i) => order(c, i)));
  for (const o of all) await db.putItem('Order', o);

  // c1 and c7 are on shard 2 of 4.
  for (const c of ['c1', 'c7']) {
    const got = await readAll(db, { status: 'OPEN', customerId: c }, 2);
    expect(got.ids).toEqual(all.filter((o) => o.customerId === c).map((o) => o.orderId));
    expect(got.partitions).toEqual(['STATUS#OPEN#2']);
  }
  const everything = await readAll(db, { status: 'OPEN' }, 7);
  // The index sort key order: `CUSTOMER#c1#...` before `CUSTOMER#c10#...` ('#' sorts before digits).
  const byKey = [...all].sort((a, b) => (`${a.customerId}#${a.createdAt}` < `${b.customerId}#${b.createdAt}` ? -1 : 1));
  expect(everything.ids).toEqual(byKey.map((o) => o.orderId));
  expect(everything.partitions).toEqual([0, 1, 2, 3].map((s) => `STATUS#OPEN#${s}`));
});

test('after a count change (3 -> 5), a read by customer asks its shard under both counts and finds old and new orders', async () => {
  // A customer whose shard differs between the two counts (2 of 3, 0 of 5), so that reading one count would miss orders.
  const c = 'c0';
  const [other1, other2] = customers.filter((x) => x !== c);
  const tableName = await engine.createTable();
  const before = createClient({ model: compileModelFile(manifestWith({ shardCount: 3 })), client: sdk, tableName });
  const old = [order(c, 0), order(c, 2), order(c, 4), order(other1, 1), order(other2, 1)];
  for (const o of old) await before.putItem('Order', o);
  const db = createClient({ model: compileModelFile(manifestWith({ shardCount: 5, previousShardCounts: [3] })), client: sdk, tableName });
  const added = [order(c, 1), order(c, 3), order(other1, 2)];
  for (const o of added) await db.putItem('Order', o);

  const got = await readAll(db, { status: 'OPEN', customerId: c }, 2);
  expect(got.ids).toEqual([0, 1, 2, 3, 4].map((i) => order(c, i).orderId));
  expect(got.partitions).toEqual(['STATUS#OPEN#0', 'STATUS#OPEN#2']);
  // Without the earlier count, the orders written under 3 shards are out of reach.
  const forgetful = createClient({ model: compileModelFile(manifestWith({ shardCount: 5 })), client: sdk, tableName });
  expect((await readAll(forgetful, { status: 'OPEN', customerId: c }, 2)).ids).toEqual([1, 3].map((i) => order(c, i).orderId));
});
