// Single-item operations on the embedded engine: keys exactly as the templates say (checked on the raw
// stored item), put modes, consistent gets, updates that move or drop index keys, deletes.
import { AttributeValue, GetItemCommand, GetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { createClient, SingleTableError } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { countRequests } from '../support/requests';

type M = typeof manifest;
const model = compileManifest(manifest).model;

let engine: Engine;
let db: ReturnType<typeof createClient<M>>;
let tableName: string;

beforeAll(async () => {
  engine = await startEngine();
  tableName = await engine.createTable();
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
});
afterAll(() => engine.stop());

async function raw(pk: string, sk: string): Promise<Record<string, string | undefined> | undefined> {
  const out: GetItemCommandOutput = await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: pk }, SK: { S: sk } } }));
  const text = (v: AttributeValue) => v.S ?? v.N ?? (v.BOOL === undefined ? undefined : String(v.BOOL));
  return out.Item && Object.fromEntries(Object.entries(out.Item).map(([k, v]) => [k, text(v)]));
}

const order = { username: 'Ann Lee', orderId: 'o#1', status: 'OPEN', createdAt: '2024-01-02T03:04:05+02:00', amount: 99.99 };

test('put writes every key exactly as the templates and the key encoding (docs/keys.md) say, and the type attribute', async () => {
  await db.putItem('Order', order);
  const pk = 'CUSTOMER#Ann$aLee';
  const sk = 'ORDER#o$d1';
  // The shard of this item's table key among GSI2's 3 (pinned in test/fixtures/format-vectors.json).
  expect(model.indexes.GSI2.shards!.writeCount).toBe(3);
  expect(await raw(pk, sk)).toEqual({
    PK: pk,
    SK: sk,
    Type: 'Order',
    GSI1PK: 'ORDER#o$d1',
    GSI1SK: 'ORDER#o$d1',
    GSI2PK: 'ORDER#OPEN#0',
    GSI2SK: '2024-01-02T01:04:05.000Z',
    LSI1SK: 'ORDERED#2024-01-02T01:04:05.000Z',
    LSI2SK: 'AMOUNT#P5019999',
    username: 'Ann Lee',
    orderId: 'o#1',
    status: 'OPEN',
    createdAt: '2024-01-02T01:04:05.000Z',
    amount: '99.99',
  });
  expect(await db.getItem('Order', { username: 'Ann Lee', orderId: 'o#1' })).toEqual({ ...order, createdAt: '2024-01-02T01:04:05.000Z' });
});

