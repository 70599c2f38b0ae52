// Unique-value guards of stored items. An item written before its entity declared an attribute
// unique (or before `uniqueScope` moved its guards under the tenant's prefix) holds its values
// without guard items, so a new item could take the same value. The backfill gives every value it
// finds its guard: one transaction puts the guard on `attribute_not_exists` and checks that the
// item still holds the value, so a value the application changed or dropped meanwhile never gets
// a guard that outlives it (the item is read again instead). A value whose guard names another
// item is held twice: that is reported with both items, never resolved by the backfill. The guards
// of a scanned page are read together, in BatchGetItem rounds of up to 100 keys, so a value costs
// a round trip only when its item changed and is read again.
// eslint-disable-next-line import/no-extraneous-dependencies
import { AttributeValue, BatchGetItemCommand, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { storedItemBytes } from './fix-cost';
import { storedKey } from './fix-input';
import type { WriteBudget } from './write-budget';
import { GUARD_OWNER_ATTRIBUTE } from '../keys/unique-guard';
import { writeUnits } from '../manifest/sizes';
import { EntityModel, TABLE_INDEX, TableModel } from '../model/model';
import { fromAttributeValue, fromItem } from '../runtime/attributes/marshall';
import { BatchEntry, drain, keyId, MAX_BATCH_GET } from '../runtime/batch/send-batches';
import { guardItem, guardKeyAttributes } from '../runtime/items/unique';
import { UnprocessedError } from '../runtime/table/errors';
import { RetryPolicy, withThrottlingRetry } from '../runtime/table/retry';
import { sendTransaction, TransactionCanceledError } from '../runtime/transact/send';

type Item = Record<string, AttributeValue>;

/** What guarding reads and writes with, and where it counts. */
export interface GuardContext {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly model: TableModel;
  readonly retry: RetryPolicy;
  readonly budget?: WriteBudget;
  /** Count and price the missing guards without writing them. */
  readonly dryRun: boolean;
  /**
   * In a dry run, the guards it would have written, by key id (keyId), so a value that a later
   * item holds too is reported as held twice, as the run would report it.
   * Holds up to MAX_PLANNED_GUARDS. @default - none: nothing is remembered
   */
  readonly planned?: Map<string, Item>;
  /** Times one item is re-read after it changed between its read and its guard's transaction. */
  readonly maxConflicts: number;
  readonly counts: { guardsWritten: number; conflicts: number; writeUnits: number; readUnits: number };
  /** Records an item whose values cannot all be guarded. */
  readonly fail: (item: Item, entity: string, reason: string) => void;
}

/**
 * The guards a dry run remembers, across the segments it runs in one process: about 400 to 500
 * bytes each (100,000 guards of email values held 39 to 48 MB of heap), so at most some 50 MB.
 * Past the limit, a second item holding a value is counted as missing its guard too, where the
 * run would report the value as held twice.
 */
export const MAX_PLANNED_GUARDS = 100_000;

/** Guards read ahead (strongly consistent), by key id (keyId): the stored guard, or undefined where there is none. */
export type KnownGuards = Map<string, Item | undefined>;

/**
 * Reads the guards of every unique value of scanned items (entity undefined: of no entity) in
 * BatchGetItem rounds. A value whose guard key cannot be composed is left out: guarding it reports why.
 */
export async function readGuards(context: GuardContext, items: [Item, EntityModel | undefined][]): Promise<KnownGuards> {
  const { model, tableName } = context;
  const { partitionKey, sortKey } = model.indexes[TABLE_INDEX];
  const idOf = (key: Item) => keyId(key, partitionKey, sortKey!);
  const known: KnownGuards = new Map();
  const entries: BatchEntry<Item, Item>[] = [];
  for (const [item, entity] of items) {
    if (!entity?.unique?.length) continue;
    const values = fromItem(item);
    for (const attribute of entity.unique) {
      const stored = item[attribute];
      if (stored === undefined) continue;
      let key: Item | undefined;
      try {
        key = guardKeyAttributes(model, entity, attribute, fromAttributeValue(stored), values);
      } catch {
        continue;
      }
      if (!key || known.has(idOf(key))) continue;
      known.set(idOf(key), undefined);
      entries.push({ id: idOf(key), request: key, source: key });
    }
  }
  try {
    await drain('BatchGetItem', entries, MAX_BATCH_GET, context.retry, idOf, async (keys) => {
      const out = await context.client.send(new BatchGetItemCommand({
        RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } },
        ReturnConsumedCapacity: 'TOTAL',
      }));
      context.counts.readUnits += (out.ConsumedCapacity ?? []).reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      for (const guard of out.Responses?.[tableName] ?? []) known.set(idOf(guard), guard);
      return out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    });
  } catch (error) {
    if (!(error instanceof UnprocessedError)) throw error;
    // Keys still unread are read one by one when their item is guarded, as GetItem with its own
    // retries: a throttling error that outlasts them keeps DynamoDB's name, which the job's retry
    // matches, and no guard key (a unique value) is written into an error message.
    for (const key of error.unprocessed as Item[]) known.delete(idOf(key));
  }
  return known;
}

