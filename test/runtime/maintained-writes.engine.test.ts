// The writes of versioned, timestamped and unique entities take the hooks of `maintainedWrites`:
// their writes refuse to run without them, before any request, and a model without such an entity
// opens with nothing and keeps the plain wording of refused writes. On DynamoDB Local.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { AttributeKind, batchWrite, ConditionFailedError, createClient, defineManifest, deleteItem, getItem, maintainedWrites, openTable, putItem, updateItem, where } from '../../lib/runtime';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const ticket = {
  attributes: {
    id: { type: AttributeKind.STRING, required: true },
    status: { type: AttributeKind.STRING, required: true },
    owner: { type: AttributeKind.STRING },
  },
  pk: 'TICKET#{id}',
  sk: 'TICKET',
};
const plain = defineManifest({ entities: { Ticket: ticket }, localIndexes: { enabled: false } });
const kept = defineManifest({
  entities: {
    Ticket: ticket,
    Doc: {
      attributes: { id: { type: AttributeKind.STRING, required: true }, title: { type: AttributeKind.STRING } },
      pk: 'DOC#{id}',
      sk: 'DOC',
      version: { attribute: 'rev' },
      timestamps: {},
    },
    Note: { attributes: { id: { type: AttributeKind.STRING, required: true } }, pk: 'NOTE#{id}', sk: 'NOTE', timestamps: { updatedAt: 'touchedAt' } },
    Customer: {
      attributes: { id: { type: AttributeKind.STRING, required: true }, email: { type: AttributeKind.STRING } },
      pk: 'CUSTOMER#{id}',
      sk: 'CUSTOMER',
      unique: ['email'],
    },
  },
  localIndexes: { enabled: false },
});
const plainFile = modelDocument(resolveModel(plain));
const keptFile = modelDocument(resolveModel(kept));

let engine: Engine;
let tableName: string;
beforeAll(async () => {
  // Both manifests have the same table: one key schema, no index.
  engine = await startEngine(synthesizedTemplate(kept));
  tableName = await engine.createTable();
});
afterAll(() => engine.stop());

test('a write of a versioned, timestamped or unique entity without maintainedWrites is refused before any request, naming the entity, its options and the fix', async () => {
  const client = new DynamoDBClient({ region: 'us-east-1' });
  const send = jest.spyOn(client, 'send');
  const table = openTable<typeof kept>({ model: keptFile, client, tableName });
  const fix = 'its writes need openTable({ maintainedWrites })';
  await expect(putItem(table, 'Doc', { id: 'd0' })).rejects.toThrow(`[MAINTAINED_WRITES_MISSING] entity Doc: keeps version rev, timestamps: ${fix}`);
  await expect(updateItem(table, 'Note', { id: 'n0' })).rejects.toThrow(`[MAINTAINED_WRITES_MISSING] entity Note: keeps timestamps: ${fix}`);
  await expect(deleteItem(table, 'Customer', { id: 'c0' })).rejects.toThrow(`[MAINTAINED_WRITES_MISSING] entity Customer: keeps unique email: ${fix}`);
  await expect(batchWrite(table, [{ type: 'put', entity: 'Note', item: { id: 'n0' } }])).rejects.toThrow('[MAINTAINED_WRITES_MISSING] entity Note');
  expect(send).not.toHaveBeenCalled();
  // Reads and writes of the other entities need nothing: a read-only handler carries no hooks.
  const local = openTable<typeof kept>({ model: keptFile, client: engine.client, tableName });
  await putItem(local, 'Ticket', { id: 't0', status: 'OPEN' });
  expect(await getItem(local, 'Doc', { id: 'd0' })).toBeUndefined();
  expect(openTable<typeof kept>({ model: keptFile, client, tableName, maintainedWrites }).maintained).toBe(maintainedWrites);
});

