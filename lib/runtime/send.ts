// The one place that sends: every operation builds its input with the pure builders and hands the
// request here, where throttling is retried and DynamoDB's errors become the runtime's.
import type { AttributeValue, ItemCollectionMetrics } from '@aws-sdk/client-dynamodb';
import type { TableContext } from './context';
import { SingleTableError } from './errors';
import type { ItemCollectionListener } from './item-collections';
import { withThrottlingRetry } from './retry';

/** What sending reads of a table: its retry policy. */
type Sender = Pick<TableContext<unknown>, 'options'>;

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
 * turns a failed existence condition into CONDITION_FAILED naming the entity.
 */
export async function sendWrite<T extends WriteOutput>(
  table: Sender, entity: string, condition: string | undefined, run: () => Promise<T>,
  collections?: ItemCollectionListener,
): Promise<T> {
  try {
    const out = await send(table, run);
    if (out.ItemCollectionMetrics) collections?.([out.ItemCollectionMetrics]);
    return out;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') {
      const why = condition?.startsWith('attribute_not_exists') ? 'an item with this key already exists' : 'there is no item with this key';
      throw new SingleTableError('CONDITION_FAILED', why, { entity, cause: error });
    }
    throw error;
  }
}
