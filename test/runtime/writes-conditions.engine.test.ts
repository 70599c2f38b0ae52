// Conditions of the caller's on put, update and delete, on DynamoDB Local: ANDed with the write's
// own existence conditions, refused writes report which part failed and carry the stored item,
// and the operators (deleteItem, putItem, updateItem) take them compiled with `where`.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { modelDocument } from '../../lib/model/document';
import { AttributeKind, ConditionFailedError, createClient, defineManifest, deleteItem, openTable, putItem, updateItem, where } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const manifest = defineManifest({
  entities: {
    Ticket: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        priority: { type: AttributeKind.NUMBER },
        owner: { type: AttributeKind.STRING },
      },
      pk: 'TICKET#{id}',
      sk: 'TICKET',
      indexes: { GSI1: { pk: 'STATUS#{status}', sk: 'TICKET#{id}' } },
    },
  },
  globalIndexes: { GSI1: {} },
  localIndexes: { enabled: false },
});

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let tableName: string;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  tableName = await engine.createTable();
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
});
afterAll(() => engine.stop());

async function refusal(write: Promise<unknown>): Promise<ConditionFailedError> {
  const error = await write.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(ConditionFailedError);
  return error;
}

test('a put with a condition writes when it holds and is refused with the stored item when it does not', async () => {
  await db.putItem('Ticket', { id: 't1', status: 'OPEN', priority: 2 });
  await db.putItem('Ticket', { id: 't1', status: 'OPEN', priority: 3 }, { condition: where({ attr: 'priority', lt: 3 }) });
  const error = await refusal(db.putItem('Ticket', { id: 't1', status: 'DONE' }, { condition: where({ attr: 'priority', lt: 3 }) }));
  expect(error).toMatchObject({ code: 'CONDITION_FAILED', entity: 'Ticket', item: { id: 't1', status: 'OPEN', priority: 3 } });
  expect(error.message).toBe('[CONDITION_FAILED] entity Ticket: (id: "t1"): the caller\'s condition is false for the item as stored (the error\'s `item`)');
  expect(await db.getItem('Ticket', { id: 't1' })).toEqual({ id: 't1', status: 'OPEN', priority: 3 });
});

test('the mode\'s existence condition and the caller\'s are both required, and a refusal names which failed', async () => {
  await db.putItem('Ticket', { id: 't2', status: 'OPEN' });
  const exists = await refusal(db.putItem('Ticket', { id: 't2', status: 'OPEN' }, { mode: 'create', condition: where({ attr: 'owner', exists: false }) }));
  expect(exists.message).toContain('(id: "t2"): an item with this key already exists');
  const missing = await refusal(db.putItem('Ticket', { id: 'nobody', status: 'OPEN' }, { mode: 'replace', condition: where({ attr: 'owner', exists: false }) }));
  expect(missing.message).toContain('(id: "nobody"): there is no item with this key');
  expect(missing.item).toBeUndefined();
  // An upsert's condition on a missing item: the caller's condition failed, and there is no item.
  const none = await refusal(db.putItem('Ticket', { id: 'ghost', status: 'OPEN' }, { condition: where({ attr: 'status', eq: 'OPEN' }) }));
  expect(none.message).toContain('the caller\'s condition is false for the item: there is none with this key');
  await db.putItem('Ticket', { id: 't2', status: 'OPEN', owner: 'ann' }, { mode: 'replace', condition: where({ attr: 'owner', exists: false }) });
  expect(await db.getItem('Ticket', { id: 't2' })).toMatchObject({ owner: 'ann' });
});

test('update and delete take a condition; the refused update leaves the item and its index keys untouched', async () => {
  await db.putItem('Ticket', { id: 't3', status: 'OPEN', owner: 'ann' });
  const error = await refusal(db.updateItem('Ticket', { id: 't3', status: 'DONE' }, { condition: where({ attr: 'owner', eq: 'bob' }) }));
  expect(error.item).toEqual({ id: 't3', status: 'OPEN', owner: 'ann' });
  const raw = await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: 'TICKET#t3' }, SK: { S: 'TICKET' } } }));
  expect(raw.Item?.GSI1PK).toEqual({ S: 'STATUS#OPEN' });
  expect(await db.updateItem('Ticket', { id: 't3', status: 'DONE' }, { condition: where({ or: [{ attr: 'owner', eq: 'ann' }, { attr: 'owner', exists: false }] }) }))
    .toEqual({ id: 't3', status: 'DONE', owner: 'ann' });
  await refusal(db.deleteItem('Ticket', { id: 't3' }, { condition: where({ attr: 'status', ne: 'DONE' }) }));
  expect(await db.deleteItem('Ticket', { id: 't3' }, { condition: where({ attr: 'status', eq: 'DONE' }) })).toMatchObject({ id: 't3' });
  expect(await db.getItem('Ticket', { id: 't3' })).toBeUndefined();
});

test('a bad condition fails before anything is sent, naming its place', async () => {
  await expect(db.updateItem('Ticket', { id: 't4', status: 'X' }, { condition: where({ and: [{ attr: 'owner', eq: 'a' }, { attr: 'priority', eq: 'high' as never }] }) }))
    .rejects.toThrow('[INVALID_VALUE] entity Ticket, attribute priority: condition.and[1].eq: must be a finite number');
  expect(await db.getItem('Ticket', { id: 't4' })).toBeUndefined();
});

test('the operations take conditions made with where, typed by the entity', async () => {
  const table = openTable<typeof manifest>({ model: modelDocument(db.table.model), client: engine.client, tableName });
  await putItem(table, 'Ticket', { id: 't5', status: 'OPEN', priority: 1 }, { condition: where({ attr: 'status', exists: false }) });
  await expect(putItem(table, 'Ticket', { id: 't5', status: 'OPEN' }, { condition: where({ attr: 'status', exists: false }) })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
  expect(await updateItem(table, 'Ticket', { id: 't5', status: 'OPEN' }, { add: { priority: 2 }, condition: where({ attr: 'priority', between: [1, 5] }) }))
    .toMatchObject({ priority: 3 });
  await expect(deleteItem(table, 'Ticket', { id: 't5' }, { condition: where({ size: 'status', gt: 10 }) })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
  // @ts-expect-error priority is a NUMBER: the condition is typed by the entity where the write takes it
  await expect(putItem(table, 'Ticket', { id: 't6', status: 'OPEN' }, { condition: where({ attr: 'priority', eq: 'x' }) })).rejects.toMatchObject({ code: 'INVALID_VALUE' });
});
