// Patterns over several entities of one item collection, on dynalite: an order `ORDER#{orderId}`,
// its lines `ORDER#{orderId}#LINE#{lineNo}` and shipments `ORDER#{orderId}#SHIPMENT#{shippedAt}`
// share a partition with the customer (sorting below) and payments (sorting above). Every
// condition is built on the sort-key prefix the pattern's entities share, so a parent and its
// children come back from one query, in key order, whichever entity the pattern names first.
import fc from 'fast-check';
import { compileManifest } from '../../lib/manifest/compile';
import { keyCondition } from '../../lib/reports/pattern-table';
import { AttributeKind, createClient, defineManifest, SortKeyCondition } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages } from '../support/requests';

const username = { type: AttributeKind.STRING, required: true } as const;
const orderId = { type: AttributeKind.STRING, required: true } as const;
const pk = 'CUSTOMER#{username}';
const orderAndLines = (condition: SortKeyCondition) => ({ entities: ['Order', 'Line'] as const, sortKeyCondition: condition });
const manifest = defineManifest({
  entities: {
    Customer: { attributes: { username, name: { type: AttributeKind.STRING, required: true } }, pk, sk: 'CUSTOMER#{username}' },
    Order: { attributes: { username, orderId, total: { type: AttributeKind.NUMBER, required: true } }, pk, sk: 'ORDER#{orderId}' },
    Line: {
      attributes: { username, orderId, lineNo: { type: AttributeKind.NUMBER, required: true }, sku: { type: AttributeKind.STRING, required: true } },
      pk,
      sk: 'ORDER#{orderId}#LINE#{lineNo}',
    },
    Shipment: { attributes: { username, orderId, shippedAt: { type: AttributeKind.DATE, required: true } }, pk, sk: 'ORDER#{orderId}#SHIPMENT#{shippedAt}' },
    Payment: { attributes: { username, paymentId: { type: AttributeKind.STRING, required: true } }, pk, sk: 'PAYMENT#{paymentId}' },
  },
  localIndexes: { enabled: false },
  accessPatterns: {
    orderWithLines: orderAndLines(SortKeyCondition.EQUALS),
    linesWithOrder: { entities: ['Line', 'Order'], sortKeyCondition: SortKeyCondition.BEGINS_WITH },
    orderChildren: { entities: ['Line', 'Shipment'], sortKeyCondition: SortKeyCondition.EQUALS },
    ordersBetween: orderAndLines(SortKeyCondition.BETWEEN),
    ordersAfter: orderAndLines(SortKeyCondition.GREATER_THAN),
    ordersFrom: orderAndLines(SortKeyCondition.GREATER_THAN_OR_EQUAL),
    ordersBefore: orderAndLines(SortKeyCondition.LESS_THAN),
    ordersUpTo: orderAndLines(SortKeyCondition.LESS_THAN_OR_EQUAL),
    customerAndOrders: { entities: ['Customer', 'Order'] },
  },
});
type Db = ReturnType<typeof createClient<typeof manifest>>;

let engine: Engine;
let db: Db;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

type Stored = { entity: 'Customer' | 'Order' | 'Line' | 'Shipment' | 'Payment'; item: Record<string, unknown> };

/** A customer's partition: orders (ids that are prefixes of one another), their lines and shipments, payments. */
async function seed(user: string, orders: { id: string; lines: number[]; shipped: boolean }[]): Promise<Stored[]> {
  const stored: Stored[] = [{ entity: 'Customer', item: { username: user, name: 'Ann' } }, { entity: 'Payment', item: { username: user, paymentId: 'p1' } }];
  for (const o of orders) {
    stored.push({ entity: 'Order', item: { username: user, orderId: o.id, total: o.lines.length } });
    for (const lineNo of o.lines) stored.push({ entity: 'Line', item: { username: user, orderId: o.id, lineNo, sku: `s${lineNo}` } });
    if (o.shipped) stored.push({ entity: 'Shipment', item: { username: user, orderId: o.id, shippedAt: '2024-05-01T00:00:00.000Z' } });
  }
  await db.batchWrite(stored.map((s) => ({ type: 'put' as const, entity: s.entity, item: s.item as never })));
  return stored;
}

/** Key order inside an order's group: the order, then its lines by number, then its shipments. */
const RANK = { Order: 0, Line: 1, Shipment: 2 } as Record<string, number>;
function inKeyOrder(items: Stored[]): Stored[] {
  return [...items].sort((a, b) => {
    const ida = a.item.orderId as string;
    const idb = b.item.orderId as string;
    if (ida !== idb) return ida < idb ? -1 : 1;
    return RANK[a.entity] - RANK[b.entity] || (a.item.lineNo as number ?? 0) - (b.item.lineNo as number ?? 0);
  });
}

