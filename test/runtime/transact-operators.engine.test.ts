// Update operators inside transactions on DynamoDB Local: an update action takes add, append,
// prepend, deleteFromSet and setIfMissing as updateItem does, with the same refusals before
// sending, and refuses an operator on a unique attribute (its guard cannot be known).
import { transactWrite } from '../../lib/runtime';
import { uniqueManifest as manifest } from '../fixtures/unique-manifest';
import { clientTables } from '../support/client-tables';
import { countRequests } from '../support/requests';

const joinedAt = '2024-05-01T00:00:00.000Z';
const { engine, fresh } = clientTables(manifest);

test('add and setIfMissing apply inside a transaction with the other actions', async () => {
  const { db, table } = await fresh();
  await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
  await db.putItem('Order', { username: 'ann', orderId: 'o1', total: 10 });
  await transactWrite(table, [
    { type: 'update', entity: 'Order', changes: { username: 'ann', orderId: 'o1' }, add: { total: 5 } },
    { type: 'update', entity: 'Customer', changes: { username: 'ann' }, setIfMissing: { name: 'Ann' } },
  ]);
  await transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'ann' }, setIfMissing: { name: 'Other' } }]);
  expect(await db.getItem('Order', { username: 'ann', orderId: 'o1' })).toMatchObject({ total: 15 });
  expect(await db.getItem('Customer', { username: 'ann' })).toMatchObject({ name: 'Ann', email: 'a@x' });
});

test('the refusals of updateItem, before any request: table key, index key input, unique attribute, wrong kind', async () => {
  const { table } = await fresh();
  const requests = countRequests(engine().client);
  const before = requests.total();
  await expect(transactWrite(table, [{ type: 'update', entity: 'Order', changes: { username: 'ann', orderId: 'o1' }, setIfMissing: { orderId: 'o2' } } as never]))
    .rejects.toMatchObject({ code: 'INVALID_VALUE', entity: 'Order', attribute: 'orderId', message: expect.stringContaining('part of the table key') });
  await expect(transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'ann' }, setIfMissing: { tier: 'gold' } }]))
    .rejects.toMatchObject({ code: 'PARTIAL_INDEX_UPDATE', attribute: 'tier', message: expect.stringContaining("index GSI1's key") });
  await expect(transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'ann' }, setIfMissing: { email: 'e@x' } }]))
    .rejects.toMatchObject({ code: 'INVALID_VALUE', entity: 'Customer', attribute: 'email', message: expect.stringContaining('action 0: setIfMissing on the unique attribute email') });
  await expect(transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'ann' }, add: { name: 1 } } as never]))
    .rejects.toMatchObject({ code: 'INVALID_VALUE', attribute: 'name', message: expect.stringContaining('add applies to NUMBER') });
  expect(requests.total()).toBe(before);
});

test('createClient\'s update of a unique value keeps the operators of the same call', async () => {
  const { db } = await fresh();
  await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
  expect(await db.updateItem('Customer', { username: 'ann', email: 'b@x' }, { setIfMissing: { name: 'Ann' } })).toMatchObject({ email: 'b@x', name: 'Ann' });
});
