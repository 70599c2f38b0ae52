// The per-operation runtime on the example table: a context opened from the compiled model file
// (examples/manifest.model.json, as the example handler opens it), each operation imported on its
// own, against the embedded engine.
import type { manifest } from '../../examples/manifest';
import model from '../../examples/manifest.model.json';
import { FINGERPRINT_ENV } from '../../lib/model/environment';
import { batchGet, batchWrite, deleteItem, getItem, openTable, putItem, query, Table, updateItem } from '../../lib/runtime';
import { Engine, startEngine } from '../support/engine';

let engine: Engine;
let table: Table<typeof manifest>;
let requests = 0;

beforeAll(async () => {
  engine = await startEngine();
  const client = engine.newClient();
  client.middlewareStack.add((next) => (args) => (requests++, next(args)), { step: 'initialize', name: 'countRequests' });
  table = openTable<typeof manifest>({ model: model, client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

const order = (orderId: string, createdAt: string, amount: number) =>
  ({ username: 'ana', orderId, status: 'OPEN', createdAt, amount });

test('put, get, update and delete an item', async () => {
  await putItem(table, 'Order', order('o1', '2024-05-01T10:00:00.000Z', 30));
  expect(await getItem(table, 'Order', { username: 'ana', orderId: 'o1' })).toEqual(order('o1', '2024-05-01T10:00:00.000Z', 30));
  const updated = await updateItem(table, 'Order', { username: 'ana', orderId: 'o1', trackingNumber: 'T-1' });
  expect(updated.trackingNumber).toBe('T-1');
  await expect(putItem(table, 'Order', order('o1', '2024-05-01T10:00:00.000Z', 30), { mode: 'create' })).rejects.toMatchObject({ code: 'CONDITION_FAILED', entity: 'Order' });
  expect(await deleteItem(table, 'Order', { username: 'ana', orderId: 'o1' })).toMatchObject({ orderId: 'o1', trackingNumber: 'T-1' });
  expect(await getItem(table, 'Order', { username: 'ana', orderId: 'o1' })).toBeUndefined();
});

test('query reads one partition, and a pattern on the sharded GSI2 over every shard, merged in order', async () => {
  await batchWrite(table, [
    { type: 'put', entity: 'Order', item: order('o2', '2024-05-02T10:00:00.000Z', 20) },
    { type: 'put', entity: 'Order', item: order('o3', '2024-05-03T10:00:00.000Z', 10) },
  ]);
  const mine = await query(table, 'ordersForCustomer', { username: 'ana' });
  expect(mine.items.map((r) => r.item.orderId)).toEqual(['o2', 'o3']);
  const before = requests;
  const open = await query(table, 'ordersByStatus', { status: 'OPEN', between: [{}, {}] });
  expect(open.items.map((r) => r.item.orderId)).toEqual(['o3', 'o2']);
  // One query per shard the input can be on.
  expect(requests - before).toBe(model.model.indexes.GSI2.shards!.readCount);
});

test('a pattern on a KEYS_ONLY GSI fetches the full items, and batchGet reads in request order', async () => {
  await putItem(table, 'Task', { taskId: 't1', name: 'reindex', running: true, startedAt: '2024-05-01T00:00:00.000Z' });
  const running = await query(table, 'runningTasks', { running: true });
  expect(running.items).toEqual([{ entity: 'Task', item: { taskId: 't1', name: 'reindex', running: true, startedAt: '2024-05-01T00:00:00.000Z' } }]);
  const found = await batchGet(table, [{ entity: 'Order', key: { username: 'ana', orderId: 'o3' } }, { entity: 'Task', key: { taskId: 'nope' } }, { entity: 'Task', key: { taskId: 't1' } }]);
  expect(found.map((r) => r?.entity)).toEqual(['Order', undefined, 'Task']);
});

test('openTable takes only a compiled model file of its format version, deployed from the same manifest', () => {
  const options = { client: engine.client, tableName: 'any' };
  expect(() => openTable({ ...options, model: { entities: {} } as never })).toThrow(/\[INVALID_MODEL\] expected a compiled model file .*single-table generate/);
  expect(() => openTable({ ...options, model: { ...model, formatVersion: 99 } })).toThrow(/\[INVALID_MODEL\] the compiled model file has format version 99; this runtime reads version 4/);
  const saved = process.env[FINGERPRINT_ENV];
  process.env[FINGERPRINT_ENV] = '0123456789abcdef';
  try {
    expect(() => openTable({ ...options, model })).toThrow(/\[MANIFEST_MISMATCH\]/);
  } finally {
    if (saved === undefined) delete process.env[FINGERPRINT_ENV];
    else process.env[FINGERPRINT_ENV] = saved;
  }
});