/**
 * Gives each unique value of a stored item its guard, unless it has one. `known` holds guards read
 * ahead with the item, and takes the guards claimed; once the item changed and is read again, its
 * guards are read again too.
 */
export async function guardStoredItem(context: GuardContext, scanned: Item, entity: EntityModel, known?: KnownGuards): Promise<void> {
  const key = storedKey(context.model, scanned);
  let item: Item | undefined = scanned;
  for (let attempt = 1; item; attempt++) {
    if (await guardValues(context, item, entity, key, known, attempt === 1)) return;
    context.counts.conflicts++;
    if (attempt >= context.maxConflicts) {
      context.fail(item, entity.name, `changed by other writes ${attempt} times while its unique values were being guarded; run the backfill again`);
      return;
    }
    item = await read(context, key);
  }
}

/** One pass over the item's unique values; false when the item changed and must be read again. */
async function guardValues(
  context: GuardContext, item: Item, entity: EntityModel, key: Item, known: KnownGuards | undefined, readAhead: boolean,
): Promise<boolean> {
  const { partitionKey, sortKey } = context.model.indexes[TABLE_INDEX];
  const values = fromItem(item);
  for (const attribute of entity.unique ?? []) {
    const stored = item[attribute];
    if (stored === undefined) continue;
    let guardKey: Item | undefined;
    try {
      guardKey = guardKeyAttributes(context.model, entity, attribute, fromAttributeValue(stored), values);
    } catch (e) {
      context.fail(item, entity.name, `its ${attribute} cannot be guarded: ${(e as Error).message}`);
      continue;
    }
    if (!guardKey) continue;
    const id = keyId(guardKey, partitionKey, sortKey!);
    const ahead = readAhead && known?.has(id);
    let guard = ahead ? known!.get(id) : await read(context, guardKey);
    const owned = (g: Item) => g[GUARD_OWNER_ATTRIBUTE]?.M !== undefined && sameKey(context.model, g[GUARD_OWNER_ATTRIBUTE].M, key);
    // A guard read ahead may since have been released by its owner: a duplicate is reported only as read now.
    if (guard && ahead && !owned(guard)) guard = await read(context, guardKey);
    // A dry run writes no guard: one it would have written for an earlier item holds the value as well.
    guard ??= context.planned?.get(id);
    if (guard) {
      const owner = guard[GUARD_OWNER_ATTRIBUTE]?.M;
      if (!owned(guard)) {
        const other = owner ? JSON.stringify(fromItem(storedKey(context.model, owner))) : 'an item its guard does not name';
        context.fail(item, entity.name, `its ${attribute} ${JSON.stringify(fromAttributeValue(stored))} is a unique value another item holds too (${other}): ` +
          'change the value of one of them, then run the backfill again');
      }
      continue;
    }
    const guardPut = guardItem(context.model, guardKey, key);
    if (context.dryRun) {
      // A transaction writes each of its items twice: the guard, and the check of the item.
      context.counts.writeUnits += 2 * writeUnits(storedItemBytes(guardPut)) + 2 * writeUnits(storedItemBytes(item));
      context.counts.guardsWritten++;
      if (context.planned && context.planned.size < MAX_PLANNED_GUARDS) context.planned.set(id, { [GUARD_OWNER_ATTRIBUTE]: { M: key } });
      continue;
    }
    if (!(await claim(context, guardPut, key, entity.name, attribute, stored))) return false;
    // Another item of the page holding the value finds it taken, without a transaction that fails.
    known?.set(id, guardPut);
    context.counts.guardsWritten++;
  }
  return true;
}

