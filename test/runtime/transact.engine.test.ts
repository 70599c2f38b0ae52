// Transactions on DynamoDB Local: actions of several entities applied together or not at all,
// each built as its single-item operation builds it (sparse index keys included), refused before
// any request when DynamoDB would reject them, and a cancellation reported action by action.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { createClient, maintainedWrites, openTable, SingleTableError, transactGet, TransactionCanceledError, transactWrite, where } from '../../lib/runtime';
import { Table } from '../../lib/runtime/table/context';
import { compileModelFile } from '../../lib/testing';
import { uniqueManifest as manifest } from '../fixtures/unique-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { countRequests } from '../support/requests';

type M = typeof manifest;
let engine: Engine;
let tableName: string;
let table: Table<M>;
const model = resolveModel(manifest);

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  tableName = await engine.createTable();
  table = openTable<M>({ model: modelDocument(model), client: engine.client, tableName, maintainedWrites });
});
afterAll(() => engine.stop());

const joinedAt = '2024-05-01T00:00:00.000Z';
const { partitionKey, sortKey } = model.indexes.table;
const raw = async (pk: string, sk: string) => {
  const key = { [partitionKey]: { S: pk }, [sortKey!]: { S: sk } };
  return (await engine.client.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
};
/** A table over a client whose requests `wrap` may intercept. */
function tableWith(wrap: (client: DynamoDBClient) => void): Table<M> {
  const client = engine.newClient();
  wrap(client);
  return openTable<M>({ model: modelDocument(model), client, tableName, retry: { baseDelayMs: 1, maxDelayMs: 2 }, maintainedWrites });
}

describe('transactWrite', () => {
  test('puts, updates, deletes and condition checks of two entities apply together', async () => {
    await transactWrite(table, [
      { type: 'put', entity: 'Order', item: { username: 'ann', orderId: 'o1', total: 10 } },
      { type: 'put', entity: 'Order', item: { username: 'ann', orderId: 'o2', total: 20 } },
      { type: 'put', entity: 'Order', item: { username: 'ann', orderId: 'o0', total: 0 } },
    ]);
    await transactWrite(table, [
      { type: 'update', entity: 'Order', changes: { username: 'ann', orderId: 'o1', total: 11 } },
      { type: 'delete', entity: 'Order', key: { username: 'ann', orderId: 'o2' }, mustExist: true },
      { type: 'put', entity: 'Order', item: { username: 'ann', orderId: 'o3', total: 30 }, mode: 'create' },
      { type: 'conditionCheck', entity: 'Order', key: { username: 'ann', orderId: 'o0' }, condition: where({ attr: 'total', eq: 0 }) },
    ]);
    const got = await transactGet(table, [
      { entity: 'Order', key: { username: 'ann', orderId: 'o1' } },
      { entity: 'Order', key: { username: 'ann', orderId: 'o2' } },
      { entity: 'Order', key: { username: 'ann', orderId: 'o3' } },
    ]);
    expect(got).toEqual([
      { entity: 'Order', item: { username: 'ann', orderId: 'o1', total: 11 } },
      undefined,
      { entity: 'Order', item: { username: 'ann', orderId: 'o3', total: 30 } },
    ]);
  });

  test('a cancelled transaction applies nothing and names each failed action: index, entity, key and reason', async () => {
    const error = await transactWrite(table, [
      { type: 'put', entity: 'Order', item: { username: 'bob', orderId: 'o1', total: 1 } },
      { type: 'conditionCheck', entity: 'Order', key: { username: 'bob', orderId: 'missing' }, condition: where({ attr: 'total', exists: true }) },
      { type: 'delete', entity: 'Order', key: { username: 'bob', orderId: 'gone' }, mustExist: true },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledError);
    const cancelled = error as TransactionCanceledError;
    expect(cancelled.code).toBe('TRANSACTION_CANCELLED');
    expect(cancelled.reasons).toEqual([
      expect.objectContaining({ action: 1, entity: 'Order', key: { username: 'bob', orderId: 'missing' }, code: 'ConditionalCheckFailed' }),
      expect.objectContaining({ action: 2, entity: 'Order', key: { username: 'bob', orderId: 'gone' }, code: 'ConditionalCheckFailed' }),
    ]);
    expect(cancelled.message).toContain('action 1, Order (username: "bob", orderId: "missing"): ConditionalCheckFailed');
    expect(await raw('CUSTOMER#bob', 'ORDER#o1')).toBeUndefined();
  });

  test('each action may carry a condition; one that fails cancels all, one that holds lets all apply', async () => {
    await transactWrite(table, [
      { type: 'put', entity: 'Order', item: { username: 'ivy', orderId: 'o1', total: 10 } },
      { type: 'put', entity: 'Order', item: { username: 'ivy', orderId: 'o2', total: 20 } },
    ]);
    const error = await transactWrite(table, [
      { type: 'update', entity: 'Order', changes: { username: 'ivy', orderId: 'o1', total: 11 }, condition: where({ attr: 'total', eq: 10 }) },
      { type: 'delete', entity: 'Order', key: { username: 'ivy', orderId: 'o2' }, condition: where({ attr: 'total', gt: 100 }) },
    ]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSACTION_CANCELLED', reasons: [expect.objectContaining({ action: 1, code: 'ConditionalCheckFailed' })] });
    expect((await raw('CUSTOMER#ivy', 'ORDER#o1'))?.total).toEqual({ N: '10' });
    await transactWrite(table, [
      { type: 'update', entity: 'Order', changes: { username: 'ivy', orderId: 'o1', total: 11 }, condition: where({ attr: 'total', eq: 10 }) },
      { type: 'delete', entity: 'Order', key: { username: 'ivy', orderId: 'o2' }, condition: where({ attr: 'total', between: [10, 30] }) },
      { type: 'put', entity: 'Order', item: { username: 'ivy', orderId: 'o3', total: 3 }, condition: where({ attr: 'total', exists: false }) },
      // A condition check may require that an item is absent.
      { type: 'conditionCheck', entity: 'Order', key: { username: 'ivy', orderId: 'o9' }, condition: where({ attr: 'orderId', exists: false }) },
    ]);
    expect((await raw('CUSTOMER#ivy', 'ORDER#o1'))?.total).toEqual({ N: '11' });
    expect(await raw('CUSTOMER#ivy', 'ORDER#o2')).toBeUndefined();
    expect(await raw('CUSTOMER#ivy', 'ORDER#o3')).toBeDefined();
  });

  test('a bad condition is refused before sending, naming the action; a condition check needs one', async () => {
    const requests = countRequests(engine.client);
    const before = requests.total();
    await expect(transactWrite(table, [
      { type: 'put', entity: 'Order', item: { username: 'ivy', orderId: 'o4', total: 1 } },
      { type: 'delete', entity: 'Order', key: { username: 'ivy', orderId: 'o3' }, condition: where({ and: [{ attr: 'total', eq: 1 }, { attr: 'colour', eq: 'red' } as never] }) },
    ])).rejects.toThrow(/actions\[1\]\.condition\.and\[1\]/);
    await expect(transactWrite(table, [{ type: 'conditionCheck', entity: 'Order', key: { username: 'ivy', orderId: 'o3' } } as never]))
      .rejects.toMatchObject({ code: 'INVALID_CONDITION', message: expect.stringContaining('action 0 is a conditionCheck without a condition') });
    expect(requests.total()).toBe(before);
  });

  test('sparse index keys are kept inside transactions as in single writes: set, moved, removed', async () => {
    await transactWrite(table, [{ type: 'put', entity: 'Customer', item: { username: 'cy', joinedAt } }]);
    expect(await raw('CUSTOMER#cy', 'PROFILE')).not.toHaveProperty('GSI1PK');
    await transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'cy', tier: 'gold', joinedAt } }]);
    expect(await raw('CUSTOMER#cy', 'PROFILE')).toMatchObject({ GSI1PK: { S: 'TIER#gold' }, GSI1SK: { S: joinedAt } });
    const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
    expect((await db.query('byTier', { tier: 'gold' }, { consistent: false })).items.map((i) => i.item.username)).toContain('cy');
    await transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'cy' }, remove: ['tier'] }]);
    const item = await raw('CUSTOMER#cy', 'PROFILE');
    expect(item).not.toHaveProperty('GSI1PK');
    expect(item).not.toHaveProperty('GSI1SK');
  });

  test('an update that moves an index key without all its inputs is refused: a transaction cannot read them first', async () => {
    const requests = countRequests(engine.client);
    const before = requests.total();
    await expect(transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'cy', tier: 'gold' } }]))
      .rejects.toThrow(/PARTIAL_INDEX_UPDATE.*attribute joinedAt.*pass joinedAt too.*a transaction cannot read them first/);
    await expect(transactWrite(table, [{ type: 'update', entity: 'Customer', changes: { username: 'cy', name: 'Cy' }, readMissing: true } as never]))
      .rejects.toThrow(/readMissing is not possible in a transaction/);
    expect(requests.total()).toBe(before);
  });

  test('what DynamoDB would reject is refused before any request: over 100 items, two actions on one item, a bad token', async () => {
    const requests = countRequests(engine.client);
    const before = requests.total();
    const orders = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'put' as const, entity: 'Order' as const, item: { username: 'dee', orderId: `o${i}`, total: i } }));
    await expect(transactWrite(table, orders(101))).rejects.toMatchObject({ code: 'TRANSACTION_TOO_LARGE', message: expect.stringContaining('101 items (101 actions, 0 unique-value guard writes)') });
    await expect(transactWrite(table, [])).rejects.toMatchObject({ code: 'TRANSACTION_TOO_LARGE' });
    // Each create with an email also writes its guard: 51 customers are 102 items.
    const customers = Array.from({ length: 51 }, (_, i) => ({ type: 'put' as const, mode: 'create' as const, entity: 'Customer' as const, item: { username: `c${i}`, email: `c${i}@x`, joinedAt } }));
    await expect(transactWrite(table, customers)).rejects.toMatchObject({ code: 'TRANSACTION_TOO_LARGE', message: expect.stringContaining('51 unique-value guard writes') });
    await expect(transactWrite(table, [
      { type: 'put', entity: 'Order', item: { username: 'dee', orderId: 'a', total: 1 } },
      { type: 'delete', entity: 'Order', key: { username: 'dee', orderId: 'a' } },
    ])).rejects.toMatchObject({ code: 'DUPLICATE_TRANSACTION_ITEM', message: expect.stringContaining('actions 0 and 1 both act on the item (username: "dee", orderId: "a")') });
    for (const token of ['', 'x'.repeat(37)]) {
      await expect(transactWrite(table, orders(1), { token })).rejects.toMatchObject({ code: 'INVALID_VALUE', message: expect.stringContaining('1 to 36 characters') });
    }
    await expect(transactWrite(table, [{ type: 'merge', entity: 'Order' } as never])).rejects.toThrow(/action 0 has type "merge"/);
    await expect(transactWrite(table, [{ type: 'put', entity: 'Nope', item: {} } as never])).rejects.toMatchObject({ code: 'UNKNOWN_ENTITY' });
    expect(requests.total()).toBe(before);
    await expect(transactWrite(table, orders(100))).resolves.toBeUndefined();
  });

  test('a token makes a repeated call apply once: the second create-only put succeeds without writing again', async () => {
    const token = 'order-eve-1';
    const action = { type: 'put' as const, mode: 'create' as const, entity: 'Order' as const, item: { username: 'eve', orderId: 'o1', total: 5 } };
    await transactWrite(table, [action], { token });
    await transactWrite(table, [action], { token });
    // Without the token the same create fails: the item exists.
    await expect(transactWrite(table, [action])).rejects.toMatchObject({ code: 'TRANSACTION_CANCELLED' });
  });

  test('a cancellation for TransactionConflict is retried with the same token; a failed condition is not', async () => {
    const sent: string[] = [];
    let conflicts = 1;
    const conflicted = tableWith((c) => c.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      sent.push((args.input as { ClientRequestToken: string }).ClientRequestToken);
      if (conflicts-- > 0) {
        throw Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'TransactionConflict', Message: 'conflict' }] });
      }
      return next(args);
    }, { step: 'initialize', name: 'conflictOnce' }));
    await transactWrite(conflicted, [{ type: 'put', entity: 'Order', item: { username: 'fay', orderId: 'o1', total: 1 } }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect(await raw('CUSTOMER#fay', 'ORDER#o1')).toBeDefined();

    sent.length = 0;
    await expect(transactWrite(conflicted, [{ type: 'conditionCheck', entity: 'Order', key: { username: 'fay', orderId: 'none' }, condition: where({ attr: 'total', exists: true }) }]))
      .rejects.toMatchObject({ code: 'TRANSACTION_CANCELLED' });
    expect(sent).toHaveLength(1);
  });

  test('contention that outlasts the retry policy is reported with its reason', async () => {
    const always = tableWith((c) => c.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      throw Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'TransactionConflict', Message: 'conflict' }] });
    }, { step: 'initialize', name: 'alwaysConflict' }));
    const error = await transactWrite(always, [{ type: 'put', entity: 'Order', item: { username: 'gil', orderId: 'o1', total: 1 } }]).catch((e: SingleTableError) => e);
    expect(error).toMatchObject({ code: 'TRANSACTION_CANCELLED', reasons: [expect.objectContaining({ action: 0, code: 'TransactionConflict' })] });
  });
});

