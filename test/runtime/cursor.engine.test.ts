// Cursors: pages concatenate to the whole result; a cursor from another pattern, from other input
// or order, or altered, is rejected before any network call.
import { manifest } from '../../examples/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { allPages, countRequests } from '../support/requests';

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let cursor: string;

beforeAll(async () => {
  engine = await startEngine();
  db = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName: await engine.createTable() });
  await db.batchWrite(Array.from({ length: 7 }, (_, i) => ({
    type: 'put' as const,
    entity: 'Order' as const,
    item: { username: 'alice', orderId: `o${i}`, status: 'OPEN', createdAt: `2024-01-0${i + 1}T00:00:00Z`, amount: i },
  })));
  cursor = (await db.query('ordersForCustomer', { username: 'alice' }, { limit: 2 })).cursor!;
});
afterAll(() => engine.stop());

test('pages of any size concatenate to the unpaged result', async () => {
  const all = (await db.query('ordersForCustomer', { username: 'alice' })).items;
  expect(all).toHaveLength(7);
  for (const limit of [1, 2, 3, 7, 8]) {
    const paged = await allPages((c) => db.query('ordersForCustomer', { username: 'alice' }, { limit, cursor: c }));
    expect(paged.items).toEqual(all);
  }
});

describe('rejected before any network call', () => {
  let requests: ReturnType<typeof countRequests>;
  beforeAll(() => {
    requests = countRequests(db.table.dynamodb);
  });
  afterEach(() => expect(requests.total()).toBe(0));

  test('a cursor of another pattern names the pattern it belongs to', async () => {
    await expect(db.query('groupsForCustomer', { username: 'alice' }, { cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR', pattern: 'groupsForCustomer' });
    await expect(db.query('groupsForCustomer', { username: 'alice' }, { cursor })).rejects.toThrow(/belongs to pattern 'ordersForCustomer'/);
  });

  test('a cursor used with other input or order', async () => {
    await expect(db.query('ordersForCustomer', { username: 'bob' }, { cursor })).rejects.toThrow(/issued for other input or order/);
    await expect(db.query('ordersForCustomer', { username: 'alice' }, { cursor, order: 'desc' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  test('an altered cursor', async () => {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...body, k: { ...body.k, SK: { S: 'ORDER#o5' } } })).toString('base64url');
    await expect(db.query('ordersForCustomer', { username: 'alice' }, { cursor: altered })).rejects.toThrow(/altered/);
    await expect(db.query('ordersForCustomer', { username: 'alice' }, { cursor: cursor.slice(0, -3) })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(db.query('ordersForCustomer', { username: 'alice' }, { cursor: '%%%' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });
});

test('a sharded query cursor resumes every shard and is bound to its pattern too', async () => {
  const page = await db.query('ordersByStatus', { status: 'OPEN', between: [{}, {}] }, { limit: 3 });
  expect(page.items.map((r) => r.item.orderId)).toEqual(['o6', 'o5', 'o4']);
  const next = await db.query('ordersByStatus', { status: 'OPEN', between: [{}, {}] }, { limit: 3, cursor: page.cursor });
  expect(next.items.map((r) => r.item.orderId)).toEqual(['o3', 'o2', 'o1']);
  await expect(db.query('ordersForCustomer', { username: 'alice' }, { cursor: page.cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
});
