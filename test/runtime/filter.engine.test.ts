// Filters on queries: the results of a filtered query, page after page, are the unfiltered results
// the condition holds for, in the same order, on one partition and over the shards of a sharded
// GSI; the filter shares the request's placeholders with the key condition and the type filter.
import fc from 'fast-check';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, query, SingleTableError, where } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ordersManifest } from '../fixtures/orders-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages, countRequests } from '../support/requests';

type M = typeof ordersManifest;
type Db = ReturnType<typeof createClient<M>>;
type Order = {
  customerId: string; orderId: string; status: string; placedAt: string; total: number; rush?: boolean; note?: string; tags?: Set<string>;
};

let engine: Engine;
let db: Db;
const orders: Order[] = Array.from({ length: 40 }, (_, i) => ({
  customerId: `c${i % 2}`,
  orderId: `o${String(i).padStart(2, '0')}`,
  status: i % 3 ? 'OPEN' : 'SHIPPED',
  placedAt: new Date(Date.UTC(2024, 0, 1 + (i * 7) % 40)).toISOString(),
  total: ((i * 37) % 50) - 10,
  rush: i % 4 === 0 ? true : undefined,
  note: i % 5 ? `n${i % 3}` : undefined,
  tags: i % 2 ? new Set([`t${i % 3}`, 'all']) : undefined,
}));

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(ordersManifest));
  db = createClient({ model: compileModelFile(ordersManifest), client: engine.client, tableName: await engine.createTable() });
  await db.batchWrite(orders.map((item) => ({ type: 'put' as const, entity: 'Order' as const, item })));
  await db.putItem('Customer', { customerId: 'c0', name: 'Ann', tier: 2 });
});
afterAll(() => engine.stop());

type Stored = Record<string, unknown>;
/** Conditions over the orders' attributes, with the JavaScript that decides them on a result item (a missing attribute fails every operator but `<>`). */
type Case = { readonly condition: object; readonly holds: (o: Stored) => boolean };
const leaf: fc.Arbitrary<Case> = fc.oneof(
  fc.constantFrom('OPEN', 'SHIPPED').map((v) => ({ condition: { attr: 'status', eq: v }, holds: (o: Stored) => o.status === v })),
  fc.integer({ min: -12, max: 42 }).map((v) => ({ condition: { attr: 'total', gt: v }, holds: (o: Stored) => o.total !== undefined && (o.total as number) > v })),
  fc.tuple(fc.integer({ min: -10, max: 40 }), fc.integer({ min: 0, max: 20 })).map(([lo, d]) => ({
    condition: { attr: 'total', between: [lo, lo + d] },
    holds: (o: Stored) => o.total !== undefined && (o.total as number) >= lo && (o.total as number) <= lo + d,
  })),
  fc.boolean().map((v) => ({ condition: { attr: 'note', exists: v }, holds: (o: Stored) => (o.note !== undefined) === v })),
  fc.constantFrom('n0', 'n1', 'x').map((v) => ({ condition: { attr: 'note', ne: v }, holds: (o: Stored) => o.note !== v })),
  fc.constantFrom('t0', 't1', 'all').map((v) => ({ condition: { attr: 'tags', contains: v }, holds: (o: Stored) => (o.tags as Set<string> | undefined)?.has(v) === true })),
  fc.integer({ min: 0, max: 40 }).map((d) => {
    const at = new Date(Date.UTC(2024, 0, 1 + d)).toISOString();
    return { condition: { attr: 'placedAt', lt: at }, holds: (o: Stored) => o.placedAt !== undefined && (o.placedAt as string) < at };
  }),
);
const leaves = fc.array(leaf, { minLength: 1, maxLength: 3 });
const condition: fc.Arbitrary<Case> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  {
    weight: 1,
    arbitrary: leaves.map((cs) => ({
      condition: { and: cs.map((c) => c.condition) }, holds: (o: Stored) => cs.every((c) => c.holds(o)),
    })),
  },
  { weight: 1, arbitrary: leaves.map((cs) => ({ condition: { or: cs.map((c) => c.condition) }, holds: (o: Stored) => cs.some((c) => c.holds(o)) })) },
  { weight: 1, arbitrary: leaf.map((c) => ({ condition: { not: c.condition }, holds: (o: Stored) => !c.holds(o) })) },
);

