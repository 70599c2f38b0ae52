// Batches and faults on the embedded engine. Faults are injected through SDK middleware only: a throttling
// error thrown instead of sending, or requests withheld from DynamoDB and handed back as
// UnprocessedItems/UnprocessedKeys, exactly as an overloaded table answers.
import { BatchGetItemCommandInput, BatchWriteItemCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { manifest } from '../../examples/manifest';
import { createClient, UnprocessedError } from '../../lib/runtime';
import { backoffDelay } from '../../lib/runtime/table/retry';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { countRequests } from '../support/requests';

type Db = ReturnType<typeof createClient<typeof manifest>>;
let engine: Engine;
let tableName: string;

beforeAll(async () => {
  engine = await startEngine();
  tableName = await engine.createTable();
});
afterAll(() => engine.stop());

const fast = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const product = (i: number) => ({ productId: `p${String(i).padStart(3, '0')}`, category: 'c', price: i, name: `P${i}` });

function throttling(): Error {
  return Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded'), {
    name: 'ProvisionedThroughputExceededException', $fault: 'client', $metadata: {},
  });
}

/** Withholds the last `keep` requests of each batch call (while `faulty()`), returning them as unprocessed. */
function withholdTail(client: DynamoDBClient, keep: number, faulty: () => boolean) {
  client.middlewareStack.add((next, context) => async (args) => {
    if (!faulty()) return next(args);
    if (context.commandName === 'BatchWriteItemCommand') {
      const input = args.input as BatchWriteItemCommandInput;
      const [table, requests] = Object.entries(input.RequestItems!)[0];
      const held = requests.slice(-keep);
      const sent = requests.slice(0, -keep);
      const out = sent.length
        ? await next({ ...args, input: { ...input, RequestItems: { [table]: sent } } })
        : { output: { $metadata: {} }, response: {} };
      return { ...out, output: { ...(out.output as object), UnprocessedItems: { [table]: held } } } as never;
    }
    if (context.commandName === 'BatchGetItemCommand') {
      const input = args.input as BatchGetItemCommandInput;
      const [table, request] = Object.entries(input.RequestItems!)[0];
      const held = request.Keys!.slice(-keep);
      const sent = request.Keys!.slice(0, -keep);
      const out = sent.length
        ? await next({ ...args, input: { ...input, RequestItems: { [table]: { ...request, Keys: sent } } } })
        : { output: { $metadata: {}, Responses: { [table]: [] } }, response: {} };
      return { ...out, output: { ...(out.output as object), UnprocessedKeys: { [table]: { Keys: held } } } } as never;
    }
    return next(args);
  }, { step: 'initialize', name: 'withholdTail' });
}

function clientWith(setup: (client: DynamoDBClient) => void): Db {
  const client = engine.newClient();
  setup(client);
  return createClient({ model: compileModelFile(manifest), client, tableName, retry: fast });
}

test('batchWrite splits at 25 and batchGet at 100; results come back in request order, missing ones undefined', async () => {
  const db = clientWith(() => undefined);
  const requests = countRequests(db.table.dynamodb);
  await db.batchWrite(Array.from({ length: 130 }, (_, i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(i) })));
  expect(requests.of('BatchWriteItemCommand')).toBe(6);
  const keys = [...Array.from({ length: 130 }, (_, i) => 129 - i), 500].map((i) => ({ entity: 'Product' as const, key: { productId: product(i).productId } }));
  const got = await db.batchGet(keys);
  expect(requests.of('BatchGetItemCommand')).toBe(2);
  expect(got.slice(0, 130)).toEqual(keys.slice(0, 130).map((_, j) => ({ entity: 'Product', item: product(129 - j) })));
  expect(got[130]).toBeUndefined();
});

test('unprocessed items are resent with backoff until DynamoDB takes them', async () => {
  let faults = 3;
  const db = clientWith((c) => withholdTail(c, 5, () => faults-- > 0));
  const requests = countRequests(db.table.dynamodb);
  await db.batchWrite(Array.from({ length: 20 }, (_, i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(200 + i) })));
  expect(requests.of('BatchWriteItemCommand')).toBe(4);
  const got = await db.batchGet(Array.from({ length: 20 }, (_, i) => ({ entity: 'Product' as const, key: { productId: product(200 + i).productId } })));
  expect(got.every((r) => r !== undefined)).toBe(true);
});

test('batchWrite that stays unprocessed fails listing exactly the requests never written, the unsent chunks included', async () => {
  const db = clientWith((c) => withholdTail(c, 3, () => true));
  const requests = countRequests(db.table.dynamodb);
  const writes = Array.from({ length: 30 }, (_, i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(300 + i) }));
  const error: UnprocessedError<unknown> = await db.batchWrite(writes).then(() => { throw new Error('expected a failure'); }, (e) => e);
  expect(error).toBeInstanceOf(UnprocessedError);
  expect(error.code).toBe('UNPROCESSED');
  // First chunk (25): 22 written, the last 3 withheld on every attempt; second chunk (5) never sent.
  expect(error.unprocessed).toEqual([...writes.slice(22, 25), ...writes.slice(25)]);
  expect(requests.of('BatchWriteItemCommand')).toBe(fast.maxAttempts);
  const stored = await createClient({ model: compileModelFile(manifest), client: engine.client, tableName }).batchGet(writes.map((w) => ({ entity: 'Product' as const, key: { productId: w.item.productId } })));
  expect(stored.map((s) => s !== undefined)).toEqual(writes.map((_, i) => i < 22));
});

