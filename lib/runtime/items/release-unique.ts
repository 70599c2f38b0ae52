// Releases the unique values of items DynamoDB's time to live removed. A TTL delete runs outside any
// transaction, so the guard items of the item's unique values stay behind and the values stay
// taken. A stream consumer hands its event here; each guard the item of a REMOVE record held is
// deleted in a transaction of two checks:
//  - the guard still names the removed item's table key, as the record holds it, as its owner
//    (another item may hold the value since), and
//  - the item with that key does not hold the value (it may have been written again, and claimed
//    the value anew, before a redelivered record reaches here).
// Either check failing keeps the guard: the value is held. So a record delivered twice, or a change
// of an item the runtime itself deleted (its guards went in the same transaction), releases nothing.
import { randomUUID } from 'node:crypto';
import type { AttributeValue, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import { guardKeyAttributes } from './unique';
import { GUARD_OWNER_ATTRIBUTE } from '../../keys/unique-guard';
import { TABLE_INDEX } from '../../model/model';
import { attributeOf, attributeValue } from '../attributes/values';
import { decodeStreamRecord } from '../streams/decode-stream';
import { expiredByTtl, imageValues, StreamEventInput } from '../streams/stream-record';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { TransactWriteItemsCommand } from '../table/sdk';
import { sendTransaction, TransactionCanceledError } from '../transact/send';

/** Options of `releaseUniqueValues`. */
export interface ReleaseUniqueValuesOptions {
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
  /** The sequence number of the record that removed the item. */
  readonly sequenceNumber?: string;
}

/**
 * What a release did. `released`: the values now free. `kept`: values whose guard stayed, because
 * the item with that key holds the value again, or the guard is gone or names another item (a
 * record delivered again, a value claimed since, a delete that released it already, a value
 * stored before it was unique). `skipped`: values no guard can exist for under the manifest (a
 * value of the wrong kind or too long for a key, written by other code), with the reason.
 */
export interface ReleaseResult {
  readonly released: UniqueValueRef[];
  readonly kept: UniqueValueRef[];
  readonly skipped: (UniqueValueRef & { readonly reason: string })[];
}

/**
 * Releases the unique values the items of a stream event's REMOVE records held, for the records of
 * DynamoDB's time to live (all REMOVE records with `anyRemove`); other records, items of no
 * entity and entities without unique attributes are passed over. Fails with INVALID_STREAM_RECORD,
 * before anything is sent, when such a record has no old image (the stream's view must be
 * OLD_IMAGE or NEW_AND_OLD_IMAGES).
 */
export async function releaseUniqueValues<M>(
  table: Table<M>, event: StreamEventInput, options: ReleaseUniqueValuesOptions = {},
): Promise<ReleaseResult> {
  const { model } = table;
  const pk = model.indexes[TABLE_INDEX].partitionKey;
  const sk = model.indexes[TABLE_INDEX].sortKey!;
  const work: { ref: UniqueValueRef; input: TransactWriteItemsCommandInput }[] = [];
  const skipped: ReleaseResult['skipped'] = [];
  // Every guard is worked out before the first request, so a bad record sends nothing.
  for (const record of event.Records) {
    if (record.eventName !== 'REMOVE' || !(options.anyRemove || expiredByTtl(record))) continue;
    const change = decodeStreamRecord(table, record);
    const entity = change && model.entities[change.entity];
    if (!change || !entity?.unique) continue;
    const oldItem = change.oldItem as Readonly<Record<string, unknown>> | undefined;
    if (!oldItem) {
      throw new SingleTableError('INVALID_STREAM_RECORD',
        'a REMOVE record without the old image: the unique values the item held are unknown; set the table\'s stream to NEW_AND_OLD_IMAGES (or OLD_IMAGE)', { entity: entity.name });
    }
    const keys = change.keys as Readonly<Record<string, unknown>>;
    // The owner a guard names is the item's key as stored, which the record holds: an item written
    // under earlier key templates keeps its old key until it is migrated.
    const stored = imageValues(record.dynamodb!.Keys!);
    const owner = { [pk]: stored[pk], [sk]: stored[sk] };
    // The scope of scoped values is the item's own attribute, as the backfill reads it.
    const values = { ...keys, ...oldItem };
    for (const attribute of entity.unique) {
      const value = oldItem[attribute];
      if (value === undefined) continue;
      const ref: UniqueValueRef = { entity: entity.name, key: keys, attribute, value, sequenceNumber: change.sequenceNumber };
      let guard: Record<string, AttributeValue> | undefined;
      let held: AttributeValue;
      try {
        guard = guardKeyAttributes(model, entity, attribute, value, values);
        // No value (null, ''): no guard.
        if (!guard) continue;
        held = attributeValue(entity, attributeOf(entity, attribute), value);
      } catch (error) {
        // The runtime writes no guard for such a value, so there is none to release.
        if (!(error instanceof SingleTableError)) throw error;
        skipped.push({ ...ref, reason: error.message });
        continue;
      }
      work.push({
        ref,
        input: {
          // One token per value: a resend of an attempt whose answer was lost is the same request,
          // so a released value is not reported kept.
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              ConditionCheck: {
                TableName: table.tableName,
                Key: owner,
                ConditionExpression: 'attribute_not_exists(#a) OR #a <> :v',
                ExpressionAttributeNames: { '#a': attribute },
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
      // A failed check is the answer (the value is held); anything else is thrown, and a retry of the
      // whole event is safe: the values released before come back as kept.
      if (!(error instanceof TransactionCanceledError) || error.reasons.length === 0 || !error.reasons.every((r) => r.code === 'ConditionalCheckFailed')) throw error;
      kept.push(ref);
    }
  }
  return { released, kept, skipped };
}
