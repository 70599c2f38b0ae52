// Every access pattern of the example manifest, end to end on the embedded engine, on the table created
// from the construct's synthesized template. Expected results come from an in-memory oracle
// over the same data, so infrastructure, keys and queries are proven to agree.
import { manifest } from '../../examples/manifest';
import { createClient, ItemOf, PatternName } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { allPages, countRequests } from '../support/requests';

type M = typeof manifest;
type Order = ItemOf<M, 'Order'>;

const usernames = ['alice', 'bob', 'Ann Lee', 'a#b'];
const customers: ItemOf<M, 'Customer'>[] = usernames.map((username, i) => ({
  username,
  email: `${username.replace(/\W/g, '')}${i}@example.com`,
  name: username.toUpperCase(),
  createdAt: `2023-0${i + 1}-01T00:00:00Z`,
}));
const amounts = [99.99, 100, 5, -1.5, 1000, 0, 12.25];
const orders: Order[] = usernames.flatMap((username, u) => amounts.map((amount, i) => ({
  username,
  orderId: `o${u}-${i}`,
  status: i % 3 === 0 ? 'SHIPPED' : 'OPEN',
  createdAt: new Date(Date.UTC(2024, 0, 1 + i * 3, u)).toISOString(),
  amount,
  ...(i % 2 ? { trackingNumber: `T${u}${i}` } : {}),
  lines: [{ sku: `s${i}`, qty: i + 1 }],
})));
const products: ItemOf<M, 'Product'>[] = [9.5, 10, 100, 99.99, 0, 250, 10.5].map((price, i) => ({
  productId: `p${i}`, category: i % 2 ? 'games' : 'books', price, name: `Product ${i}`,
}));
const groups: ItemOf<M, 'Group'>[] = [{ groupId: 'g1', name: 'Readers' }, { groupId: 'g2', name: 'Gamers' }];
const memberships: ItemOf<M, 'Membership'>[] = [
  { username: 'alice', groupId: 'g1', joinedAt: '2024-02-01T00:00:00Z' },
  { username: 'alice', groupId: 'g2', joinedAt: '2024-02-02T00:00:00Z' },
  { username: 'bob', groupId: 'g1', joinedAt: '2024-02-03T00:00:00Z' },
];
const tasks: ItemOf<M, 'Task'>[] = [
  { taskId: 't1', name: 'index', running: true, startedAt: '2024-03-02T00:00:00Z' },
  { taskId: 't2', name: 'export', running: false, startedAt: '2024-03-01T00:00:00Z' },
  { taskId: 't3', name: 'import', running: true, startedAt: '2024-03-01T00:00:00Z' },
  { taskId: 't4', name: 'idle' },
];

/** What the runtime returns for a stored value: dates as ISO UTC strings. */
const stored = <T extends Record<string, unknown>>(item: T) =>
  Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v).toISOString() : v]));
const tagged = (entity: string) => (item: Record<string, unknown>) => ({ entity, item: stored(item) });
const byString = (f: (x: any) => string) => (a: any, b: any) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0);

let engine: Engine;
let db: ReturnType<typeof createClient<M>>;
const exercised = new Set<string>();

beforeAll(async () => {
  engine = await startEngine();
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
  await db.batchWrite([
    ...customers.map((item) => ({ type: 'put' as const, entity: 'Customer' as const, item })),
    ...orders.map((item) => ({ type: 'put' as const, entity: 'Order' as const, item })),
    ...products.map((item) => ({ type: 'put' as const, entity: 'Product' as const, item })),
    ...groups.map((item) => ({ type: 'put' as const, entity: 'Group' as const, item })),
    ...memberships.map((item) => ({ type: 'put' as const, entity: 'Membership' as const, item })),
  ]);
  for (const task of tasks) await db.putItem('Task', task);
});
afterAll(() => engine.stop());

async function run<P extends PatternName<M>>(pattern: P, input: Parameters<typeof db.query<P>>[1], options: Parameters<typeof db.query<P>>[2] = {}) {
  exercised.add(pattern);
  return (await allPages((cursor) => db.query(pattern, input, { ...options, cursor } as typeof options))).items;
}

test('ordersForCustomer: begins_with ORDER# in the customer partition; a complete prefix is one order', async () => {
  for (const username of usernames) {
    const expected = orders.filter((o) => o.username === username).sort(byString((o) => o.orderId)).map(tagged('Order'));
    expect(await run('ordersForCustomer', { username })).toEqual(expected);
    expect(await run('ordersForCustomer', { username, orderId: expected[2].item.orderId as string })).toEqual([expected[2]]);
  }
});

