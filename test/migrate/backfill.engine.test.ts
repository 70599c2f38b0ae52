// The backfill on the embedded engine: a shop seeded under manifest A is switched to B (a new GSI,
// a changed template, GSI2 from 3 to 5 shards), backfilled over 4 segments while the application
// writes (also to the very items being rewritten, between their read and their update) and while
// throttling is injected; then to C (back to 3 shards). Afterwards every access pattern returns
// what an oracle computes from the stored items, every user attribute is what the application last
// wrote, and a second run rewrites nothing. From D to E, a pattern moves to a GSI keyed on the
// orders' own attributes: it answers before any backfill, which only removes the old keys.
import { AttributeValue, PutItemCommand, ScanCommand, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { resolveModel } from '../../lib/manifest/resolve';
import { planBackfill } from '../../lib/migrate/plan';
import { backfill } from '../../lib/migrate/run';
import { TableModel } from '../../lib/model/model';
import { createClient } from '../../lib/runtime';
import { fromItem } from '../../lib/runtime/attributes/marshall';
import { compileModelFile } from '../../lib/testing';
import { CATEGORIES, Row, shopManifest, shopRows, STATUSES, Version } from '../fixtures/shop';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { allPages } from '../support/requests';

type Page = { items: { entity: string; item: Record<string, unknown> }[]; cursor?: string };
type Db = {
  putItem(entity: string, item: object): Promise<void>;
  updateItem(entity: string, changes: object): Promise<unknown>;
  deleteItem(entity: string, key: object): Promise<unknown>;
  batchWrite(requests: object[]): Promise<void>;
  query(pattern: string, input: object, options: { limit: number; cursor?: string }): Promise<Page>;
};

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(shopManifest('B')));
});
afterAll(() => engine.stop());

const models = Object.fromEntries((['A', 'B', 'C', 'D', 'E'] as Version[]).map((v) => [v, resolveModel(shopManifest(v))])) as Record<Version, TableModel>;
const db = (version: Version, tableName: string) =>
  createClient({ model: compileModelFile(shopManifest(version)), client: engine.client, tableName }) as unknown as Db;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  // Park and Miller's minimal standard generator.
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647;
}

const keyOf = (entity: string, item: Record<string, unknown>) =>
  entity === 'Product' ? `PRODUCT#${item.productId}` : `CUSTOMER#${item.customerId}|${entity === 'Order' ? `ORDER#${item.orderId}` : `PROFILE#${item.customerId}`}`;

/** Every stored item: its entity and user attributes (keys and the type attribute left out). */
async function stored(model: TableModel, tableName: string): Promise<Map<string, Row>> {
  const strip = new Set([...model.keyAttributes, model.typeAttribute]);
  const rows = new Map<string, Row>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await engine.client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const raw of page.Items ?? []) {
      const entity = model.entityByType[raw[model.typeAttribute]?.S ?? ''] as Row['entity'];
      const item = fromItem(raw, strip);
      rows.set(keyOf(entity, item), { entity, item });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return rows;
}