test('a batch that fails for another reason mid-way lists the requests not written, with the error as cause', async () => {
  let calls = 0;
  const db = clientWith((c) => c.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'BatchWriteItemCommand' && ++calls === 2) {
      throw Object.assign(new Error('User is not authorized to perform: dynamodb:BatchWriteItem'), { name: 'AccessDeniedException', $fault: 'client', $metadata: {} });
    }
    return next(args);
  }, { step: 'initialize', name: 'denySecondChunk' }));
  const writes = Array.from({ length: 60 }, (_, i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(600 + i) }));
  const error: UnprocessedError<unknown> = await db.batchWrite(writes).then(() => { throw new Error('expected a failure'); }, (e) => e);
  expect(error).toBeInstanceOf(UnprocessedError);
  expect(error.message).toMatch(/left 35 request\(s\) unprocessed after 1 attempt\(s\) \(last error: AccessDeniedException/);
  expect((error.cause as Error).name).toBe('AccessDeniedException');
  // chunk 1 (25) written; chunk 2 refused whole, chunk 3 never sent; nothing retried after a non-throttling error
  expect(error.unprocessed).toEqual(writes.slice(25));
  expect(calls).toBe(2);
  const stored = await createClient({ model: compileModelFile(manifest), client: engine.client, tableName }).batchGet(writes.map((w) => ({ entity: 'Product' as const, key: { productId: w.item.productId } })));
  expect(stored.map((s) => s !== undefined)).toEqual(writes.map((_, i) => i < 25));
});

test('batchGet that stays unprocessed fails listing the keys it could not read', async () => {
  const db = clientWith((c) => withholdTail(c, 2, () => true));
  const keys = [0, 1, 2, 3].map((i) => ({ entity: 'Product' as const, key: { productId: product(i).productId } }));
  await expect(db.batchGet(keys)).rejects.toMatchObject({ code: 'UNPROCESSED', unprocessed: keys.slice(2) });
});

test('a throttled request is retried with backoff; past the bound the throttling error surfaces', async () => {
  let throttles = 2;
  const db = clientWith((c) => c.middlewareStack.add((next) => async (args) => {
    if (throttles-- > 0) throw throttling();
    return next(args);
  }, { step: 'initialize' }));
  const requests = countRequests(db.table.dynamodb);
  await db.putItem('Product', product(900));
  expect(requests.of('PutItemCommand')).toBe(3);

  throttles = 100;
  await expect(db.getItem('Product', { productId: product(900).productId })).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  expect(requests.of('GetItemCommand')).toBe(fast.maxAttempts);
});

test('a batch throttled as a whole is retried, then reported unprocessed in full', async () => {
  const db = clientWith((c) => c.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'BatchWriteItemCommand') throw throttling();
    return next(args);
  }, { step: 'initialize' }));
  const writes = [1, 2].map((i) => ({ type: 'delete' as const, entity: 'Product' as const, key: { productId: product(i).productId } }));
  const error = await db.batchWrite(writes).catch((e) => e);
  expect(error).toMatchObject({ code: 'UNPROCESSED', unprocessed: writes });
  expect((error as Error).cause).toMatchObject({ name: 'ProvisionedThroughputExceededException' });
});

test('duplicate keys in one batchWrite are refused before sending', async () => {
  const db = clientWith(() => undefined);
  const requests = countRequests(db.table.dynamodb);
  await expect(db.batchWrite([
    { type: 'put', entity: 'Product', item: product(1) },
    { type: 'delete', entity: 'Product', key: { productId: product(1).productId } },
  ])).rejects.toMatchObject({ code: 'DUPLICATE_BATCH_KEY', message: expect.stringContaining('writes the item (productId: "p001") twice') });
  expect(requests.total()).toBe(0);
});

test('backoff is jittered, doubles per retry and is capped', () => {
  const policy = { baseDelayMs: 10, maxDelayMs: 100 };
  for (let retry = 1; retry <= 8; retry++) {
    const cap = Math.min(100, 10 * 2 ** (retry - 1));
    const delays = Array.from({ length: 200 }, () => backoffDelay(policy, retry));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(cap);
    expect(new Set(delays).size).toBeGreaterThan(100);
    expect(Math.max(...delays)).toBeGreaterThan(cap / 2);
  }
});

test('the unprocessed error still lists the requests when they hold values JSON cannot write (a bigint in a list)', async () => {
  // The message embedded JSON.stringify of the requests, which throws on a bigint: the caller got
  // a TypeError instead of UnprocessedError, and with it lost the list of what was not written.
  const db = clientWith((c) => withholdTail(c, 1, () => true));
  const order = { username: 'big', orderId: 'o1', status: 'OPEN', createdAt: '2024-01-01', amount: 1, lines: [2n ** 64n] as unknown[] };
  const writes = [{ type: 'put' as const, entity: 'Order' as const, item: order }];
  const error: UnprocessedError<unknown> = await db.batchWrite(writes).then(() => { throw new Error('expected a failure'); }, (e) => e);
  expect(error).toBeInstanceOf(UnprocessedError);
  expect(error.unprocessed).toEqual(writes);
  expect(error.message).toContain('18446744073709551616');
});

test('a batch write of an unknown type is refused before sending, not taken for a delete', async () => {
  // Untyped callers (JSON events): anything but 'put' was sent as a DeleteRequest of `key`.
  const db = clientWith(() => undefined);
  const item = product(900);
  await db.putItem('Product', item);
  const requests = countRequests(db.table.dynamodb);
  const write = { type: 'upsert', entity: 'Product', item, key: { productId: item.productId } } as unknown as Parameters<Db['batchWrite']>[0][number];
  await expect(db.batchWrite([write])).rejects.toMatchObject({ code: 'INVALID_VALUE', entity: 'Product' });
  expect(requests.total()).toBe(0);
  expect(await db.getItem('Product', { productId: item.productId })).toEqual(item);
});