test('put modes: create refuses an existing item, replace refuses a missing one', async () => {
  const customer = { username: 'carol', email: 'c@example.com', name: 'Carol', createdAt: new Date('2024-05-01') };
  await db.putItem('Customer', customer, { mode: 'create' });
  await expect(db.putItem('Customer', customer, { mode: 'create' })).rejects.toMatchObject({ code: 'CONDITION_FAILED', entity: 'Customer' });
  await db.putItem('Customer', { ...customer, name: 'Carol B' }, { mode: 'replace' });
  expect((await db.getItem('Customer', { username: 'carol' }, { consistent: true }))?.name).toBe('Carol B');
  await expect(db.putItem('Customer', { ...customer, username: 'nobody' }, { mode: 'replace' })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
  expect(await db.getItem('Customer', { username: 'nobody' })).toBeUndefined();
});

test('get asks for a strongly consistent read only when told to', async () => {
  const sent: unknown[] = [];
  const client = engine.newClient();
  client.middlewareStack.add((next) => async (args) => {
    sent.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
    return next(args);
  }, { step: 'initialize' });
  const other = createClient({ model: compileModelFile(manifest), client, tableName });
  await other.getItem('Order', { username: 'Ann Lee', orderId: 'o#1' }, { consistent: true });
  await other.getItem('Order', { username: 'Ann Lee', orderId: 'o#1' });
  expect(sent).toEqual([true, false]);
});

test('update recomputes the index keys of changed inputs; a status change moves the order to the new status partition', async () => {
  await db.putItem('Order', { ...order, orderId: 'o2' });
  const updated = await db.updateItem('Order', { username: 'Ann Lee', orderId: 'o2', status: 'SHIPPED', createdAt: '2024-02-01T00:00:00Z', trackingNumber: 'T9' });
  expect(updated).toMatchObject({ status: 'SHIPPED', createdAt: '2024-02-01T00:00:00.000Z', trackingNumber: 'T9', amount: 99.99 });
  const item = await raw('CUSTOMER#Ann$aLee', 'ORDER#o2');
  expect(item?.GSI2PK).toMatch(/^ORDER#SHIPPED#\d+$/);
  expect(item?.GSI2SK).toBe('2024-02-01T00:00:00.000Z');
  expect(item?.LSI1SK).toBe('ORDERED#2024-02-01T00:00:00.000Z');
  const shipped = await db.query('ordersByStatus', { status: 'SHIPPED', between: [{}, {}] });
  expect(shipped.items.map((r) => r.item.orderId)).toEqual(['o2']);
  const open = await db.query('ordersByStatus', { status: 'OPEN', between: [{}, {}] });
  expect(open.items.map((r) => r.item.orderId)).not.toContain('o2');
});

test('update of some but not all inputs of an index fails before any network call, naming what is missing', async () => {
  const requests = countRequests(db.table.dynamodb);
  const attempt = db.updateItem('Order', { username: 'Ann Lee', orderId: 'o2', status: 'OPEN' });
  await expect(attempt).rejects.toMatchObject({ code: 'PARTIAL_INDEX_UPDATE', entity: 'Order', attribute: 'createdAt' });
  await expect(attempt).rejects.toThrow(/GSI2.*pass createdAt too.*putItem\(\.\.\., \{ mode: 'replace' \}\)/);
  expect(requests.total()).toBe(0);
});

test('sparse index: a task that stops running leaves the sparse index, and comes back when it runs again', async () => {
  const running = () => db.query('runningTasks', { running: true }).then((p) => p.items.map((r) => r.item.taskId));
  await db.putItem('Task', { taskId: 'job', name: 'Job', running: true, startedAt: '2024-03-01T00:00:00Z' });
  expect(await running()).toEqual(['job']);
  await db.updateItem('Task', { taskId: 'job', running: false });
  expect(await running()).toEqual([]);
  const item = await raw('TASK#job', 'TASK#job');
  expect(item).not.toHaveProperty('GSI3PK');
  expect(item).not.toHaveProperty('GSI3SK');
  await db.updateItem('Task', { taskId: 'job', running: true, startedAt: '2024-03-02T00:00:00Z' });
  expect(await running()).toEqual(['job']);
  await db.updateItem('Task', { taskId: 'job' }, { remove: ['startedAt'] });
  expect(await running()).toEqual([]);
  expect(await db.getItem('Task', { taskId: 'job' })).toEqual({ taskId: 'job', name: 'Job', running: true });
});

test('update of a missing item and delete with mustExist fail with CONDITION_FAILED; delete returns the old item', async () => {
  await expect(db.updateItem('Task', { taskId: 'ghost', name: 'x' })).rejects.toMatchObject({ code: 'CONDITION_FAILED', entity: 'Task' });
  await db.putItem('Task', { taskId: 'gone', name: 'Gone' });
  expect(await db.deleteItem('Task', { taskId: 'gone' })).toEqual({ taskId: 'gone', name: 'Gone' });
  expect(await db.getItem('Task', { taskId: 'gone' })).toBeUndefined();
  await expect(db.deleteItem('Task', { taskId: 'gone' }, { mustExist: true })).rejects.toBeInstanceOf(SingleTableError);
});

test('every kind round-trips: lists, maps, sets, booleans, dates', async () => {
  await db.putItem('Order', { ...order, orderId: 'kinds', lines: [{ sku: 'a', qty: 1, tags: new Set(['x']) }, 'note', null, true] });
  expect((await db.getItem('Order', { username: 'Ann Lee', orderId: 'kinds' }))?.lines).toEqual([{ sku: 'a', qty: 1, tags: new Set(['x']) }, 'note', null, true]);
});

test('values a map cannot hold are refused before sending, never stored as something else', async () => {
  const client = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName });
  const requests = countRequests(client.table.dynamodb);
  const put = (lines: unknown[]) => client.putItem('Order', { ...order, orderId: 'lossy', lines });
  // A JSON body's "__proto__" key became the map's prototype: the write failed inside DynamoDB, or
  // lost the key (the SDK cannot send such a key either).
  await expect(put([JSON.parse('{"__proto__": {"admin": true}, "sku": "a"}')])).rejects.toMatchObject({ code: 'INVALID_VALUE', attribute: 'lines' });
  // A Map has no enumerable properties: it was stored as an empty map, its entries silently dropped.
  await expect(put([new Map([['sku', 'a']])])).rejects.toMatchObject({ code: 'INVALID_VALUE', attribute: 'lines' });
  await expect(put([{ nested: [new Map([['sku', 'a']])] }])).rejects.toMatchObject({ code: 'INVALID_VALUE', attribute: 'lines' });
  expect(requests.total()).toBe(0);
  expect(await client.getItem('Order', { username: order.username, orderId: 'lossy' })).toBeUndefined();
  // Plain objects, null-prototype objects and class instances keep their own properties.
  class Line { constructor(readonly sku: string, readonly qty: number) {} }
  const bare = Object.assign(Object.create(null), { sku: 'c' });
  await put([new Line('a', 2), bare, { constructor: 'x', toString: 'y' }]);
  expect((await client.getItem('Order', { username: order.username, orderId: 'lossy' }))?.lines).toEqual<unknown[]>([{ sku: 'a', qty: 2 }, { sku: 'c' }, { constructor: 'x', toString: 'y' }]);
});

test('integers beyond 2^53 in a list come back exact, and ones DynamoDB cannot store are refused before sending', async () => {
  const client = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName });
  const requests = countRequests(client.table.dynamodb);
  const big = [2n ** 64n + 1n, -(2n ** 70n) - 3n, 10n ** 37n * 9n + 7n, 123n, 2 ** 60, 1e21, 12345678901234567000, 0.5];
  await client.putItem('Order', { ...order, orderId: 'big', lines: big });
  // Read back as numbers they were 2^64 and -2^70: the last digits silently gone.
  expect((await client.getItem('Order', { username: order.username, orderId: 'big' }))?.lines).toEqual([...big.slice(0, 3), 123, ...big.slice(4)]);
  const sent = requests.total();
  // DynamoDB keeps 38 significant digits and magnitudes below 1e126; beyond, it answers with a ValidationException.
  for (const n of [10n ** 38n + 1n, -(10n ** 126n)]) {
    await expect(client.putItem('Order', { ...order, orderId: 'huge', lines: [n] })).rejects.toMatchObject({ code: 'INVALID_VALUE', attribute: 'lines' });
  }
  expect(requests.total()).toBe(sent);
  await client.putItem('Order', { ...order, orderId: 'huge', lines: [10n ** 125n * 9n, 10n ** 38n - 1n] });
});
