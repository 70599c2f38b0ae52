// An entity with a version and a unique attribute: its writes go as transactions with their guard
// writes, and still condition on the version the caller read, failing with VERSION_CONFLICT as the
// single-item writes do (the error holds the expected and stored versions and the stored item).
import { AttributeKind, defineManifest, transactWrite } from '../../lib/runtime';
import { clientTables } from '../support/client-tables';

const manifest = defineManifest({
  entities: {
    Account: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        email: { type: AttributeKind.STRING },
        name: { type: AttributeKind.STRING },
      },
      pk: 'ACCOUNT#{id}',
      sk: 'ACCOUNT',
      version: {},
      unique: ['email'],
    },
  },
  localIndexes: { enabled: false },
});
const { fresh } = clientTables(manifest);

test('a delete at another version fails with VERSION_CONFLICT and keeps the item and its guard', async () => {
  const { db } = await fresh();
  await db.putItem('Account', { id: 'a1', email: 'a@x' }, { mode: 'create' });
  await db.updateItem('Account', { id: 'a1', version: 1, name: 'Ann' });
  const error = await db.deleteItem('Account', { id: 'a1' }, { version: 1 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'VERSION_CONFLICT', entity: 'Account', expectedVersion: 1, storedVersion: 2, item: expect.objectContaining({ email: 'a@x' }) });
  expect((error as Error).message).toContain('the write expected version 1; the item is at version 2; read it and retry with version 2');
  // The value is still held: the guard stayed with the item.
  await expect(db.putItem('Account', { id: 'a2', email: 'a@x' }, { mode: 'create' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
  expect(await db.deleteItem('Account', { id: 'a1' }, { version: 2 })).toMatchObject({ version: 2, email: 'a@x' });
  await db.putItem('Account', { id: 'a2', email: 'a@x' }, { mode: 'create' });
});

test('a delete of a versioned entity without a version deletes it at any version', async () => {
  const { db } = await fresh();
  await db.putItem('Account', { id: 'a1', email: 'a@x' }, { mode: 'create' });
  await db.updateItem('Account', { id: 'a1', version: 1, name: 'Ann' });
  expect(await db.deleteItem('Account', { id: 'a1' })).toMatchObject({ version: 2 });
});

test('replace and update at another version fail with VERSION_CONFLICT too', async () => {
  const { db } = await fresh();
  await db.putItem('Account', { id: 'a1', email: 'a@x' }, { mode: 'create' });
  await db.updateItem('Account', { id: 'a1', version: 1, email: 'b@x' });
  await expect(db.putItem('Account', { id: 'a1', version: 1, email: 'c@x' }, { mode: 'replace' }))
    .rejects.toMatchObject({ code: 'VERSION_CONFLICT', expectedVersion: 1, storedVersion: 2 });
  await expect(db.updateItem('Account', { id: 'a1', version: 1, email: 'c@x' }))
    .rejects.toMatchObject({ code: 'VERSION_CONFLICT', expectedVersion: 1, storedVersion: 2 });
  expect(await db.getItem('Account', { id: 'a1' })).toMatchObject({ version: 2, email: 'b@x' });
});

test('a transaction delete takes the version: at another one the transaction is cancelled', async () => {
  const { db, table } = await fresh();
  await db.putItem('Account', { id: 'a1', email: 'a@x' }, { mode: 'create' });
  await db.updateItem('Account', { id: 'a1', version: 1, name: 'Ann' });
  await expect(transactWrite(table, [{ type: 'delete', entity: 'Account', key: { id: 'a1' }, version: 1 }]))
    .rejects.toMatchObject({ code: 'TRANSACTION_CANCELLED', reasons: [expect.objectContaining({ action: 0, code: 'ConditionalCheckFailed' })] });
  await transactWrite(table, [{ type: 'delete', entity: 'Account', key: { id: 'a1' }, version: 2 }]);
  expect(await db.getItem('Account', { id: 'a1' })).toBeUndefined();
});