/** Each pattern's inputs, and from the stored rows what it must return: ids, and the values it is ordered by. */
interface Oracle {
  readonly pattern: string;
  readonly inputs: (rows: Row[]) => object[];
  readonly match: (row: Row, input: any) => boolean;
  readonly id: string;
  readonly order: (item: Record<string, unknown>) => string | number;
}
const ORACLE: Oracle[] = [
  { pattern: 'ordersForCustomer', inputs: customerInputs, match: ofCustomer, id: 'orderId', order: (o) => o.orderId as string },
  { pattern: 'ordersByAmount', inputs: customerInputs, match: ofCustomer, id: 'orderId', order: (o) => o.amount as number },
  {
    pattern: 'customerByEmail',
    inputs: (rows) => rows.filter((r) => r.entity === 'Customer').slice(0, 40).map((r) => ({ email: r.item.email })),
    match: (r, i) => r.entity === 'Customer' && r.item.email === i.email,
    id: 'customerId',
    order: (c) => c.customerId as string,
  },
  {
    pattern: 'orderById',
    inputs: (rows) => rows.filter((r) => r.entity === 'Order').slice(0, 40).map((r) => ({ orderId: r.item.orderId })),
    match: (r, i) => r.entity === 'Order' && r.item.orderId === i.orderId,
    id: 'orderId',
    order: (o) => o.orderId as string,
  },
  { pattern: 'ordersByStatus', inputs: () => STATUSES.map((status) => ({ status })), match: (r, i) => r.entity === 'Order' && r.item.status === i.status, id: 'orderId', order: (o) => o.createdAt as string },
  {
    pattern: 'productsByCategory',
    inputs: () => CATEGORIES.map((category) => ({ category })),
    match: (r, i) => r.entity === 'Product' && r.item.category === i.category,
    id: 'productId',
    order: (p) => `${(p.price as number).toFixed(2).padStart(12, '0')}#${p.productId}`,
  },
];

function ofCustomer(r: Row, input: { customerId: string }): boolean {
  return r.entity === 'Order' && r.item.customerId === input.customerId;
}

function customerInputs(rows: Row[]): object[] {
  return [...new Set(rows.filter((r) => r.entity === 'Customer').map((r) => r.item.customerId))].slice(0, 25).map((customerId) => ({ customerId }));
}

/** Runs every pattern of `version` and compares with the oracle over the stored rows. */
async function expectPatternsMatch(version: Version, tableName: string, rows: Row[]): Promise<number> {
  const client = db(version, tableName);
  let checked = 0;
  for (const o of ORACLE) {
    if (!models[version].patterns[o.pattern]) continue;
    for (const input of o.inputs(rows)) {
      const want = rows.filter((r) => o.match(r, input)).map((r) => r.item);
      const got = (await allPages((cursor) => client.query(o.pattern, input, { limit: 50, cursor }))).items.map((r) => r.item);
      const sortBy = (items: Record<string, unknown>[]) => items.map(o.order).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const ids = (items: Record<string, unknown>[]) => ({ pattern: o.pattern, input, ids: items.map((i) => i[o.id]).sort() });
      expect(ids(got)).toEqual(ids(want));
      expect(got.map(o.order)).toEqual(sortBy(want));
      checked++;
    }
  }
  return checked;
}

function throttling(): Error {
  return Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded'), {
    name: 'ProvisionedThroughputExceededException', $fault: 'client', $metadata: {},
  });
}