test('customerWithOrders: the item collection comes back typed, without the memberships in the same partition', async () => {
  const items = await run('customerWithOrders', { username: 'alice' });
  const expected = [
    tagged('Customer')(customers[0]),
    ...orders.filter((o) => o.username === 'alice').map(tagged('Order')),
  ];
  expect(items).toHaveLength(expected.length);
  expect(items).toEqual(expect.arrayContaining(expected));
});

test('orderById: GSI1 equality', async () => {
  for (const order of [orders[0], orders[17]]) {
    expect(await run('orderById', { orderId: order.orderId })).toEqual([tagged('Order')(order)]);
  }
});

test('ordersByStatus: sharded GSI2, date range, newest first, same result at any page size', async () => {
  const [lo, hi] = ['2024-01-04T00:00:00Z', '2024-01-16T02:00:00Z'];
  const expected = orders
    .filter((o) => o.status === 'OPEN' && o.createdAt >= new Date(lo).toISOString() && o.createdAt <= new Date(hi).toISOString())
    .sort(byString((o) => o.createdAt)).reverse()
    .map(({ trackingNumber, lines, ...projected }) => tagged('Order')(projected));
  expect(expected.length).toBeGreaterThan(4);
  const input = { status: 'OPEN', between: [{ createdAt: lo }, { createdAt: hi }] } as const;
  expect(await run('ordersByStatus', input)).toEqual(expected);
  expect(await run('ordersByStatus', input, { limit: 2 })).toEqual(expected);
  expect(await run('ordersByStatus', input, { order: 'asc', limit: 3 })).toEqual([...expected].reverse());
});

test('customerByEmail: GSI1 lookup', async () => {
  for (const customer of customers) {
    expect(await run('customerByEmail', { email: customer.email })).toEqual([tagged('Customer')(customer)]);
  }
});

test('productsByCategory: price range sorts numerically (99.99 before 100), cheapest first', async () => {
  for (const category of ['books', 'games']) {
    const expected = products.filter((p) => p.category === category && p.price >= 10 && p.price <= 100)
      .sort((a, b) => a.price - b.price).map(tagged('Product'));
    expect(await run('productsByCategory', { category, between: [{ price: 10 }, { price: 100 }] })).toEqual(expected);
  }
  const all = products.filter((p) => p.category === 'books').sort((a, b) => a.price - b.price).map(tagged('Product'));
  expect(await run('productsByCategory', { category: 'books', between: [{}, {}] })).toEqual(all);
});

test('groupsForCustomer and membersOfGroup: the adjacency list both ways', async () => {
  expect(await run('groupsForCustomer', { username: 'alice' })).toEqual(memberships.filter((m) => m.username === 'alice').map(tagged('Membership')));
  const members = await run('membersOfGroup', { groupId: 'g1' });
  expect(members).toEqual([
    ...memberships.filter((m) => m.groupId === 'g1').sort(byString((m) => m.username)).map(tagged('Membership')),
    tagged('Group')(groups[0]),
  ].sort(byString((r) => (r.entity === 'Group' ? 'GROUP#g1' : `CUSTOMER#${r.item.username}`))));
});

test('runningTasks: sparse KEYS_ONLY index, hydrated with BatchGetItem in index order', async () => {
  const requests = countRequests(db.table.dynamodb);
  const expected = tasks.filter((t) => t.running).sort(byString((t) => String(t.startedAt))).map(tagged('Task'));
  expect(await run('runningTasks', { running: true })).toEqual(expected);
  expect(requests.of('BatchGetItemCommand')).toBe(1);
});

test('ordersForCustomerByDate: LSI1, strongly consistent, newest first', async () => {
  const expected = orders.filter((o) => o.username === 'bob' && o.createdAt >= '2024-01-05' && o.createdAt < '2024-01-15')
    .sort(byString((o) => o.createdAt)).reverse().map(tagged('Order'));
  expect(expected.length).toBeGreaterThan(1);
  expect(await run('ordersForCustomerByDate', { username: 'bob', between: [{ createdAt: '2024-01-05' }, { createdAt: '2024-01-14T23:59:59Z' }] }, { limit: 1 }))
    .toEqual(expected);
});

test('ordersForCustomerByAmount: KEYS_ONLY LSI2, DynamoDB fetches the attributes; amounts sort numerically, negatives too', async () => {
  const requests = countRequests(db.table.dynamodb);
  for (const from of [50, 0, -1.5, -100]) {
    const expected = orders.filter((o) => o.username === 'Ann Lee' && o.amount >= from).sort((a, b) => b.amount - a.amount).map(tagged('Order'));
    expect(await run('ordersForCustomerByAmount', { username: 'Ann Lee', amount: from })).toEqual(expected);
  }
  expect(requests.of('BatchGetItemCommand')).toBe(0);
});

test('every access pattern of the example manifest ran', () => {
  expect([...exercised].sort()).toEqual(Object.keys(manifest.accessPatterns!).sort());
});
