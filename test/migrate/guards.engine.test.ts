// Unique values of items stored before their attribute was declared unique: the backfill gives
// each value its guard item, exactly as the runtime writes one (so the runtime's writes then
// enforce and release it), reports a value two items hold, and never guards a value the item no
// longer holds when an application write lands between the scan and the guard's transaction.
import { AttributeValue, DeleteItemCommand, DynamoDBClient, PutItemCommand, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { THROTTLING_ERRORS } from '../../lib/construct/backfill/definition';
import { resolveModel } from '../../lib/manifest/resolve';
import { planBackfill } from '../../lib/migrate/plan';
import { backfill } from '../../lib/migrate/run';
import { runSegment } from '../../lib/migrate/worker';
import { SingleTableManifest } from '../../lib/model/manifest';
import { createClient } from '../../lib/runtime';
import * as retries from '../../lib/runtime/table/retry';
import { compileModelFile } from '../../lib/testing';
import { shopManifest, shopRows } from '../fixtures/shop';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

type Db = {
  putItem(entity: string, item: object, options?: object): Promise<void>;
  updateItem(entity: string, changes: object): Promise<unknown>;
  batchWrite(requests: object[]): Promise<void>;
};

const before = shopManifest('A');
const after: SingleTableManifest = { ...before, entities: { ...before.entities, Customer: { ...before.entities.Customer, unique: ['email'] } } };
const plan = planBackfill(resolveModel(after), resolveModel(before));

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(before));
});
afterAll(() => engine.stop());

/** A table holding `customers` customers (and their orders and products) written without guards, and `twins` more sharing c0000's email. */
async function seeded(customers: number, twins = 0): Promise<string> {
  const tableName = await engine.createTable();
  const a = createClient({ model: compileModelFile(before), client: engine.client, tableName }) as unknown as Db;
  const rows = shopRows(customers, 2, 5).map((r) => ({ type: 'put', entity: r.entity, item: r.item }));
  for (let i = 0; i < twins; i++) rows.push({ type: 'put', entity: 'Customer', item: { customerId: `twin${i}`, email: 'c0000@example.com', name: `Twin ${i}` } });
  await a.batchWrite(rows);
  return tableName;
}

