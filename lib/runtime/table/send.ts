// The one place that sends: every operation builds its input with the pure builders and hands the
// request here, where throttling is retried and DynamoDB's errors become the runtime's.
import type { AttributeValue, ItemCollectionMetrics } from '@aws-sdk/client-dynamodb';
import type { Table } from './context';
import { withThrottlingRetry } from './retry';
import type { ItemCollectionListener } from '../items/item-collections';

/** What sending reads of a table: its retry policy. */
type Sender = Pick<Table<unknown>, 'options'>;

/** Sends one request, retrying throttling as the table's retry policy says. */
export function send<T>(table: Sender, run: () => Promise<T>): Promise<T> {
  return withThrottlingRetry(table.options.retry ?? {}, run);
}

/** What a single-item write returns that the runtime reads. */
export interface WriteOutput {
  readonly Attributes?: Record<string, AttributeValue>;
  readonly ItemCollectionMetrics?: ItemCollectionMetrics;
}

/**
 * Sends a single-item write: reports the LSI item collection's size when DynamoDB returns it, and
 * turns a failed condition into CONDITION_FAILED or VERSION_CONFLICT naming the entity, the key
 * (`values`: the item or key the caller passed) and the part of the condition that failed, as
 * `failed` (writeFailure, for the operations) tells.
 */
export async function sendWrite<T extends WriteOutput>(
  table: Sender, run: () => Promise<T>, failed: (error: { Item?: Record<string, AttributeValue> }) => Error,
  collections?: ItemCollectionListener,
): Promise<T> {
  try {
    const out = await send(table, run);
    if (out.ItemCollectionMetrics) collections?.([out.ItemCollectionMetrics]);
    return out;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw failed(error as { Item?: Record<string, AttributeValue> });
    throw error;
  }
}
