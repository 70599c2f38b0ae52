// Unique-value guards of stored items. An item written before its entity declared an attribute
// unique (or before `uniqueScope` moved its guards under the tenant's prefix) holds its values
// without guard items, so a new item could take the same value. The backfill gives every value it
// finds its guard: one transaction puts the guard on `attribute_not_exists` and checks that the
// item still holds the value, so a value the application changed or dropped meanwhile never gets
// a guard that outlives it (the item is read again instead). A value whose guard names another
// item is held twice: that is reported with both items, never resolved by the backfill.
// eslint-disable-next-line import/no-extraneous-dependencies
import { AttributeValue, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { storedItemBytes } from './fix-cost';
import { storedKey } from './fix-input';
import type { WriteBudget } from './write-budget';
import { GUARD_OWNER_ATTRIBUTE } from '../keys/unique-guard';
import { EntityModel, TABLE_INDEX, TableModel } from '../manifest/model';
import { writeUnits } from '../manifest/sizes';
import { fromAttributeValue, fromItem } from '../runtime/marshall';
import { RetryPolicy, withThrottlingRetry } from '../runtime/retry';
import { guardItem, guardKeyAttributes } from '../runtime/unique';

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
  /** Times one item is re-read after it changed between its read and its guard's transaction. */
  readonly maxConflicts: number;
  readonly counts: { guardsWritten: number; conflicts: number; writeUnits: number; readUnits: number };
  /** Records an item whose values cannot all be guarded. */
  readonly fail: (item: Item, entity: string, reason: string) => void;
}

/** Gives each unique value of a stored item its guard, unless it has one. */
export async function guardStoredItem(context: GuardContext, scanned: Item, entity: EntityModel): Promise<void> {
  const key = storedKey(context.model, scanned);
  let item: Item | undefined = scanned;
  for (let attempt = 1; item; attempt++) {
    if (await guardValues(context, item, entity, key)) return;
    context.counts.conflicts++;
    if (attempt >= context.maxConflicts) {
      context.fail(item, entity.name, `changed by other writes ${attempt} times while its unique values were being guarded; run the backfill again`);
      return;
    }
    item = await read(context, key);
  }
}

/** One pass over the item's unique values; false when the item changed and must be read again. */
async function guardValues(context: GuardContext, item: Item, entity: EntityModel, key: Item): Promise<boolean> {
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
    const guard = await read(context, guardKey);
    if (guard) {
      const owner = guard[GUARD_OWNER_ATTRIBUTE]?.M;
      if (!owner || !sameKey(context.model, owner, key)) {
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
      continue;
    }
    if (!(await claim(context, guardPut, key, attribute, stored))) return false;
    context.counts.guardsWritten++;
  }
  return true;
}

/** The guard put, on the condition that no guard exists and the item still holds the value; false when the transaction was cancelled. */
async function claim(context: GuardContext, guard: Item, key: Item, attribute: string, value: AttributeValue): Promise<boolean> {
  const pk = context.model.indexes[TABLE_INDEX].partitionKey;
  await context.budget?.acquire();
  try {
    const out = await withThrottlingRetry(context.retry, () => context.client.send(new TransactWriteItemsCommand({
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
    // Cancelled: a guard appeared, the item changed, or another transaction touched them. The
    // next pass reads both again. A cancelled transaction still costs write units; at least one is counted.
    if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
    context.budget?.spend(1);
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