/** The guard items stored, as `email value -> owner's partition key`. */
async function guards(tableName: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await engine.client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (item.Type?.S !== '$unique') continue;
      out.set(item.PK.S!.split('#').pop()!, item['unique:owner'].M!.PK.S!);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

test('a dry run counts and prices the missing guards and writes none; the run writes them; a second run writes none', async () => {
  const tableName = await seeded(12);
  const dry = await backfill({ client: engine.client, tableName, plan, dryRun: true });
  expect(dry.counts).toMatchObject({ guardsWritten: 12, failed: 0, rewritten: 0 });
  // Two transactional writes of 1 KB or less each: the guard and the check of its item.
  expect(dry.counts.writeUnits).toBe(12 * 4);
  expect((await guards(tableName)).size).toBe(0);

  const run = await backfill({ client: engine.client, tableName, plan, segments: 3 });
  expect(run.counts).toMatchObject({ guardsWritten: 12, failed: 0 });
  const written = await guards(tableName);
  expect(written.size).toBe(12);
  expect(written.get('c0003@example.com')).toBe('CUSTOMER#c0003');

  const again = await backfill({ client: engine.client, tableName, plan });
  expect(again.counts).toMatchObject({ guardsWritten: 0, failed: 0, stale: 0 });
});

test('the guards are the runtime\'s own: a create of a taken value is refused, a changed value releases its guard', async () => {
  const tableName = await seeded(3);
  await backfill({ client: engine.client, tableName, plan });
  const db = createClient({ model: compileModelFile(after), client: engine.client, tableName }) as unknown as Db;
  await expect(db.putItem('Customer', { customerId: 'new', email: 'c0001@example.com', name: 'New' }, { mode: 'create' }))
    .rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' });
  await db.updateItem('Customer', { customerId: 'c0001', email: 'moved@example.com' });
  await db.putItem('Customer', { customerId: 'new', email: 'c0001@example.com', name: 'New' }, { mode: 'create' });
  const held = await guards(tableName);
  expect(held.get('c0001@example.com')).toBe('CUSTOMER#new');
  expect(held.get('moved@example.com')).toBe('CUSTOMER#c0001');
});

test('a value two items hold: one gets the guard, the other is listed as failed naming the holder; nothing else fails', async () => {
  const tableName = await seeded(6, 1);
  const run = await backfill({ client: engine.client, tableName, plan });
  expect(run.counts).toMatchObject({ guardsWritten: 6, failed: 1 });
  const holder = (await guards(tableName)).get('c0000@example.com');
  const loser = holder === 'CUSTOMER#c0000' ? 'twin0' : 'c0000';
  expect(holder).toBe(`CUSTOMER#${loser === 'twin0' ? 'c0000' : 'twin0'}`);
  expect(run.failures).toEqual([expect.objectContaining({
    entity: 'Customer',
    key: { PK: `CUSTOMER#${loser}`, SK: `PROFILE#${loser}` },
    reason: expect.stringMatching(new RegExp(`email "c0000@example.com" is a unique value another item holds too \\(.*${holder}.*\\)`)),
  })]);
});

/** A number of scan segments that puts the items of these two partition keys in different segments. */
async function segmentsApart(tableName: string, a: string, b: string): Promise<number> {
  for (let total = 2; total <= 16; total++) {
    const segmentOf = new Map<string, number>();
    for (let segment = 0; segment < total; segment++) {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const scan = new ScanCommand({ TableName: tableName, Segment: segment, TotalSegments: total, ExclusiveStartKey: start });
        const page = await engine.client.send(scan);
        for (const item of page.Items ?? []) segmentOf.set(item.PK.S!, segment);
        start = page.LastEvaluatedKey;
      } while (start);
    }
    if (segmentOf.get(a) !== segmentOf.get(b)) return total;
  }
  throw new Error(`${a} and ${b} share a segment of every scan of 2 to 16 segments`);
}

test('a dry run reports a value two items hold as the run does, on one page, on two or in two segments, and writes nothing', async () => {
  const tableName = await seeded(6, 1);
  const dryRuns = [
    () => runSegment({ client: engine.client, tableName, plan, segment: 0, totalSegments: 1, pageSize: 100, dryRun: true }),
    () => runSegment({ client: engine.client, tableName, plan, segment: 0, totalSegments: 1, pageSize: 1, dryRun: true }),
    async () => {
      const segments = await segmentsApart(tableName, 'CUSTOMER#c0000', 'CUSTOMER#twin0');
      return backfill({ client: engine.client, tableName, plan, segments, pageSize: 1, dryRun: true });
    },
  ];
  for (const dryRun of dryRuns) {
    const dry = await dryRun();
    // The twin is neither guarded nor priced: 6 transactions of two 1 KB writes, 2 units each.
    expect(dry.counts).toMatchObject({ guardsWritten: 6, failed: 1, writeUnits: 6 * 4 });
    expect(dry.failures).toEqual([expect.objectContaining({
      entity: 'Customer',
      reason: expect.stringMatching(/email "c0000@example.com" is a unique value another item holds too \(.*CUSTOMER#(c0000|twin0).*\)/),
    })]);
    expect((await guards(tableName)).size).toBe(0);
  }
  const run = await backfill({ client: engine.client, tableName, plan });
  expect(run.counts).toMatchObject({ guardsWritten: 6, failed: 1 });
});

test('the guards of a scanned page are read together: one BatchGetItem per page that holds unique values, no GetItem per value', async () => {
  const tableName = await seeded(30);
  const sent: string[] = [];
  const client = engine.newClient();
  client.middlewareStack.add((next, context) => async (args) => {
    sent.push(String(context.commandName));
    return next(args);
  }, { step: 'initialize', name: 'countSends' });
  const run = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1, pageSize: 25 });
  expect(run.counts).toMatchObject({ guardsWritten: 30, failed: 0, conflicts: 0 });
  const count = (name: string) => sent.filter((n) => n === name).length;
  expect(count('GetItemCommand')).toBe(0);
  expect(count('TransactWriteItemsCommand')).toBe(30);
  // Every page but possibly the last (which may hold only orders and products) holds a customer.
  expect(count('BatchGetItemCommand')).toBeGreaterThanOrEqual(count('ScanCommand') - 1);
  expect(count('BatchGetItemCommand')).toBeLessThanOrEqual(count('ScanCommand'));
  expect(count('ScanCommand')).toBeGreaterThan(2);
  const again = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1, pageSize: 25 });
  expect(again.counts).toMatchObject({ guardsWritten: 0, failed: 0 });
  // The batch reads are counted: each of the 30 guards is a strongly consistent read of under 4 KB, one read unit.
  let scanUnits = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await engine.client.send(new ScanCommand({ TableName: tableName, Limit: 25, ExclusiveStartKey: start, ReturnConsumedCapacity: 'TOTAL' }));
    scanUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  expect(again.counts.readUnits).toBe(scanUnits + 30);
});

