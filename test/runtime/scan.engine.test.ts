// Scan by entity: the type filter keeps the asked entities, parallel segments together return every
// item exactly once, and one cursor resumes every segment where it stopped.
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, scan, SingleTableError, where } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ordersManifest } from '../fixtures/orders-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages, countRequests } from '../support/requests';

type M = typeof ordersManifest;

let engine: Engine;
let db: ReturnType<typeof createClient<M>>;
const ORDERS = 45;
const CUSTOMERS = 7;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(ordersManifest));
  db = createClient({ model: compileModelFile(ordersManifest), client: engine.client, tableName: await engine.createTable() });
  await db.batchWrite([
    ...Array.from({ length: ORDERS }, (_, i) => ({
      type: 'put' as const,
      entity: 'Order' as const,
      item: { customerId: `c${i % CUSTOMERS}`, orderId: `o${i}`, status: 'OPEN', placedAt: '2024-05-01T00:00:00Z', total: i, note: i % 3 ? 'n' : undefined },
    })),
    ...Array.from({ length: CUSTOMERS }, (_, i) => ({ type: 'put' as const, entity: 'Customer' as const, item: { customerId: `c${i}`, name: `N${i}` } })),
  ]);
});
afterAll(() => engine.stop());

const keyOf = (r: { entity: string; item: { customerId?: string; orderId?: string } }) => `${r.entity}:${r.item.customerId}:${r.item.orderId ?? ''}`;

test('property: any segment count, limit and entities: the pages hold every item of those entities exactly once', async () => {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(undefined, 1, 2, 3, 8),
    fc.constantFrom(undefined, 1, 4, 10),
    fc.constantFrom(undefined, ['Order'] as const, ['Customer'] as const, ['Customer', 'Order'] as const),
    async (segments, limit, entities) => {
      const got = await allPages((cursor) => db.scan({ segments, limit, entities: entities as never, cursor }));
      const keys = got.items.map(keyOf);
      expect(new Set(keys).size).toBe(keys.length);
      const want = (entities ?? ['Customer', 'Order']).reduce((n, e) => n + (e === 'Order' ? ORDERS : CUSTOMERS), 0);
      expect(keys).toHaveLength(want);
      expect(got.items.every((r) => (entities ?? ['Customer', 'Order']).includes(r.entity as never))).toBe(true);
    },
  ), { numRuns: propertyRuns(25) });
});

test('each page holds at most `limit` items; one segment per worker, together every item once', async () => {
  const pages: number[] = [];
  for await (const page of db.scan({ segments: 3, limit: 5 })) pages.push(page.items.length);
  expect(Math.max(...pages)).toBeLessThanOrEqual(5);
  expect(pages.reduce((a, b) => a + b, 0)).toBe(ORDERS + CUSTOMERS);
  const table = openTable<M>({ model: modelDocument(db.table.model), client: db.table.dynamodb, tableName: db.table.tableName });
  const workers = await Promise.all([0, 1, 2, 3].map(async (segment) => {
    const items = [];
    for await (const page of scan(table, { segments: 4, segment, entities: ['Order'] })) items.push(...page.items.map(keyOf));
    return items;
  }));
  expect(workers.every((w) => w.length > 0)).toBe(true);
  const all = workers.flat();
  expect(new Set(all).size).toBe(ORDERS);
  expect(all).toHaveLength(ORDERS);
});

test('segments are read in parallel: one Scan per segment for the first page', async () => {
  const requests = countRequests(db.table.dynamodb);
  await db.scan({ segments: 4 });
  expect(requests.of('ScanCommand')).toBe(4);
});

test('filter and attributes: typed results, only the asked attributes, the filter on top of the type filter', async () => {
  const table = openTable<M>({ model: modelDocument(db.table.model), client: db.table.dynamodb, tableName: db.table.tableName });
  const items = (await allPages((cursor) => scan(table, { entities: ['Order'], filter: where({ attr: 'total', lt: 10 }), attributes: ['orderId', 'total'], cursor }))).items;
  expect(items.map((r) => r.item.total).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  for (const r of items) expect(Object.keys(r.item).sort()).toEqual(['orderId', 'total']);
  const customers = (await allPages((cursor) => db.scan({ entities: ['Customer'], filter: where({ attr: 'name', beginsWith: 'N1' }), cursor }))).items;
  expect(customers).toEqual([{ entity: 'Customer', item: { customerId: 'c1', name: 'N1' } }]);
});

test('bad options and cursors fail before any request', async () => {
  const requests = countRequests(db.table.dynamodb);
  await expect(db.scan({ segment: 1 })).rejects.toThrow(/scan: segment 1 needs segments/);
  await expect(db.scan({ segments: 2, segment: 2 })).rejects.toThrow(/segment must be a whole number from 0 to 1/);
  await expect(db.scan({ segments: 0 })).rejects.toThrow(/segments must be a whole number from 1 to 1000000, got 0/);
  await expect(db.scan({ limit: 0 })).rejects.toThrow(/limit must be a positive whole number/);
  await expect(db.scan({ entities: ['Nope' as 'Order'] })).rejects.toThrow(/UNKNOWN_ENTITY/);
  await expect(db.scan({ entities: ['Order'], filter: where({ attr: 'name' as 'total', eq: 1 }) })).rejects.toThrow(/filter\.attr: is not declared/);
  await expect(db.scan({ entities: ['Order'], attributes: ['name' as 'total'] })).rejects.toThrow(SingleTableError);
  const { cursor } = await db.scan({ segments: 2, limit: 3 });
  expect(requests.total()).toBe(2);
  // A cursor belongs to its segment layout.
  await expect(db.scan({ segments: 3, limit: 3, cursor })).rejects.toThrow(/INVALID_CURSOR/);
  await expect(db.scan({ cursor: 'x' + cursor!.slice(1) })).rejects.toThrow(/INVALID_CURSOR/);
  expect(requests.total()).toBe(2);
});

test('items of other writers on the table (no entity type of the model) are left out', async () => {
  const guard = { PK: { S: 'GUARD#x' }, SK: { S: 'GUARD' }, [db.table.model.typeAttribute]: { S: 'Guard' } };
  await db.table.dynamodb.send(new PutItemCommand({ TableName: db.table.tableName, Item: guard }));
  const items = (await allPages((cursor) => db.scan({ cursor }))).items;
  expect(items).toHaveLength(ORDERS + CUSTOMERS);
});