const run = (pattern: Parameters<Db['query']>[0], input: object) => allPages((cursor) => db.query(pattern, input as never, { cursor, limit: 3 })).then((r) => r.items);

test('a parent and its children come back from one query, in key order, whichever entity the pattern names first', async () => {
  // The condition was built from the first entity's whole key: `SK = ORDER#a` left the lines out,
  // and with the lines named first `begins_with(SK, ORDER#a#)` left the order out.
  const stored = await seed('ann', [{ id: 'a', lines: [2, 10], shipped: true }, { id: 'ab', lines: [1], shipped: false }]);
  const expected = inKeyOrder(stored.filter((s) => (s.entity === 'Order' || s.entity === 'Line') && s.item.orderId === 'a'));
  expect(expected.map((s) => s.entity)).toEqual(['Order', 'Line', 'Line']);
  expect(await run('orderWithLines', { username: 'ann', orderId: 'a' })).toEqual(expected);
  expect(await run('linesWithOrder', { username: 'ann', orderId: 'a' })).toEqual(expected);
  // Only children: both continue past ORDER#a, so the query asks for the keys under ORDER#a#.
  const children = stored.filter((s) => (s.entity === 'Line' || s.entity === 'Shipment') && s.item.orderId === 'a');
  expect(await run('orderChildren', { username: 'ann', orderId: 'a' })).toEqual(inKeyOrder(children));
  // Entities that share no prefix, with no sort-key condition: the whole partition, filtered by type.
  expect((await run('customerAndOrders', { username: 'ann' })).map((r) => r.entity)).toEqual(['Customer', 'Order', 'Order']);
});

test('the docs report shows the condition the runtime sends', async () => {
  const model = compileManifest(manifest).model;
  const sent: Record<string, unknown>[] = [];
  const client = engine.newClient();
  client.middlewareStack.add((next) => async (args) => {
    sent.push(args.input as Record<string, unknown>);
    return next(args);
  }, { step: 'initialize' });
  const traced = createClient({ model: compileModelFile(manifest), client, tableName: db.table.tableName });
  const cases: [Parameters<Db['query']>[0], string, string, Record<string, string>][] = [
    ['orderWithLines', 'PK = CUSTOMER#{username} AND SK BETWEEN ORDER#{orderId} AND ORDER#{orderId}$', '#sk BETWEEN :lo AND :hi', { ':lo': 'ORDER#a', ':hi': 'ORDER#a$' }],
    ['orderChildren', 'PK = CUSTOMER#{username} AND begins_with(SK, ORDER#{orderId}#)', 'begins_with(#sk, :lo)', { ':lo': 'ORDER#a#' }],
  ];
  for (const [pattern, report, expression, values] of cases) {
    expect(keyCondition(model, model.patterns[pattern], model.indexes.table)).toBe(report);
    await traced.query(pattern, { username: 'ann', orderId: 'a' } as never);
    const input = sent.pop() as { KeyConditionExpression: string; ExpressionAttributeValues: Record<string, { S: string }> };
    expect(input.KeyConditionExpression).toBe(`#pk = :pk AND ${expression}`);
    for (const [name, value] of Object.entries(values)) expect(input.ExpressionAttributeValues[name].S).toBe(value);
  }
});

test('every condition on a collection selects whole orders with their lines: never a parent without its children or the reverse', async () => {
  const id = fc.stringMatching(/^[ab]{1,3}$/);
  const order = fc.record({ id, lines: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 2 }), shipped: fc.boolean() });
  let runs = 0;
  await fc.assert(fc.asyncProperty(fc.uniqueArray(order, { minLength: 1, maxLength: 5, selector: (o) => o.id }), id, id, async (orders, x, y) => {
    const user = `u${runs++}`;
    const stored = await seed(user, orders);
    const family = (keep: (orderId: string) => boolean) =>
      inKeyOrder(stored.filter((s) => (s.entity === 'Order' || s.entity === 'Line') && keep(s.item.orderId as string)));
    const [lo, hi] = x <= y ? [x, y] : [y, x];
    expect(await run('orderWithLines', { username: user, orderId: x })).toEqual(family((o) => o === x));
    expect(await run('linesWithOrder', { username: user })).toEqual(family(() => true));
    expect(await run('ordersBetween', { username: user, between: [{ orderId: lo }, { orderId: hi }] })).toEqual(family((o) => o >= lo && o <= hi));
    expect(await run('ordersAfter', { username: user, orderId: x })).toEqual(family((o) => o > x));
    expect(await run('ordersFrom', { username: user, orderId: x })).toEqual(family((o) => o >= x));
    expect(await run('ordersBefore', { username: user, orderId: x })).toEqual(family((o) => o < x));
    expect(await run('ordersUpTo', { username: user, orderId: x })).toEqual(family((o) => o <= x));
  }), { numRuns: propertyRuns(25) });
});
