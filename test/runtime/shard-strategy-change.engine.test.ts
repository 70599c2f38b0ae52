// A sharded GSI whose strategy changes (RANDOM -> ATTRIBUTE) on the embedded engine: items keep the shard they
// were written to, so with the old strategy in previousStrategies a query that knows the shard
// attribute fans out over every shard and finds them; without it, it reads the value's shard only
// and misses them (which the shard lock turns into a synth error, SHARD_LOCK_STRATEGY_MISSING).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resolveModel } from '../../lib/manifest/resolve';
import { PreviousShardStrategy, ShardingDefinition, ShardStrategy } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ShardedOrder, shardedOrders } from '../fixtures/sharded-orders';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { recordQueriedPartitions } from '../support/requests';

type Order = ShardedOrder;
type Page = { items: { item: Order }[]; cursor?: string };
type Pager = { query(pattern: string, input: object, options: { limit: number; cursor?: string }): Promise<Page> };

const SHARDS = 4;
const BY_CUSTOMER = { strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'customerId' };

/** Orders by status, then customer and date; GSI1 sharded so, over SHARDS shards. */
const manifestWith = (sharding: ShardingDefinition) => shardedOrders({ shardCount: SHARDS, ...sharding });

let engine: Engine;
let sdk: DynamoDBClient;
/** Partition key values of the Queries sent. */
let queried: string[];

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifestWith({})));
  sdk = engine.newClient();
  queried = recordQueriedPartitions(sdk);
});
afterAll(async () => {
  sdk.destroy();
  await engine.stop();
});

async function readAll(db: unknown, input: object): Promise<{ ids: string[]; shards: number }> {
  queried.length = 0;
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await (db as Pager).query('byStatusAndCustomer', input, { limit: 3, cursor });
    ids.push(...page.items.map((r) => r.item.orderId));
    cursor = page.cursor;
  } while (cursor);
  return { ids, shards: new Set(queried).size };
}

const order = (i: number): Order => ({ customerId: 'c1', orderId: `o${String(i).padStart(2, '0')}`, status: 'OPEN', createdAt: new Date(Date.UTC(2024, 3, 1, i)).toISOString() });

// The last element: the old orders the old strategy happened to put on c1's shard (2 of 4), the one
// a reader that knows nothing of it reads.
test.each<[string, PreviousShardStrategy[], number[]]>([
  ['RANDOM', [{ strategy: ShardStrategy.RANDOM }], [12, 18]],
  ['ATTRIBUTE on another attribute', [{ strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'orderId' }], [2, 8, 10, 14, 16, 20]],
])('after switching from %s to ATTRIBUTE, with previousStrategies, a read by customer finds every order, old and new', async (_from, previousStrategies, onC1Shard) => {
  const tableName = await engine.createTable();
  const before = createClient({ model: compileModelFile(manifestWith(previousStrategies[0])), client: sdk, tableName });
  const old = Array.from({ length: 12 }, (_, i) => order(i * 2));
  for (const o of old) await before.putItem('Order', o);
  const db = createClient({ model: compileModelFile(manifestWith({ ...BY_CUSTOMER, previousStrategies })), client: sdk, tableName });
  const added = Array.from({ length: 4 }, (_, i) => order(i * 2 + 1));
  for (const o of added) await db.putItem('Order', o);

  const got = await readAll(db, { status: 'OPEN', customerId: 'c1' });
  expect(got.ids).toEqual([...old, ...added].map((o) => o.orderId).sort());
  expect(got.shards).toBe(SHARDS);

  // Without the history the read goes to c1's shard alone and misses the orders written elsewhere.
  const forgetful = createClient({ model: compileModelFile(manifestWith(BY_CUSTOMER)), client: sdk, tableName });
  const partial = await readAll(forgetful, { status: 'OPEN', customerId: 'c1' });
  expect(partial.shards).toBe(1);
  expect(partial.ids).toEqual([...onC1Shard.map(order), ...added].map((o) => o.orderId).sort());
});

test('the model says when a known shard attribute value may be read from its shards alone', () => {
  const pinned = (sharding: ShardingDefinition) => resolveModel(manifestWith(sharding)).indexes.GSI1.shards!.pinnedReads;
  expect(pinned(BY_CUSTOMER)).toBe(true);
  expect(pinned({ ...BY_CUSTOMER, previousStrategies: [{ ...BY_CUSTOMER }] })).toBe(true);
  expect(pinned({ ...BY_CUSTOMER, previousStrategies: [{ strategy: ShardStrategy.RANDOM }] })).toBe(false);
  expect(pinned({})).toBe(false);
  expect(resolveModel(manifestWith({ ...BY_CUSTOMER, previousStrategies: [{ strategy: ShardStrategy.RANDOM }] })).indexes.GSI1.shards!.strategies).toEqual(['ATTRIBUTE:customerId', 'RANDOM']);
});