type Result = { entity: string; item: Stored };
const everyPage = async (pattern: string, input: object, options: object) =>
  (await allPages((cursor) => db.query(pattern as never, input as never, { ...options, cursor } as never))).items as Result[];

test.each([
  ['customer: the table, two entities in one partition', 'customer', { customerId: 'c0' }],
  ['byAll: a sharded GSI, every shard query filtered and their pages merged', 'byAll', { status: 'OPEN' }],
  ['byAll, another partition key value', 'byAll', { status: 'SHIPPED' }],
] as const)('property: %s: filtered pages hold exactly the unfiltered results the condition holds for, in order', async (_name, pattern, input) => {
  const full = await everyPage(pattern, input, {});
  expect(full.length).toBeGreaterThan(5);
  await fc.assert(fc.asyncProperty(condition, fc.constantFrom(undefined, 1, 3, 7), async (c, limit) => {
    const filtered = await everyPage(pattern, input, { filter: where(c.condition as never), limit });
    expect(filtered).toEqual(full.filter((r) => c.holds(r.item)));
  }), { numRuns: propertyRuns(25) });
});

test('an INCLUDE GSI filters on what it projects, with the operations imported one by one', async () => {
  const table = openTable<M>({ model: modelDocument(db.table.model), client: db.table.dynamodb, tableName: db.table.tableName });
  const requests = countRequests(db.table.dynamodb);
  const page = await query(table, 'byTotal', { customerId: 'c1' }, { filter: where({ attr: 'note', beginsWith: 'n1' }), attributes: ['orderId', 'note'] });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  const expected = (await everyPage('byTotal', { customerId: 'c1' }, {})).filter((r) => r.item.note === 'n1');
  expect(page.items).toEqual(expected.map((r) => ({ entity: 'Order', item: { orderId: r.item.orderId, note: 'n1' } })));
  expect(page.items.length).toBeGreaterThan(1);
  const sharded = await query(table, 'byAll', { status: 'OPEN' }, { filter: where({ attr: 'rush', eq: true }) });
  expect(sharded.items).toEqual((await everyPage('byAll', { status: 'OPEN' }, {})).filter((r) => r.item.rush === true));
  expect(sharded.items.length).toBeGreaterThan(1);
});

test('a bad filter fails before any request, naming the place in the condition', async () => {
  const requests = countRequests(db.table.dynamodb);
  await expect(db.query('byAll', { status: 'OPEN' }, { filter: where({ and: [{ attr: 'total', gt: 1 }, { attr: 'nope' as 'total', eq: 1 }] }) }))
    .rejects.toThrow(/filter\.and\[1\]\.attr: is not declared/);
  await expect(db.query('byAll', { status: 'OPEN' }, { filter: where({ attr: 'total', gt: 'ten' as never }) })).rejects.toThrow(SingleTableError);
  // KEYS_ONLY holds no attribute but the keys: a filter there would match nothing.
  await expect(db.query('byStatus', { status: 'OPEN' }, { filter: where({ attr: 'total', gt: 1 }) }))
    .rejects.toThrow(/pattern byStatus, attribute total: filter names total, which GSI ByStatus does not project \(KEYS_ONLY\)/);
  await expect(db.query('byTotal', { customerId: 'c1' }, { filter: where({ attr: 'status', eq: 'OPEN' }) })).rejects.toThrow(/does not project \(INCLUDE\)/);
  expect(requests.total()).toBe(0);
});

test('limit counts the items DynamoDB reads before the filter: a page may hold fewer, and the cursor goes on', async () => {
  const page = await db.query('customer', { customerId: 'c0' }, { filter: where({ attr: 'note', eq: 'n2' }), limit: 3 });
  expect(page.items.length).toBeLessThan(3);
  expect(page.cursor).toBeDefined();
});
