// The backfill as a Lambda handler, one scan segment per invocation: an orchestrator (a Step
// Functions Map over the segments, each looping while `done` is false) passes the segment and the
// checkpoint the previous invocation returned. The handler stops after the page that leaves it less
// than `reserveMs` of its time, so a large segment spans several invocations and none is cut off.
// eslint-disable-next-line import/no-extraneous-dependencies
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { planBackfill } from './plan';
import { backfill } from './run';
import { ItemFailure, SegmentCheckpoint } from './worker';
import { TableModel } from '../model/model';

/** What one invocation is given. */
export interface SegmentEvent {
  readonly segment: number;
  readonly totalSegments: number;
  /** The checkpoint the previous invocation of this segment returned. @default - the segment's start */
  readonly checkpoint?: SegmentCheckpoint;
}

/** What one invocation returns: the checkpoint to pass on, `done` at the segment's end. */
export interface SegmentOutput extends SegmentCheckpoint {
  readonly failures: ItemFailure[];
}

/** Options of `segmentHandler`. */
export interface SegmentHandlerOptions {
  /** The model to backfill to. */
  readonly model: TableModel;
  /** The model items were written under. @default - unknown */
  readonly previous?: TableModel;
  readonly tableName: string;
  /** Write units per second of this one invocation (the run's budget divided by the concurrency). @default - no limit */
  readonly maxWriteUnitsPerSecond?: number;
  /** Time kept in hand when deciding to stop after a page. @default 60000 */
  readonly reserveMs?: number;
  /** Items per scan page. @default 100 */
  readonly pageSize?: number;
  readonly client?: DynamoDBClient;
}

/** A Lambda handler running one segment of the backfill, resumable across invocations. */
export function segmentHandler(options: SegmentHandlerOptions) {
  const plan = planBackfill(options.model, options.previous);
  const client = options.client ?? new DynamoDBClient({});
  return async (event: SegmentEvent, context: { getRemainingTimeInMillis(): number }): Promise<SegmentOutput> => {
    const { totalSegments, segment } = event;
    const result = await backfill({
      client,
      tableName: options.tableName,
      plan,
      segments: totalSegments,
      segment,
      checkpoint: event.checkpoint && { table: options.tableName, fingerprint: plan.next.fingerprint, totalSegments, segments: [event.checkpoint] },
      maxWriteUnitsPerSecond: options.maxWriteUnitsPerSecond,
      pageSize: options.pageSize,
      // The state passed between invocations is limited in size (256 KB in Step Functions).
      maxFailuresListed: 20,
      shouldStop: () => context.getRemainingTimeInMillis() < (options.reserveMs ?? 60_000),
    });
    return { ...result.checkpoint.segments[0], failures: result.failures };
  };
}