test('a model without such entities opens with nothing, and its refused writes keep their wording', async () => {
  const table = openTable<typeof plain>({ model: plainFile, client: engine.client, tableName });
  expect(table.maintained).toBeUndefined();
  await putItem(table, 'Ticket', { id: 'p1', status: 'OPEN' }, { mode: 'create' });
  const refused = async (write: Promise<unknown>) => {
    const error = await write.then(() => undefined, (e) => e);
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error.code).toBe('CONDITION_FAILED');
    return error.message;
  };
  expect(await refused(putItem(table, 'Ticket', { id: 'p1', status: 'OPEN' }, { mode: 'create' })))
    .toBe('[CONDITION_FAILED] entity Ticket: (id: "p1"): an item with this key already exists');
  expect(await refused(putItem(table, 'Ticket', { id: 'p2', status: 'OPEN' }, { mode: 'replace' })))
    .toBe('[CONDITION_FAILED] entity Ticket: (id: "p2"): there is no item with this key');
  expect(await refused(updateItem(table, 'Ticket', { id: 'p2', status: 'DONE' }))).toContain('(id: "p2"): there is no item with this key');
  expect(await refused(deleteItem(table, 'Ticket', { id: 'p2' }, { mustExist: true }))).toContain('(id: "p2"): there is no item with this key');
  expect(await refused(updateItem(table, 'Ticket', { id: 'p1', status: 'DONE' }, { condition: where({ attr: 'owner', exists: true }) })))
    .toContain('(id: "p1"): the caller\'s condition is false for the item as stored (the error\'s `item`)');
  await expect(deleteItem(table, 'Ticket', { id: 'p1' }, { version: 1 })).rejects.toThrow('[INVALID_VALUE] entity Ticket: is not versioned: remove the version option (1)');
  expect(await getItem(table, 'Ticket', { id: 'p1' })).toEqual({ id: 'p1', status: 'OPEN' });
});

test('with maintainedWrites, the operations keep versions, timestamps and unique values, as createClient does without the option', async () => {
  const table = openTable<typeof kept>({ model: keptFile, client: engine.client, tableName, maintainedWrites });
  await putItem(table, 'Doc', { id: 'd1', title: 'a' });
  const created = (await getItem(table, 'Doc', { id: 'd1' }))!;
  expect(created).toMatchObject({ rev: 1, title: 'a' });
  expect(created.createdAt).toBe(created.updatedAt);
  expect(await updateItem(table, 'Doc', { id: 'd1', rev: 1, title: 'b' })).toMatchObject({ rev: 2, createdAt: created.createdAt });
  const stale = await updateItem(table, 'Doc', { id: 'd1', rev: 1, title: 'c' }).catch((e) => e);
  expect(stale).toMatchObject({ code: 'VERSION_CONFLICT', expectedVersion: 1, storedVersion: 2, item: { title: 'b' } });
  await expect(deleteItem(table, 'Doc', { id: 'd1' }, { version: 1 })).rejects.toMatchObject({ code: 'VERSION_CONFLICT', expectedVersion: 1, storedVersion: 2 });
  await batchWrite(table, [{ type: 'put', entity: 'Note', item: { id: 'n1' } }]);
  expect((await getItem(table, 'Note', { id: 'n1' }))!.touchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  // BatchWriteItem takes no transaction: it cannot write guard items.
  await expect(batchWrite(table, [{ type: 'put', entity: 'Customer', item: { id: 'c1', email: 'a@example.com' } }])).rejects.toMatchObject({ code: 'UNIQUE_NEEDS_TRANSACTION' });
  expect(await getItem(table, 'Customer', { id: 'c1' })).toBeUndefined();
  await putItem(table, 'Customer', { id: 'c1', email: 'a@example.com' });

  const db = createClient<typeof kept>({ model: keptFile, client: engine.client, tableName });
  await expect(db.putItem('Customer', { id: 'c2', email: 'a@example.com' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
  await expect(db.putItem('Doc', { id: 'd1', title: 'again' })).rejects.toMatchObject({ code: 'VERSION_CONFLICT', storedVersion: 2 });
});
