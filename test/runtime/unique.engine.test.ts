// Unique values on DynamoDB Local: each value an item holds in a unique attribute is claimed by a
// guard item written in the same transaction, so no two items ever hold one value, also when
// writers race; moving or dropping the value moves or drops the guard.
import { AttributeValue, DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { GUARD_OWNER_ATTRIBUTE, guardMark } from '../../lib/keys/unique-guard';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { ConditionFailedError, createClient, deleteItem, maintainedWrites, openTable, putItem, TransactionCanceledError, transactWrite, updateItem, where } from '../../lib/runtime';
import { buildPut } from '../../lib/runtime/items/requests';
import { compileModelFile } from '../../lib/testing';
import { uniqueManifest as manifest } from '../fixtures/unique-manifest';
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
  const table = openTable<M>({ model: modelDocument(model), ...options, maintainedWrites });
  return { tableName, table, db: createClient({ ...options, model: compileModelFile(manifest) }) };
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
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt }, { mode: 'create' });
    const error = await db.putItem('Customer', { username: 'bob', email: 'a@x', joinedAt }, { mode: 'create' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledError);
    expect(error).toMatchObject({ code: 'UNIQUE_VIOLATION', entity: 'Customer', attribute: 'email' });
    expect((error as Error).message).toContain('another item holds email "a@x"');
    expect((error as TransactionCanceledError).reasons).toEqual([expect.objectContaining({ action: 0, unique: { attribute: 'email', value: 'a@x' } })]);
    expect(await db.getItem('Customer', { username: 'bob' })).toBeUndefined();
    // A create of an existing item fails on its key, as putItem's does, also when its value is its own.
    await expect(db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt }, { mode: 'create' }))
      .rejects.toMatchObject({ code: 'CONDITION_FAILED', message: expect.stringContaining('an item with this key already exists') });
    // Without an email an item claims nothing: any number may lack one.
    await db.putItem('Customer', { username: 'cy', joinedAt });
    await db.putItem('Customer', { username: 'dee', joinedAt });
    expectConsistent(await state(tableName));
    expect((await state(tableName)).guards).toEqual(new Map([['a@x', 'ann']]));
  });

  test('update of the value moves the guard, and frees the old value; an update not touching it writes no guard', async () => {
    const { tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    const updated = await db.updateItem('Customer', { username: 'ann', email: 'b@x' });
    expect(updated).toMatchObject({ username: 'ann', email: 'b@x' });
    await db.putItem('Customer', { username: 'bob', email: 'a@x', joinedAt }, { mode: 'create' });
    await expect(db.updateItem('Customer', { username: 'bob', email: 'b@x' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
    await db.updateItem('Customer', { username: 'bob', name: 'Bob' });
    // Setting the value it already holds changes no guard.
    await db.updateItem('Customer', { username: 'bob', email: 'a@x' });
    await db.updateItem('Customer', { username: 'ann' }, { remove: ['email'] });
    expectConsistent(await state(tableName));
    expect((await state(tableName)).guards).toEqual(new Map([['a@x', 'bob']]));
  });

  test('upsert and replace read the value first and move its guard; delete drops it', async () => {
    const { tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    await db.putItem('Customer', { username: 'ann', email: 'b@x', joinedAt });
    await db.putItem('Customer', { username: 'ann', email: 'c@x', joinedAt }, { mode: 'replace' });
    await db.putItem('Customer', { username: 'bob', email: 'b@x', joinedAt });
    await expect(db.putItem('Customer', { username: 'bob', email: 'c@x', joinedAt })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
    await expect(db.putItem('Customer', { username: 'zed', email: 'z@x', joinedAt }, { mode: 'replace' })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
    expectConsistent(await state(tableName));
    expect(await db.deleteItem('Customer', { username: 'ann' })).toMatchObject({ email: 'c@x' });
    expect((await state(tableName)).guards).toEqual(new Map([['b@x', 'bob']]));
    await db.putItem('Customer', { username: 'cy', email: 'c@x', joinedAt }, { mode: 'create' });
    await expect(db.deleteItem('Customer', { username: 'ann' }, { mustExist: true })).rejects.toMatchObject({ code: 'CONDITION_FAILED' });
    expectConsistent(await state(tableName));
  });

  test('a transaction may swap, rotate and hand over values between its own items; two items taking one value are refused', async () => {
    const { tableName, table } = await freshTable();
    const put = (username: string, email: string) => ({ type: 'put' as const, entity: 'Customer' as const, item: { username, email, joinedAt } });
    await transactWrite(table, [put('ann', 'a@x'), put('bob', 'b@x'), put('cy', 'c@x')]);
    await transactWrite(table, [
      { type: 'update', entity: 'Customer', changes: { username: 'ann', email: 'b@x' } },
      { type: 'update', entity: 'Customer', changes: { username: 'bob', email: 'a@x' } },
    ]);
    expectConsistent(await state(tableName));
    expect((await state(tableName)).emails).toEqual(new Map([['ann', 'b@x'], ['bob', 'a@x'], ['cy', 'c@x']]));
    await transactWrite(table, [put('ann', 'c@x'), put('bob', 'b@x'), put('cy', 'a@x')]);
    expect((await state(tableName)).emails).toEqual(new Map([['ann', 'c@x'], ['bob', 'b@x'], ['cy', 'a@x']]));
    // A deleted item's value handed to a new one.
    await transactWrite(table, [{ type: 'delete', entity: 'Customer', key: { username: 'cy' } }, { ...put('dee', 'a@x'), mode: 'create' }]);
    const s = await state(tableName);
    expectConsistent(s);
    expect(s.guards).toEqual(new Map([['c@x', 'ann'], ['b@x', 'bob'], ['a@x', 'dee']]));
    // A value held outside the transaction cannot be taken by handing over another.
    await expect(transactWrite(table, [
      { type: 'update', entity: 'Customer', changes: { username: 'ann', email: 'b@x' } },
      { type: 'update', entity: 'Customer', changes: { username: 'dee', email: 'c@x' } },
    ])).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', reasons: [expect.objectContaining({ action: 0, unique: { attribute: 'email', value: 'b@x' } })] });
    await expect(transactWrite(table, [
      { type: 'put', entity: 'Customer', mode: 'create', item: { username: 'eve', email: 'e@x', joinedAt } },
      { type: 'put', entity: 'Customer', mode: 'create', item: { username: 'fay', email: 'e@x', joinedAt } },
    ])).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', message: expect.stringContaining('actions 0 and 1 both take email = "e@x"; one transaction can give a value to one item') });
    expectConsistent(await state(tableName));
  });

  test('a false condition of a put, update or delete is a ConditionFailedError with the stored item, as for other entities', async () => {
    const { tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt, tier: 'GOLD' });
    const condition = where({ attr: 'tier', eq: 'SILVER' });
    const writes = [
      db.putItem('Customer', { username: 'ann', email: 'b@x', joinedAt }, { condition }),
      db.putItem('Customer', { username: 'ann', email: 'b@x', joinedAt }, { mode: 'replace', condition }),
      db.updateItem('Customer', { username: 'ann', email: 'b@x' }, { condition }),
      db.deleteItem('Customer', { username: 'ann' }, { condition }),
    ];
    for (const write of writes) {
      const error = await (write as Promise<unknown>).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConditionFailedError);
      expect(error).toMatchObject({ code: 'CONDITION_FAILED', entity: 'Customer', item: { username: 'ann', email: 'a@x', tier: 'GOLD' } });
      expect((error as Error).message).toContain("(username: \"ann\"): the caller's condition is false for the item as stored");
    }
    // On an item that is not there, the condition is what fails too, as deleteItem reports it.
    await expect(db.deleteItem('Customer', { username: 'nobody' }, { condition })).rejects.toMatchObject({
      code: 'CONDITION_FAILED', item: undefined, message: expect.stringContaining("the caller's condition is false for the item: there is none with this key"),
    });
    await expect(db.updateItem('Customer', { username: 'nobody', email: 'n@x' }, { condition })).rejects.toMatchObject({
      code: 'CONDITION_FAILED', message: expect.stringContaining('there is no item with this key'),
    });
    const s = await state(tableName);
    expectConsistent(s);
    expect(s.guards).toEqual(new Map([['a@x', 'ann']]));
    // A true condition writes, and moves the guard.
    await db.updateItem('Customer', { username: 'ann', email: 'b@x' }, { condition: where({ attr: 'tier', eq: 'GOLD' }) });
    expect((await state(tableName)).guards).toEqual(new Map([['b@x', 'ann']]));
  });

  test('a guard is given up only by the item it names: a second item that held the value before it was unique leaves it', async () => {
    const { tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    // Stored before email was unique: bob and cy hold ann's value, with no guard of their own.
    for (const username of ['bob', 'cy']) {
      await engine.client.send(new PutItemCommand(buildPut(model, tableName, 'Customer', { username, email: 'a@x', joinedAt })));
    }
    const requests = countRequests(engine.client);
    await db.updateItem('Customer', { username: 'bob', email: 'b@x' });
    expect(requests.of('TransactWriteItemsCommand')).toBe(2); // the guard's delete refused, then the write without it
    await db.deleteItem('Customer', { username: 'cy' });
    await db.putItem('Customer', { username: 'cy', email: 'c@x', joinedAt });
    const s = await state(tableName);
    expectConsistent(s);
    expect(s.guards).toEqual(new Map([['a@x', 'ann'], ['b@x', 'bob'], ['c@x', 'cy']]));
    await expect(db.putItem('Customer', { username: 'dee', email: 'a@x', joinedAt }, { mode: 'create' })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
  });

  test('values that keep changing under a write end in CONDITION_FAILED saying so, after its reads', async () => {
    const client = engine.newClient();
    const { tableName, db } = await freshTable(client);
    const other = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    let n = 0;
    client.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') await other.updateItem('Customer', { username: 'ann', email: `o${n++}@x` });
      return next(args);
    }, { step: 'initialize', name: 'interfereAlways' });
    await expect(db.updateItem('Customer', { username: 'ann', email: 'c@x' })).rejects.toMatchObject({
      code: 'CONDITION_FAILED', message: expect.stringContaining('the unique values it moves changed between each read and write, 3 times; try again later'),
    });
    expect(n).toBe(3);
    expectConsistent(await state(tableName));
  });

  test('the single-item writes keep the guards in a transaction; operators and readMissing on a unique value are refused before sending', async () => {
    const { table, tableName, db } = await freshTable();
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    const requests = countRequests(engine.client);
    await putItem(table, 'Customer', { username: 'bob', email: 'b@x', joinedAt });
    await expect(putItem(table, 'Customer', { username: 'cy', email: 'b@x', joinedAt })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', entity: 'Customer' });
    expect(await updateItem(table, 'Customer', { username: 'ann', email: 'c@x' })).toMatchObject({ username: 'ann', email: 'c@x' });
    expect(await deleteItem(table, 'Customer', { username: 'bob' })).toMatchObject({ username: 'bob', email: 'b@x' });
    expectConsistent(await state(tableName));
    expect((await state(tableName)).guards).toEqual(new Map([['c@x', 'ann']]));
    expect(requests.of('TransactWriteItemsCommand')).toBeGreaterThanOrEqual(4);
    expect(requests.of('PutItemCommand') + requests.of('DeleteItemCommand')).toBe(0);
    const before = requests.total();
    // An operator's result is DynamoDB's: no transaction could write its guard, so the fix is to set the value.
    for (const update of [updateItem(table, 'Customer', { username: 'ann' }, { setIfMissing: { email: 'd@x' } }), db.updateItem('Customer', { username: 'ann' }, { setIfMissing: { email: 'd@x' } })]) {
      await expect(update).rejects.toMatchObject({
        code: 'INVALID_VALUE', attribute: 'email', message: expect.stringContaining('guard of that value cannot be written; set email to its new value instead'),
      });
    }
    await expect(updateItem(table, 'Customer', { username: 'ann', email: 'd@x' }, { readMissing: true })).rejects.toMatchObject({ code: 'UNIQUE_NEEDS_TRANSACTION', entity: 'Customer' });
    expect(requests.total()).toBe(before);
    // An update that leaves the value alone goes as a single UpdateItem.
    expect(await updateItem(table, 'Customer', { username: 'ann', name: 'Ann' })).toMatchObject({ email: 'c@x', name: 'Ann' });
    expect(requests.of('UpdateItemCommand')).toBe(1);
    // Entities without unique attributes are untouched by the rule.
    await putItem(table, 'Order', { username: 'ann', orderId: 'o1', total: 1 });
  });

  test('when another writer changes the value between the read and the transaction, the write reads again and keeps the guards right', async () => {
    const client = engine.newClient();
    const { tableName, db } = await freshTable(client);
    const other = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    await db.putItem('Customer', { username: 'ann', email: 'a@x', joinedAt });
    let interfere = true;
    client.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && interfere) {
        interfere = false;
        await other.updateItem('Customer', { username: 'ann', email: 'b@x' });
      }
      return next(args);
    }, { step: 'initialize', name: 'interfere' });
    const requests = countRequests(client);
    await db.updateItem('Customer', { username: 'ann', email: 'c@x' });
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
          if (op === 'create') return db.putItem('Customer', { username: user, email, joinedAt }, { mode: 'create' });
          if (op === 'upsert') return db.putItem('Customer', { username: user, email, joinedAt });
          if (op === 'update') return db.updateItem('Customer', { username: user, email });
          return db.deleteItem('Customer', { username: user });
        }));
        expectConsistent(await state(tableName));
      },
    ), { numRuns: propertyRuns(15) });
  });
});
