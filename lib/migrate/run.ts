// The backfill as one function, what the CLI, the job's segment Lambda and users' own code call:
// the scan segments it is given worked at once, one shared write budget, one checkpoint holding
// every worked segment's position (what the CLI saves with --resume, and the job passes from one
// invocation to the next).
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BackfillPlan } from './plan';
import { addCounts, BackfillCounts, emptyCounts, ItemFailure, runSegment, SegmentCheckpoint, SegmentResult } from './worker';
import { WriteBudget } from './write-budget';
import type { RetryPolicy } from '../runtime/table/retry';

/** Where a backfill stands: enough to resume it. Valid only for the same table, model and segment count. */
export interface BackfillCheckpoint {
  readonly table: string;
  /** Fingerprint of the model backfilled to. */
  readonly fingerprint: string;
  readonly totalSegments: number;
  /** The position and counts of each segment worked so far (by its `segment` number); a segment not listed starts at its beginning. */
  readonly segments: SegmentCheckpoint[];
}

/** Options of `backfill`. */
export interface BackfillOptions {
  /** The SDK client it sends with. */
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** What every item is checked against (`planBackfill`). */
  readonly plan: BackfillPlan;
  /** Parallel scan segments (TotalSegments). @default - the checkpoint's, else 1 */
  readonly segments?: number;
  /** Work this segment only (0 to segments - 1), as one worker of many does (a Lambda of a Step Functions Map). @default - every segment, at once */
  readonly segment?: number;
  /** Write units per second for this call, from the capacity DynamoDB reports consuming. @default - no limit */
  readonly maxWriteUnitsPerSecond?: number;
  /**
   * Scan only: count the stale items and missing guards and price their writes (the cost model's
   * index effects on the real item sizes) without writing. @default false
   */
  readonly dryRun?: boolean;
  /** Resume from here: the checkpoint a stopped call returned or passed to `onProgress`. @default - the start */
  readonly checkpoint?: BackfillCheckpoint;
  /** Called after every page of any segment with the checkpoint so far: the counts, and where to resume. */
  readonly onProgress?: (checkpoint: BackfillCheckpoint) => void | Promise<void>;
  /** Asked after every page; true stops each segment there, at a checkpoint (a Lambda near its time limit). @default - never */
  readonly shouldStop?: () => boolean;
  /** Items per scan page. @default 100 */
  readonly pageSize?: number;
  /** Retries of throttled requests and of guard transactions cancelled for contention. @default - 10 attempts, 50 ms doubling to 5 s, full jitter */
  readonly retry?: RetryPolicy;
  /** Most failures listed per segment (all are counted). @default 100 */
  readonly maxFailuresListed?: number;
}

/** The result of a call. */
export interface BackfillResult {
  /** Counts of every segment worked, resumed ones from their start. */
  readonly counts: BackfillCounts;
  /** Items that could not be fixed, with the reason (up to `maxFailuresListed` per segment). */
  readonly failures: ItemFailure[];
  /** Where it stands; pass it back as `checkpoint` to go on when `done` is false. */
  readonly checkpoint: BackfillCheckpoint;
  /** Whether every segment worked reached its end (false when `shouldStop` stopped it). */
  readonly done: boolean;
}

/**
 * Backfills the table to the plan's model: rewrites the index attributes of every stale item and
 * guards every unique value that has no guard (or, with `dryRun`, counts and prices them). A
 * segment that fails (throttling past the retries) stops the others after their current page and
 * is thrown once all have stopped; their checkpoints, passed to `onProgress`, stay valid.
 */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { plan, tableName } = options;
  const resume = options.checkpoint;
  const totalSegments = resume?.totalSegments ?? options.segments ?? 1;
  if (resume) {
    if (resume.table !== tableName) throw new RangeError(`the checkpoint is of table ${resume.table}, not ${tableName}`);
    if (resume.fingerprint !== plan.next.fingerprint) {
      throw new RangeError(`the checkpoint was written for another manifest (fingerprint ${resume.fingerprint}, this one ${plan.next.fingerprint}); start over without it`);
    }
    if (options.segments !== undefined && options.segments !== resume.totalSegments) {
      throw new RangeError(`the checkpoint has ${resume.totalSegments} segments; resume with that many (or leave the segment count out)`);
    }
  }
  const worked = options.segment === undefined ? Array.from({ length: totalSegments }, (_, segment) => segment) : [options.segment];
  const budget = options.maxWriteUnitsPerSecond === undefined ? undefined : new WriteBudget(options.maxWriteUnitsPerSecond);
  const positions: SegmentCheckpoint[] = worked.map((segment) =>
    resume?.segments.find((s) => s.segment === segment) ?? { segment, totalSegments, done: false, counts: emptyCounts() });
  const snapshot = (): BackfillCheckpoint => ({ table: tableName, fingerprint: plan.next.fingerprint, totalSegments, segments: [...positions] });
  // When one segment fails, the others stop after their current page (their checkpoints stay
  // valid), and the failure is thrown once all have stopped: nothing writes after the call ends.
  let failed = false;
  // A dry run's guards are remembered across its segments, up to MAX_PLANNED_GUARDS in all.
  const plannedGuards = options.dryRun ? new Map() : undefined;
  const settled = await Promise.allSettled(positions.map((checkpoint, i) => runSegment({
    client: options.client,
    tableName,
    plan,
    segment: checkpoint.segment,
    totalSegments,
    checkpoint,
    budget,
    dryRun: options.dryRun,
    plannedGuards,
    pageSize: options.pageSize,
    retry: options.retry,
    maxFailuresListed: options.maxFailuresListed,
    shouldStop: () => failed || (options.shouldStop?.() ?? false),
    onCheckpoint: async (position) => {
      positions[i] = position;
      await options.onProgress?.(snapshot());
    },
  }).catch((error: unknown) => {
    failed = true;
    throw error;
  })));
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  const results = settled.map((r) => (r as PromiseFulfilledResult<SegmentResult>).value);
  const counts = emptyCounts();
  for (const r of results) addCounts(counts, r.counts);
  return { counts, failures: results.flatMap((r) => r.failures), checkpoint: snapshot(), done: results.every((r) => r.done) };
}