describe('transactGet', () => {
  test('reads items of several entities in request order; refuses a repeated key and over 100 before sending', async () => {
    await transactWrite(table, [
      { type: 'put', entity: 'Customer', item: { username: 'hal', joinedAt, email: 'hal@x' } },
      { type: 'put', entity: 'Order', item: { username: 'hal', orderId: 'o1', total: 3 } },
    ]);
    expect(await transactGet(table, [
      { entity: 'Order', key: { username: 'hal', orderId: 'o1' } },
      { entity: 'Customer', key: { username: 'nobody' } },
      { entity: 'Customer', key: { username: 'hal' } },
    ])).toEqual([
      { entity: 'Order', item: { username: 'hal', orderId: 'o1', total: 3 } },
      undefined,
      { entity: 'Customer', item: { username: 'hal', joinedAt, email: 'hal@x' } },
    ]);
    const requests = countRequests(engine.client);
    const before = requests.total();
    await expect(transactGet(table, [{ entity: 'Customer', key: { username: 'hal' } }, { entity: 'Customer', key: { username: 'hal' } }]))
      .rejects.toMatchObject({ code: 'DUPLICATE_TRANSACTION_ITEM' });
    const many = Array.from({ length: 101 }, (_, i) => ({ entity: 'Order' as const, key: { username: 'hal', orderId: `o${i}` } }));
    await expect(transactGet(table, many)).rejects.toMatchObject({ code: 'TRANSACTION_TOO_LARGE' });
    await expect(transactGet(table, [{ entity: 'Customer', key: { username: 'hal', email: 'x' } as never }])).rejects.toMatchObject({ code: 'UNKNOWN_ATTRIBUTE' });
    expect(requests.total()).toBe(before);
  });
});
