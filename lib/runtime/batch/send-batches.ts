// Batches: split at DynamoDB's limits (100 keys per BatchGetItem, 25 writes per
// BatchWriteItem), resend what DynamoDB leaves unprocessed or throttles with backoff, and when
// the bound is reached fail with every request not known to be processed: the ones still pending
// (which, after a lost answer, may have been applied) and the chunks not yet sent. Nothing is
// dropped silently.
import type { AttributeValue, ItemCollectionMetrics, WriteRequest } from '@aws-sdk/client-dynamodb';
import { UnprocessedError } from '../table/errors';
import { backoff, isThrottling, RetryPolicy } from '../table/retry';
import { BatchGetItemCommand, BatchWriteItemCommand, DynamoDBClient } from '../table/sdk';

export const MAX_BATCH_GET = 100;
export const MAX_BATCH_WRITE = 25;

/** A request and what the caller passed for it (reported back when it is never processed). */
export interface BatchEntry<R, S> {
  readonly id: string;
  readonly request: R;
  readonly source: S;
}

/** Identity of a table key, for matching DynamoDB's unprocessed requests back to entries. */
export function keyId(key: Record<string, AttributeValue>, pk: string, sk: string): string {
  return key[pk]?.S + '\u0000' + key[sk]?.S;
}

/**
 * Sends entries in chunks; `send` returns the requests left unprocessed. Throws UnprocessedError
 * listing the sources of every entry not processed once the attempts are used up.
 */
export async function drain<R, S>(
  operation: string,
  entries: BatchEntry<R, S>[],
  size: number,
  policy: RetryPolicy,
  idOf: (request: R) => string,
  send: (requests: R[]) => Promise<R[]>,
): Promise<void> {
  const max = policy.maxAttempts ?? 8;
  for (let c = 0; c < entries.length; c += size) {
    let pending = entries.slice(c, c + size);
    for (let attempt = 1; ; attempt++) {
      let lastError: unknown;
      try {
        const left = new Set((await send(pending.map((e) => e.request))).map(idOf));
        pending = pending.filter((e) => left.has(e.id));
      } catch (error) {
        lastError = error;
      }
      if (pending.length === 0) break;
      // An error not worth retrying (a validation error, a denied action) ends it at once: earlier chunks
      // are done, so the caller learns exactly which requests were not, with DynamoDB's error as the cause.
      if (attempt >= max || (lastError !== undefined && !isThrottling(lastError))) {
        throw new UnprocessedError(operation, [...pending, ...entries.slice(c + size)].map((e) => e.source), attempt, lastError);
      }
      await backoff(policy, attempt);
    }
  }
}

/** BatchGetItem over any number of keys; returns the items found, by key id. */
export async function batchGetItems<S>(
  client: DynamoDBClient,
  tableName: string,
  entries: BatchEntry<Record<string, AttributeValue>, S>[],
  idOf: (key: Record<string, AttributeValue>) => string,
  policy: RetryPolicy,
  consistent = false,
): Promise<Map<string, Record<string, AttributeValue>>> {
  const found = new Map<string, Record<string, AttributeValue>>();
  await drain('BatchGetItem', entries, MAX_BATCH_GET, policy, idOf, async (keys) => {
    const out = await client.send(new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: consistent } } }));
    for (const item of out.Responses?.[tableName] ?? []) found.set(idOf(item), item);
    return out.UnprocessedKeys?.[tableName]?.Keys ?? [];
  });
  return found;
}

/**
 * BatchWriteItem over any number of puts and deletes. With `collections` (tables with LSIs) each
 * request asks for item collection sizes and passes them on.
 */
export async function batchWriteItems<S>(
  client: DynamoDBClient,
  tableName: string,
  entries: BatchEntry<WriteRequest, S>[],
  idOf: (request: WriteRequest) => string,
  policy: RetryPolicy,
  collections?: (metrics: ItemCollectionMetrics[]) => void,
): Promise<void> {
  await drain('BatchWriteItem', entries, MAX_BATCH_WRITE, policy, idOf, async (requests) => {
    const out = await client.send(new BatchWriteItemCommand({
      RequestItems: { [tableName]: requests },
      ReturnItemCollectionMetrics: collections ? 'SIZE' : undefined,
    }));
    const metrics = out.ItemCollectionMetrics?.[tableName];
    if (collections && metrics?.length) collections(metrics);
    return out.UnprocessedItems?.[tableName] ?? [];
  });
}