test('guards BatchGetItem cannot read (throttled past its retries) are read one by one with GetItem; nothing fails or is left unguarded', async () => {
  const tableName = await seeded(3);
  const sent: string[] = [];
  const client = engine.newClient();
  client.middlewareStack.add((next, context) => async (args) => {
    sent.push(String(context.commandName));
    if (context.commandName === 'BatchGetItemCommand') {
      throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException' });
    }
    return next(args);
  }, { step: 'initialize', name: 'throttleBatches' });
  const retry = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 };
  const run = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1, retry });
  expect(run.counts).toMatchObject({ guardsWritten: 3, failed: 0 });
  expect(sent.filter((n) => n === 'GetItemCommand')).toHaveLength(3);
  expect((await guards(tableName)).size).toBe(3);
});

test('a guard read ahead naming another item, released before the item is guarded, is read again: the item gets it, no duplicate is reported', async () => {
  const tableName = await seeded(1);
  const key = { PK: { S: '$unique#Customer#email#c0000@example.com' }, SK: { S: '$unique' } };
  const owner = { PK: { S: 'CUSTOMER#gone' }, SK: { S: 'PROFILE#gone' } };
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: { ...key, 'Type': { S: '$unique' }, 'unique:owner': { M: owner } } }));
  const client = engine.newClient();
  client.middlewareStack.add((next, context) => async (args) => {
    const out = await next(args);
    // Its owner drops the value (and the guard with it) right after the page's guards were read.
    if (context.commandName === 'BatchGetItemCommand') await engine.client.send(new DeleteItemCommand({ TableName: tableName, Key: key }));
    return out;
  }, { step: 'initialize', name: 'releaseAfterRead' });
  const run = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1 });
  expect(run.failures).toEqual([]);
  expect(run.counts).toMatchObject({ guardsWritten: 1, failed: 0 });
  expect([...(await guards(tableName)).entries()]).toEqual([['c0000@example.com', 'CUSTOMER#c0000']]);
});

test('a value the application changes between the scan and the guard\'s transaction gets no guard; the value read again does', async () => {
  const tableName = await seeded(1);
  let changed = false;
  const client = engine.newClient();
  client.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'TransactWriteItemsCommand' && !changed) {
      changed = true;
      // An application write without guards (a function still on the old manifest) lands first.
      await engine.client.send(new UpdateItemCommand({
        TableName: tableName,
        Key: { PK: { S: 'CUSTOMER#c0000' }, SK: { S: 'PROFILE#c0000' } },
        UpdateExpression: 'SET email = :e',
        ExpressionAttributeValues: { ':e': { S: 'later@example.com' } },
      }));
    }
    return next(args);
  }, { step: 'initialize', name: 'writeFirst' });
  const run = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1 });
  expect(run.counts).toMatchObject({ guardsWritten: 1, conflicts: 1, failed: 0 });
  expect([...(await guards(tableName)).entries()]).toEqual([['later@example.com', 'CUSTOMER#c0000']]);
});