test('A -> B under concurrent writes and throttling, then B -> C: patterns match the oracle, user attributes kept, a second run rewrites nothing', async () => {
  const tableName = await engine.createTable();
  const rows = shopRows(120, 8, 240); // 1,320 items
  const truth = new Map<string, Row>(rows.map((r) => [keyOf(r.entity, r.item), r]));
  const a = db('A', tableName);
  for (let i = 0; i < rows.length; i += 100) await a.batchWrite(rows.slice(i, i + 100).map((r) => ({ type: 'put', entity: r.entity, item: r.item })));
  // Customers a hand-written script stored: no type attribute, no index keys.
  for (let i = 0; i < 12; i++) {
    const item = { customerId: `r${i}`, email: `r${i}@example.com`, name: `Raw ${i}` };
    const keys = { PK: { S: `CUSTOMER#r${i}` }, SK: { S: `PROFILE#r${i}` } };
    const values = { customerId: { S: item.customerId }, email: { S: item.email }, name: { S: item.name } };
    await engine.client.send(new PutItemCommand({ TableName: tableName, Item: { ...keys, ...values } }));
    truth.set(keyOf('Customer', item), { entity: 'Customer', item });
  }
  const b = db('B', tableName);
  // Under B before the backfill, the new index is empty.
  expect((await b.query('ordersByAmount', { customerId: 'c0001' }, { limit: 50 })).items).toEqual([]);

  const rand = random(15);
  const orders = () => [...truth.values()].filter((r) => r.entity === 'Order');
  let next = 100_000;
  /**
   * Records an update of some attributes once it is done: on the item as `truth` holds it then, since
   * another write of the same item (the loop's and a raced one run at once) may have landed meanwhile.
   */
  function changed(entity: Row['entity'], row: Row, change: Record<string, unknown>): void {
    const key = keyOf(entity, row.item);
    truth.set(key, { entity, item: { ...(truth.get(key) ?? row).item, ...change } });
  }
  /**
   * One application write under B, recorded in `truth`. Writes of one item by the application wait
   * for each other (the race under test is the backfill's with the application, and two
   * application writes in flight at once would leave the oracle guessing which landed last).
   */
  const writing = new Map<string, Promise<void>>();
  async function appWrite(target?: Row): Promise<void> {
    const list = orders();
    const row = target ?? list[Math.floor(rand() * list.length)];
    const key = keyOf(row.entity, row.item);
    const before = writing.get(key) ?? Promise.resolve();
    const done = before.then(() => {
      // The item as the writes before left it; one they deleted is written no more.
      const current = truth.get(key);
      return current ? appWriteOf(current, target !== undefined) : undefined;
    });
    writing.set(key, done.catch(() => undefined));
    return done;
  }
  async function appWriteOf(row: Row, intoBackfill: boolean): Promise<void> {
    const pick = rand();
    if (row.entity === 'Product') {
      const item = { ...row.item, price: Math.round(rand() * 10_000) / 100 };
      await b.updateItem('Product', item);
      truth.set(keyOf('Product', item), { entity: 'Product', item });
    } else if (row.entity === 'Customer') {
      const name = `Renamed ${Math.floor(rand() * 1000)}`;
      await b.updateItem('Customer', { customerId: row.item.customerId, name });
      changed('Customer', row, { name });
    } else if (pick < 0.4) {
      // The key, the changed values and the other input of their index keys: no stale copy of the rest.
      const change = { status: STATUSES[Math.floor(rand() * STATUSES.length)], amount: Math.floor(rand() * 900), createdAt: row.item.createdAt };
      await b.updateItem('Order', { customerId: row.item.customerId, orderId: row.item.orderId, ...change });
      changed('Order', row, change);
    } else if (pick < 0.6) {
      const note = `changed ${Math.floor(rand() * 1000)}`;
      await b.updateItem('Order', { customerId: row.item.customerId, orderId: row.item.orderId, note });
      changed('Order', row, { note });
    } else if (pick < 0.8 && !intoBackfill) {
      const item = { ...row.item, orderId: `o${next++}`, createdAt: new Date(Date.UTC(2026, 0, 1) + next * 1000).toISOString() };
      await b.putItem('Order', item);
      truth.set(keyOf('Order', item), { entity: 'Order', item });
    } else {
      await b.deleteItem('Order', { customerId: row.item.customerId, orderId: row.item.orderId });
      truth.delete(keyOf('Order', row.item));
    }
  }

  // The backfill's client: SDK retries off, so the worker's own retries meet every injected fault.
  const backfillClient = engine.newClient({ maxAttempts: 1 });
  let throttled = 0;
  let raced = 0;
  backfillClient.middlewareStack.add((nextHandler, context) => async (args) => {
    if ((context.commandName === 'ScanCommand' || context.commandName === 'UpdateItemCommand') && rand() < 0.08) {
      throttled++;
      throw throttling();
    }
    if (context.commandName === 'UpdateItemCommand' && rand() < 0.1) {
      // The application writes this very item between the backfill's read and its update.
      const key = (args.input as UpdateItemCommandInput).Key!;
      const row = truth.get(key.PK.S!.startsWith('PRODUCT#') ? key.PK.S! : `${key.PK.S}|${key.SK.S}`);
      if (row) {
        raced++;
        await appWrite(row);
      }
    }
    return nextHandler(args);
  }, { step: 'initialize', name: 'faults' });

  let running = true;
  let appWrites = 0;
  const app = (async () => {
    while (running) {
      await appWrite();
      appWrites++;
    }
  })();
  const result = await backfill({
    client: backfillClient,
    tableName,
    plan: planBackfill(models.B, models.A),
    segments: 4,
    pageSize: 50,
    retry: { maxAttempts: 20, baseDelayMs: 1, maxDelayMs: 20 },
  });
  running = false;
  await app;
  backfillClient.destroy();

  const afterB = await stored(models.B, tableName);
  expect(new Map([...afterB].map(([k, r]) => [k, r.item]))).toEqual(new Map([...truth].map(([k, r]) => [k, r.item])));
  expect(await expectPatternsMatch('B', tableName, [...afterB.values()])).toBeGreaterThan(100);

  expect(result.failures).toEqual([]);
  expect(result.counts.failed).toBe(0);
  // Fewer than were seeded when the application deleted orders before the scan reached them.
  expect(result.counts.scanned).toBeGreaterThan(rows.length * 0.9);
  // Customers were current already; orders and products were rewritten, or brought up to date (or
  // deleted) by the application's own writes (an update recomputes the slots it changes) first.
  expect(result.counts.rewritten).toBeGreaterThan(rows.length * 0.5);
  expect(result.counts.conflicts).toBeGreaterThan(0);
  expect(throttled).toBeGreaterThan(0);
  expect(raced).toBeGreaterThan(0);
  expect(appWrites).toBeGreaterThan(0);

  const again = await backfill({ client: engine.client, tableName, plan: planBackfill(models.B, models.A), segments: 3 });
  expect(again.counts).toMatchObject({ stale: 0, rewritten: 0, failed: 0, scanned: truth.size });

  // Back to 3 shards: the items move off shards 3 and 4, so the history can then be dropped (D).
  const toC = await backfill({ client: engine.client, tableName, plan: planBackfill(models.C, models.B), segments: 2 });
  expect(toC.counts.failed).toBe(0);
  expect(toC.counts.rewritten).toBeGreaterThan(0);
  const afterC = await stored(models.C, tableName);
  expect(new Map([...afterC].map(([k, r]) => [k, r.item]))).toEqual(new Map([...truth].map(([k, r]) => [k, r.item])));
  await expectPatternsMatch('C', tableName, [...afterC.values()]);
  await expectPatternsMatch('D', tableName, [...afterC.values()]);
  expect((await backfill({ client: engine.client, tableName, plan: planBackfill(models.C) })).counts).toMatchObject({ stale: 0, rewritten: 0 });
}, 300_000);

