// Unique values on DynamoDB Local: each value an item holds in a unique attribute is claimed by a
// guard item written in the same transaction, so no two items ever hold one value, also when
// writers race; moving or dropping the value moves or drops the guard.
import { DynamoDBClient, ScanCommand, AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { uniqueManifest as manifest } from './fixtures/unique-manifest';
import { GUARD_OWNER_ATTRIBUTE, guardMark } from '../../lib/keys/unique-guard';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { createClient, deleteItem, maintainedWrites, openTable, putItem, TransactionCanceledError, transactWrite, updateItem } from '../../lib/runtime';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { countRequests } from '../support/requests';

type M = typeof manifest;
const model = resolveModel(manifest);
const { partitionKey: PK } = model.indexes.table;
const joinedAt = '2024-05-01T00:00:00.000Z';
let engine: Engine;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
});
afterAll(() => engine.stop());

async function freshTable(client?: DynamoDBClient) {
  const tableName = await engine.createTable();
  const options = { client: client ?? engine.client, tableName, retry: { baseDelayMs: 1, maxDelayMs: 5 } };
  return { tableName, table: openTable<M>(modelDocument(model), { ...options, maintainedWrites }), db: createClient(manifest, options) };
}

async function scanAll(tableName: string): Promise<Record<string, AttributeValue>[]> {
  const items: Record<string, AttributeValue>[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const out = await engine.client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...out.Items ?? []);
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The table's state: each customer's email, and each guard's value with the customer it names. */
async function state(tableName: string) {
  const items = await scanAll(tableName);
  const emails = new Map<string, string>();
  const guards = new Map<string, string>();
  for (const item of items) {
    if (item[model.typeAttribute].S === guardMark(model.escapeChar)) {
      guards.set(item[PK].S!.split('#')[3], item[GUARD_OWNER_ATTRIBUTE].M![PK].S!.replace('CUSTOMER#', ''));
    } else if (item[model.typeAttribute].S === 'Customer' && item.email) {
      emails.set(item.username.S!, item.email.S!);
    }
  }
  return { emails, guards };
}

/** The invariant: no email is held by two customers, and the guards are exactly the emails held, each naming its holder. */
function expectConsistent({ emails, guards }: Awaited<ReturnType<typeof state>>) {
  const held = [...emails.values()];
  expect(new Set(held).size).toBe(held.length);
  expect(Object.fromEntries(guards)).toEqual(Object.fromEntries([...emails].map(([user, email]) => [email, user])));
}

describe('unique values', () => {
  test('create claims the value: a second item with it is a UNIQUE_VIOLATION naming entity, attribute and value', async () => {
    const { tableName, db } = await freshTable();
    await db.put('Customer', { username: 'ann', email: 'a@x', joinedAt }, { mode: 'create' });
    const error = await db.put('Customer', { username: 'bob', email: 'a@x', joinedAt }, { mode: 'create' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledError);
    expect(error).toMatchObject({ code: 'UNIQUE_VIOLATION', entity: 'Customer', attribute: 'email' });
    expect((error as Error).message).toContain('another item holds email "a@x"');
    expect((error as TransactionCanceledError).reasons).toEqual([expect.objectContaining({ action: 0, unique: { attribute: 'email', value: 'a@x' } })]);
    expect(await db.get('Customer', { username: 'bob' })).toBeUndefined();
    // A create of an existing item fails on its key, as putItem's does, also when its value is its own.
    await expect(db.put('Customer', { username: 'ann', email: 'a@x', joinedAt }, { mode: 'create' }))
      .rejects.toMatchObject({ code: 'CONDITION_FAILED', message: expect.stringContaining('an item with this key already exists') });
    // Without an email an item claims nothing: any number may lack one.
    await db.put('Customer', { username: 'cy', joinedAt });
    await db.put('Customer', { username: 'dee', joinedAt });
    expectConsistent(await state(tableName));
    expect((await state(tableName)).guards).toEqual(new Map([['a@x', 'ann']]));
  });

  test('update of the value moves the guard, and frees the old value; an update not touching it writes no guard', async () => {
    const { tableName, db } = await freshTable();
    await db.put('Customer', { username: 'ann', email: 'a@x', joinedAt });
    const updated = await db.update('Customer', { username: 'ann', email: 'b@x' });
    expect(updated).toMatchObject({ username: 'ann', email: 'b@x' });
    await db.put('Customer', { username: 'bob', email: 'a@x', joinedAt }, { mode: 'create' });
    await expect(db.update('Customer', { username: 'bob', email: 'b@x' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
    await db.update('Customer', { username: 'bob', name: 'Bob' });
    // Setting the value it already holds changes no guard.
    await db.update('Customer', { username: 'bob', email: 'a@x' });
    await db.update('Customer', { username: 'ann' }, { remove: ['email'] });
    expectConsistent(await state(tableName));
    expect((await state(tableName)).guards).toEqual(new Map([['a@x', 'bob']]));
  });

  test('upsert and replace read the value first and move its guard; delete drops it', async () => {
    const { tableName, db } = await freshTable();
    await db.put('Customer', { username: 'ann', email: 'a@x', joinedAt });
    await db.put('Customer', { username: 'ann', email: 'b@x', joinedAt });
    await db.put('Customer', { username: 'ann', email: 'c@x', joinedAt }, { mode: 'replace' });
    await db.put('Customer', { username: 'bob', email: 'b@x', joinedAt });
    await expect(db.put('Customer', { username: 'bob', email: 'c@x', joinedAt })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
    await expect(db.put('Customer', { username: 'zed', email: 'z@x', joinedAt }, { mode: 'replace' })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
    expectConsistent(await state(tableName));
    expect(await db.delete('Customer', { username: 'ann' })).toMatchObject({ email: 'c@x' });
    expect((await state(tableName)).guards).toEqual(new Map([['b@x', 'bob']]));
    await db.put('Customer', { username: 'cy', email: 'c@x', joinedAt }, { mode: 'create' });
    await expect(db.delete('Customer', { username: 'ann' }, { mustExist: true })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
    expectConsistent(await state(tableName));
  });

  test('a transaction may swap values between its own actions only when no two claim one value', async () => {
    const { table } = await freshTable();
    await transactWrite(table, [
      { type: 'put', entity: 'Customer', item: { username: 'ann', email: 'a@x', joinedAt } },
      { type: 'put', entity: 'Customer', item: { username: 'bob', email: 'b@x', joinedAt } },
    ]);
    await expect(transactWrite(table, [
      { type: 'put', entity: 'Customer', mode: 'create', item: { username: 'cy', email: 'c@x', joinedAt } },
      { type: 'put', entity: 'Customer', mode: 'create', item: { username: 'dee', email: 'c@x', joinedAt } },
    ])).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', message: expect.stringContaining('actions 0 and 1 both write the guard of email = "c@x"') });
  });

  test('the single-item writes refuse a unique entity before sending; an update that leaves the value alone goes', async () => {
    const { table, db } = await freshTable();
    await db.put('Customer', { username: 'ann', email: 'a@x', joinedAt });
    const requests = countRequests(engine.client);
    const before = requests.total();
    await expect(putItem(table, 'Customer', { username: 'bob', email: 'b@x', joinedAt })).rejects.toMatchObject({
      code: 'UNIQUE_NEEDS_TRANSACTION', entity: 'Customer', message: expect.stringContaining('putItem cannot write the guard items of unique email: use transactWrite or createClient'),
    });
    await expect(deleteItem(table, 'Customer', { username: 'ann' })).rejects.toMatchObject({ code: 'UNIQUE_NEEDS_TRANSACTION' });
    await expect(updateItem(table, 'Customer', { username: 'ann', email: 'c@x' })).rejects.toMatchObject({ code: 'UNIQUE_NEEDS_TRANSACTION' });
    await expect(updateItem(table, 'Customer', { username: 'ann' }, { remove: ['email'] })).rejects.toMatchObject({ code: 'UNIQUE_NEEDS_TRANSACTION' });
    // An operator's result is DynamoDB's: no transaction could write its guard, so the fix is to set the value.
    for (const update of [updateItem(table, 'Customer', { username: 'ann' }, { setIfMissing: { email: 'c@x' } }), db.update('Customer', { username: 'ann' }, { setIfMissing: { email: 'c@x' } })]) {
      await expect(update).rejects.toMatchObject({
        code: 'INVALID_VALUE', attribute: 'email', message: expect.stringContaining('guard of that value cannot be written; set email to its new value instead'),
      });
    }
    expect(requests.total()).toBe(before);
    expect(await updateItem(table, 'Customer', { username: 'ann', name: 'Ann' })).toMatchObject({ email: 'a@x', name: 'Ann' });
    // Entities without unique attributes are untouched by the rule.
    await putItem(table, 'Order', { username: 'ann', orderId: 'o1', total: 1 });
  });

  test('when another writer changes the value between the read and the transaction, the write reads again and keeps the guards right', async () => {
    const client = engine.newClient();
    const { tableName, db } = await freshTable(client);
    const other = createClient(manifest, { client: engine.client, tableName });
    await db.put('Customer', { username: 'ann', email: 'a@x', joinedAt });
    let interfere = true;
    client.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && interfere) {
        interfere = false;
        await other.update('Customer', { username: 'ann', email: 'b@x' });
      }
      return next(args);
    }, { step: 'initialize', name: 'interfere' });
    const requests = countRequests(client);
    await db.update('Customer', { username: 'ann', email: 'c@x' });
    expect(requests.of('TransactWriteItemsCommand')).toBe(2);
    expect(requests.of('GetItemCommand')).toBe(3); // read, read again, the item returned
    const s = await state(tableName);
    expectConsistent(s);
    expect(s.guards).toEqual(new Map([['c@x', 'ann']]));
  });

  test('property: under concurrent creates, updates and deletes a value is never held by two items, and guards match the values held', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({
        op: fc.constantFrom('create', 'upsert', 'update', 'delete'),
        user: fc.constantFrom('u1', 'u2', 'u3', 'u4'),
        email: fc.constantFrom('a@x', 'b@x', 'c@x'),
      }), { minLength: 2, maxLength: 12 }),
      async (ops) => {
        const { tableName, db } = await freshTable();
        await Promise.allSettled(ops.map(async ({ op, user, email }) => {
          if (op === 'create') return db.put('Customer', { username: user, email, joinedAt }, { mode: 'create' });
          if (op === 'upsert') return db.put('Customer', { username: user, email, joinedAt });
          if (op === 'update') return db.update('Customer', { username: user, email });
          return db.delete('Customer', { username: user });
        }));
        expectConsistent(await state(tableName));
      },
    ), { numRuns: propertyRuns(15) });
  });
});