/**
 * Cancellation reasons for throttling, and the error DynamoDB raises for each outside a
 * transaction: the name the job's throttling retry matches (THROTTLING_ERRORS of the state machine).
 */
const THROTTLING_REASONS: Record<string, string> = {
  ThrottlingError: 'ThrottlingException',
  ProvisionedThroughputExceeded: 'ProvisionedThroughputExceededException',
};

/**
 * The guard put, on the condition that no guard exists and the item still holds the value; false
 * when the transaction was cancelled otherwise than for throttling (a guard appeared, the item
 * changed, another transaction held them past the retries): the next pass reads both again.
 * Throttling and TransactionConflict are retried with backoff by the runtime's transaction sender;
 * throttling that outlasts its retries is thrown under DynamoDB's throttling error name, so the
 * segment stops at its checkpoint and the job's (or the caller's) throttling retry resumes it.
 */
async function claim(context: GuardContext, guard: Item, key: Item, entity: string, attribute: string, value: AttributeValue): Promise<boolean> {
  const pk = context.model.indexes[TABLE_INDEX].partitionKey;
  const refs = [0, 1].map(() => ({ action: 0, entity, key: fromItem(key) }));
  await context.budget?.acquire();
  try {
    const out = await sendTransaction({ options: { retry: context.retry } }, refs, () => context.client.send(new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: context.tableName, Item: guard, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': pk } } },
        {
          ConditionCheck: {
            TableName: context.tableName,
            Key: key,
            ConditionExpression: '#u = :v',
            ExpressionAttributeNames: { '#u': attribute },
            ExpressionAttributeValues: { ':v': value },
          },
        },
      ],
      ReturnConsumedCapacity: 'TOTAL',
    })));
    const units = (out.ConsumedCapacity ?? []).reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
    context.counts.writeUnits += units;
    context.budget?.spend(units);
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledError)) throw error;
    // A cancelled transaction still costs write units; at least one is counted.
    context.budget?.spend(1);
    // Only contention is retried (sendTransaction): reasons that are all contention, throttling among them, outlasted the retries.
    const codes = error.reasons.map((r) => r.code);
    const throttled = codes.find((code) => THROTTLING_REASONS[code]);
    if (throttled && codes.every((code) => THROTTLING_REASONS[code] || code === 'TransactionConflict')) {
      // The reasons' message names the item's key and value: a unique value stays out of error messages.
      throw Object.assign(new Error(`DynamoDB throttled the transaction writing the guard of a ${entity}'s ${attribute} ` +
        `on each of its ${context.retry.maxAttempts ?? 8} attempts (${throttled}); the backfill can resume from its checkpoint`), { name: THROTTLING_REASONS[throttled] });
    }
    return false;
  }
}

async function read(context: GuardContext, key: Item): Promise<Item | undefined> {
  const out = await withThrottlingRetry(context.retry, () => context.client.send(new GetItemCommand({
    TableName: context.tableName, Key: key, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL',
  })));
  context.counts.readUnits += out.ConsumedCapacity?.CapacityUnits ?? 0;
  return out.Item;
}

function sameKey(model: TableModel, a: Item, b: Item): boolean {
  const { partitionKey, sortKey } = model.indexes[TABLE_INDEX];
  return a[partitionKey]?.S === b[partitionKey]?.S && a[sortKey!]?.S === b[sortKey!]?.S;
}
