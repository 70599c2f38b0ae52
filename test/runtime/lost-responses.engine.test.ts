// Responses lost after DynamoDB applied a write (a connection reset after the request reached
// the table), on dynalite. The fault is injected through SDK middleware only: the request is
// really sent and applied, then its response is replaced by the network error. What holds:
// `UnprocessedError.unprocessed` lists every request not known to be written (those whose
// response was lost included), nothing written or not is dropped from it, and resending the
// list is safe; a create-only put retried by the SDK sees its own write as CONDITION_FAILED.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { manifest } from '../../examples/manifest';
import { createClient, UnprocessedError } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { countRequests } from '../support/requests';

let engine: Engine;
let tableName: string;
let reader: ReturnType<typeof createClient<typeof manifest>>;

beforeAll(async () => {
  engine = await startEngine();
  tableName = await engine.createTable();
  reader = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
});
afterAll(() => engine.stop());

const fast = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const product = (i: number) => ({ productId: `lost${String(i).padStart(3, '0')}`, category: 'c', price: i, name: `P${i}` });

/** What the SDK raises when the connection drops before the response arrives. */
function connectionReset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} });
}

/**
 * Lets the `nth` request of `command` (1-based, counting every attempt) reach the table, then loses
 * its response. Added in the deserialize step, inside the SDK's retry loop, so the SDK's own retry
 * (when the client allows one) sees the error as it would see a real reset.
 */
function loseResponse(client: DynamoDBClient, command: string, nth: number): void {
  let seen = 0;
  client.middlewareStack.add((next, context) => async (args) => {
    const out = await next(args);
    if (context.commandName === command && ++seen === nth) throw connectionReset();
    return out;
  }, { step: 'deserialize', name: 'loseResponse' });
}

const stored = (items: { productId: string }[]) => reader.batchGet(items.map((i) => ({ entity: 'Product' as const, key: { productId: i.productId } })));

test('a batch whose response is lost is reported unprocessed though written: the list holds every request not known to be written, and resending it is safe', async () => {
  const client = engine.newClient(); // no SDK retries: the runtime sees the lost response itself
  loseResponse(client, 'BatchWriteItemCommand', 2);
  const db = createClient({ model: compileModelFile(manifest), client, tableName, retry: fast });
  const writes = Array.from({ length: 60 }, (_, i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(i) }));
  const error: UnprocessedError<unknown> = await db.batchWrite(writes).then(() => { throw new Error('expected a failure'); }, (e) => e);
  expect(error).toBeInstanceOf(UnprocessedError);
  expect((error.cause as { code?: string }).code).toBe('ECONNRESET');
  // Chunk 1 (25) answered: known written, not listed. Chunk 2 (25) applied but its answer lost, and
  // chunk 3 (10) never sent: both listed, though only chunk 3 is in fact missing.
  expect(error.unprocessed).toEqual(writes.slice(25));
  expect((await stored(writes.map((w) => w.item))).map((s) => s !== undefined)).toEqual(writes.map((_, i) => i < 50));
  // Puts and deletes in a batch carry no condition: writing the same request twice leaves what writing it once does.
  await db.batchWrite(error.unprocessed as typeof writes);
  expect(await stored(writes.map((w) => w.item))).toEqual(writes.map((w) => ({ entity: 'Product', item: w.item })));
});

test('the SDK resends a batch whose response was lost, and the batch succeeds: batch writes are safe to repeat', async () => {
  const client = engine.newClient({ maxAttempts: 2 });
  loseResponse(client, 'BatchWriteItemCommand', 1);
  const requests = countRequests(client);
  const db = createClient({ model: compileModelFile(manifest), client, tableName, retry: fast });
  const writes = [100, 101, 102].map((i) => ({ type: 'put' as const, entity: 'Product' as const, item: product(i) }));
  await db.batchWrite(writes);
  expect(requests.of('BatchWriteItemCommand')).toBe(1); // one call; the SDK's second attempt is inside it
  expect(await stored(writes.map((w) => w.item))).toEqual(writes.map((w) => ({ entity: 'Product', item: w.item })));
});

test('a create-only put whose response is lost and that the SDK retries reports CONDITION_FAILED for its own write', async () => {
  const client = engine.newClient({ maxAttempts: 2 });
  loseResponse(client, 'PutItemCommand', 1);
  const db = createClient({ model: compileModelFile(manifest), client, tableName, retry: fast });
  const item = product(200);
  await expect(db.putItem('Product', item, { mode: 'create' })).rejects.toMatchObject({ code: 'CONDITION_FAILED', entity: 'Product' });
  // The item that "already exists" is this put's own: a consistent read that finds exactly the
  // item written (or a request id stored in it) tells the caller the create succeeded.
  expect(await reader.getItem('Product', { productId: item.productId }, { consistent: true })).toEqual(item);
});
