// Releases the unique values of items DynamoDB's time to live removed. A TTL delete runs outside any
// transaction, so the guard items of the item's unique values stay behind and the values stay
// taken. A stream consumer hands the decoded REMOVE changes here; each guard the removed item held
// is deleted in a transaction of two checks:
//  - the guard still names the removed item's table key as its owner (another item may hold the
//    value since), and
//  - the item with that key does not hold the value (it may have been written again, and claimed
//    the value anew, before a redelivered record reaches here).
// Either check failing keeps the guard: the value is held. So a record delivered twice, or a change
// of an item the runtime itself deleted (its guards went in the same transaction), releases nothing.
import type { AttributeValue, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import { GUARD_OWNER_ATTRIBUTE } from '../../keys/unique-guard';
import { TABLE_INDEX } from '../../manifest/model';
import type { TableContext } from '../context';
import { SingleTableError } from '../errors';
import { keyAttributes, tableKey } from '../keys';
import { TransactWriteItemsCommand } from '../sdk';
import { sendTransaction, TransactionCanceledError } from '../transact-send';
import { guardKeyAttributes } from '../unique';
import { attributeOf, attributeValue, entityOf } from '../values';

/** What a release reads of a decoded stream change (`decodeStreamEvent`'s changes are such). */
export interface RemovedItemChange {
  readonly entity: string;
  readonly eventName: string;
  /** The item's table key attributes. */
  readonly keys: Readonly<Record<string, unknown>>;
  /** The item before it was removed: the stream must record old images. */
  readonly oldItem?: Readonly<Record<string, unknown>>;
  /** Whether DynamoDB's time to live removed the item. */
  readonly expired: boolean;
}

/** Options of `releaseUniqueValues`. */
export interface ReleaseOptions {
  /**
   * Also release the values of items removed by requests, not only by time to live: for items
   * other code deleted with DeleteItem or BatchWriteItem, which leave guards as TTL does. The
   * runtime's own deletes release their guards in their transaction. @default false
   */
  readonly anyRemove?: boolean;
}

/** One unique value of a removed item. */
export interface UniqueValueRef {
  readonly entity: string;
  /** The removed item's table key attributes. */
  readonly key: Readonly<Record<string, unknown>>;
  readonly attribute: string;
  readonly value: unknown;
}

/** What a release did: the values now free, and those still held (by another item, or the item written again). */
export interface ReleaseResult {
  readonly released: UniqueValueRef[];
  readonly kept: UniqueValueRef[];
}

/**
 * Releases the unique values the items of REMOVE changes held, for the changes DynamoDB's time to
 * live made (all REMOVE changes with `anyRemove`); other changes, and entities without unique
 * attributes, are passed over. Fails with INVALID_STREAM_RECORD, before anything is sent, when such
 * a change has no old image (the stream's view must be OLD_IMAGE or NEW_AND_OLD_IMAGES).
 */
export async function releaseUniqueValues<M>(
  table: TableContext<M>, changes: readonly RemovedItemChange[], options: ReleaseOptions = {},
): Promise<ReleaseResult> {
  const { model } = table;
  const pk = model.indexes[TABLE_INDEX].partitionKey;
  const sk = model.indexes[TABLE_INDEX].sortKey!;
  const work: { ref: UniqueValueRef; input: TransactWriteItemsCommandInput }[] = [];
  // Every guard is worked out before the first request, so a bad change sends nothing.
  for (const change of changes) {
    if (change.eventName !== 'REMOVE' || !(change.expired || options.anyRemove)) continue;
    const entity = entityOf(model, change.entity);
    if (!entity.unique) continue;
    if (!change.oldItem) {
      throw new SingleTableError('INVALID_STREAM_RECORD',
        'a REMOVE record without the old image: the unique values the item held are unknown; set the table\'s stream to NEW_AND_OLD_IMAGES (or OLD_IMAGE)', { entity: entity.name });
    }
    const values = { ...change.oldItem, ...change.keys };
    const owner = keyAttributes(model, tableKey(model, entity, values));
    for (const attribute of entity.unique) {
      const value = change.oldItem[attribute];
      const guard = value === undefined ? undefined : guardKeyAttributes(model, entity, attribute, value, values);
      if (!guard) continue;
      const held: AttributeValue = attributeValue(entity, attributeOf(entity, attribute), value);
      work.push({
        ref: { entity: entity.name, key: change.keys, attribute, value },
        input: {
          TransactItems: [
            {
              ConditionCheck: {
                TableName: table.tableName,
                Key: owner,
                ConditionExpression: 'attribute_not_exists(#pk) OR attribute_not_exists(#a) OR #a <> :v',
                ExpressionAttributeNames: { '#pk': pk, '#a': attribute },
                ExpressionAttributeValues: { ':v': held },
              },
            },
            {
              Delete: {
                TableName: table.tableName,
                Key: guard,
                ConditionExpression: '#o.#pk = :pk AND #o.#sk = :sk',
                ExpressionAttributeNames: { '#o': GUARD_OWNER_ATTRIBUTE, '#pk': pk, '#sk': sk },
                ExpressionAttributeValues: { ':pk': owner[pk], ':sk': owner[sk] },
              },
            },
          ],
        },
      });
    }
  }
  const released: UniqueValueRef[] = [];
  const kept: UniqueValueRef[] = [];
  for (const { ref, input } of work) {
    const key = ref.key as Record<string, unknown>;
    const refs = [{ action: 0, entity: ref.entity, key }, { action: 0, entity: ref.entity, key, guard: ref }];
    try {
      await sendTransaction(table, refs, () => table.dynamodb.send(new TransactWriteItemsCommand(input)));
      released.push(ref);
    } catch (error) {
      // A failed check is the answer (the value is held); anything else is the caller's to retry.
      if (!(error instanceof TransactionCanceledError) || !error.reasons.every((r) => r.code === 'ConditionalCheckFailed')) throw error;
      kept.push(ref);
    }
  }
  return { released, kept };
}