test('an item whose guard names no item is reported, not overwritten', async () => {
  const tableName = await seeded(1);
  const model = resolveModel(after);
  const key = { PK: { S: '$unique#Customer#email#c0000@example.com' }, SK: { S: '$unique' } };
  expect(model.delimiter).toBe('#');
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: { ...key, Type: { S: '$unique' } } }));
  const run = await backfill({ client: engine.client, tableName, plan });
  expect(run.failures.map((f) => f.reason)).toEqual([expect.stringContaining('another item holds too (an item its guard does not name)')]);
});

/**
 * A client whose guard transactions are cancelled, one per entry, with these reasons (the guard
 * put's, and the item check's or None), then go through; it lists what it sends.
 */
function cancelling(reasons: [string, string][]): { client: DynamoDBClient; sent: string[] } {
  const sent: string[] = [];
  const client = engine.newClient();
  client.middlewareStack.add((next, context) => async (args) => {
    sent.push(String(context.commandName));
    const codes = context.commandName === 'TransactWriteItemsCommand' ? reasons.shift() : undefined;
    if (codes) {
      throw Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons'), {
        name: 'TransactionCanceledException', $fault: 'client', $metadata: {}, CancellationReasons: codes.map((code) => ({ Code: code, Message: code })),
      });
    }
    return next(args);
  }, { step: 'initialize', name: 'cancelGuards' });
  return { client, sent };
}

test('a guard transaction cancelled for throttling or contention is sent again after the retry policy\'s backoff; one whose check failed reads the item again', async () => {
  const tableName = await seeded(1);
  const { client, sent } = cancelling([
    ['ThrottlingError', 'None'], ['None', 'TransactionConflict'], ['ProvisionedThroughputExceeded', 'None'],
    // The item changed: its check failed, whatever befell the guard's put.
    ['ThrottlingError', 'ConditionalCheckFailed'],
  ]);
  const retry = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
  const backoff = jest.spyOn(retries, 'backoff');
  try {
    const run = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1, retry });
    expect(run.counts).toMatchObject({ guardsWritten: 1, conflicts: 1, failed: 0 });
    expect(backoff.mock.calls).toEqual([[retry, 1], [retry, 2], [retry, 3]]);
  } finally {
    backoff.mockRestore();
  }
  expect(sent.filter((n) => n === 'TransactWriteItemsCommand')).toHaveLength(5);
  // Read again once, after the failed check: the item and its guard.
  expect(sent.filter((n) => n === 'GetItemCommand')).toHaveLength(2);
  expect([...(await guards(tableName)).entries()]).toEqual([['c0000@example.com', 'CUSTOMER#c0000']]);
});

test('throttling that outlasts the retries ends the segment with DynamoDB\'s throttling error, which the job retries, not with an item not fixed', async () => {
  for (const [reason, name] of [['ThrottlingError', 'ThrottlingException'], ['ProvisionedThroughputExceeded', 'ProvisionedThroughputExceededException']]) {
    const tableName = await seeded(1);
    const { client, sent } = cancelling(Array.from({ length: 10 }, () => [reason, 'None']));
    const checkpoints: unknown[] = [];
    const retry = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 };
    const onCheckpoint = (c: unknown) => { checkpoints.push(c); };
    const error = await runSegment({ client, tableName, plan, segment: 0, totalSegments: 1, retry, onCheckpoint }).catch((e: Error) => e);
    expect(error).toMatchObject({ name, message: expect.stringContaining('throttled the transaction writing the guard of a Customer\'s email on each of its 3 attempts') });
    expect(THROTTLING_ERRORS).toContain((error as Error).name);
    // The unique value stays out of the message; the page is not checkpointed, so a retry reads it again.
    expect((error as Error).message).not.toContain('c0000@example.com');
    expect(checkpoints).toEqual([]);
    expect(sent.filter((n) => n === 'TransactWriteItemsCommand')).toHaveLength(3);
    expect((await guards(tableName)).size).toBe(0);
  }
});
