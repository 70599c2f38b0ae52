// What a stream consumer asks of the table's stream: which entities and kinds of change reach it,
// and how Lambda reads the stream for it.
import type { Duration } from 'aws-cdk-lib';
import type { IEventSourceDlq, StartingPosition } from 'aws-cdk-lib/aws-lambda';

/** A kind of change a stream record describes. */
export enum StreamEventType {
  /** A new item. */
  INSERT = 'INSERT',
  /** An item changed. */
  MODIFY = 'MODIFY',
  /** An item deleted (by a request or by time to live). */
  REMOVE = 'REMOVE',
}

/** Options of `SingleTable.addStreamConsumer`. */
export interface StreamConsumerOptions {
  /**
   * Only changes of these entities reach the function: Lambda filters records on the type
   * attribute of their images, so the function is neither invoked nor billed for the others.
   * Needs a stream view with the images the event types carry it in: NEW_IMAGE for INSERT and
   * MODIFY, OLD_IMAGE for MODIFY and REMOVE, NEW_AND_OLD_IMAGES for all.
   * @default - every record, items of no entity included (the runtime's decoder skips those)
   */
  readonly entities?: string[];

  /**
   * Only these kinds of change reach the function.
   * @default - INSERT, MODIFY and REMOVE
   */
  readonly eventTypes?: StreamEventType[];

  /**
   * Only the removals DynamoDB's time to live made reach the function: Lambda filters REMOVE
   * records on the identity TTL deletes carry (`userIdentity` of type Service, principal
   * dynamodb.amazonaws.com), as a consumer that frees unique values with `releaseUniqueValues`
   * needs. `eventTypes`, when given, must then be REMOVE alone.
   * @default false
   */
  readonly expiredOnly?: boolean;

  /**
   * Where in the stream the function starts reading when the mapping is created.
   * @default StartingPosition.TRIM_HORIZON - the oldest record the stream still holds, so no change is missed
   */
  readonly startingPosition?: StartingPosition;

  /**
   * Most records in one invocation (1 to 10,000), counted after filtering.
   * @default 100
   */
  readonly batchSize?: number;

  /**
   * How long Lambda gathers records before invoking the function.
   * @default - no wait
   */
  readonly maxBatchingWindow?: Duration;

  /**
   * How often a failed batch is retried (-1: until its records expire from the stream).
   * @default -1
   */
  readonly retryAttempts?: number;

  /**
   * Whether a failed batch is split in two and each half retried.
   * @default false
   */
  readonly bisectBatchOnError?: boolean;

  /**
   * Whether the function may report the records it failed (`batchItemFailures`, each the record's
   * sequence number, which the runtime's decoder returns as `sequenceNumber`); Lambda then retries
   * from the first one.
   * @default false
   */
  readonly reportBatchItemFailures?: boolean;

  /**
   * Where the records of a batch that exhausted its retries are described.
   * @default - nowhere: such records are skipped
   */
  readonly onFailure?: IEventSourceDlq;

  /**
   * Concurrent batches per stream shard (1 to 10); records of one item stay in order.
   * @default 1
   */
  readonly parallelizationFactor?: number;

  /**
   * The oldest record Lambda still sends to the function (60 seconds to 7 days).
   * @default - every record the stream holds (24 hours)
   */
  readonly maxRecordAge?: Duration;

  /**
   * Whether the mapping reads the stream.
   * @default true
   */
  readonly enabled?: boolean;
}