test('D -> E: orders by amount move from a composed GSI to one keyed on their own attributes, which serves them before any backfill; the backfill removes the composed keys', async () => {
  const onE = await startEngine(synthesizedTemplate(shopManifest('E')));
  try {
    const tableName = await onE.createTable();
    const rows = shopRows(20, 5, 10);
    const d = db('D', tableName);
    for (let i = 0; i < rows.length; i += 100) await d.batchWrite(rows.slice(i, i + 100).map((r) => ({ type: 'put', entity: r.entity, item: r.item })));
    // DynamoDB indexes the orders' own customerId and amount: nothing had to be written for BySpender.
    expect(await expectPatternsMatch('E', tableName, rows)).toBeGreaterThan(20);

    const plan = planBackfill(models.E, models.D);
    const result = await backfill({ client: engine.client, tableName, plan, segments: 2, pageSize: 50 });
    expect(result.counts.failed).toBe(0);
    expect(result.counts.rewritten).toBe(rows.filter((r) => r.entity === 'Order').length);
    const left = (await engine.client.send(new ScanCommand({ TableName: tableName }))).Items!.filter((item) => item.GSI3PK || item.GSI3SK);
    expect(left).toEqual([]);
    expect(await expectPatternsMatch('E', tableName, rows)).toBeGreaterThan(20);
    expect((await backfill({ client: engine.client, tableName, plan, segments: 2, pageSize: 50 })).counts.rewritten).toBe(0);
  } finally {
    await onE.stop();
  }
});
