// A whole backfill in one process: every segment's worker at once, one shared write budget, one
// checkpoint holding every segment's position (what the CLI saves with --resume).
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BackfillPlan } from './plan';
import { addCounts, BackfillCounts, emptyCounts, ItemFailure, runSegment, SegmentCheckpoint } from './worker';
import { WriteBudget } from './write-budget';
import type { RetryPolicy } from '../runtime/retry';

/** Every segment's position; valid only for the same table, model and segment count. */
export interface BackfillCheckpoint {
  readonly table: string;
  /** Fingerprint of the model backfilled to. */
  readonly fingerprint: string;
  readonly totalSegments: number;
  readonly segments: SegmentCheckpoint[];
}

/** Options of `runBackfill`. */
export interface BackfillOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly plan: BackfillPlan;
  /** Parallel scan segments, each worked by its own loop. @default 1 */
  readonly segments?: number;
  /** Write units per second for the whole run. @default - no limit */
  readonly maxWriteUnitsPerSecond?: number;
  readonly dryRun?: boolean;
  /** Resume from here. @default - the start */
  readonly checkpoint?: BackfillCheckpoint;
  /** Called after every page of any segment with the whole run's checkpoint. */
  readonly onCheckpoint?: (checkpoint: BackfillCheckpoint) => void | Promise<void>;
  readonly pageSize?: number;
  readonly retry?: RetryPolicy;
}

/** The result of a run. */
export interface BackfillResult {
  readonly counts: BackfillCounts;
  readonly failures: ItemFailure[];
  readonly checkpoint: BackfillCheckpoint;
}

/** Runs every segment to its end. */
export async function runBackfill(options: BackfillOptions): Promise<BackfillResult> {
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
  const budget = options.maxWriteUnitsPerSecond === undefined ? undefined : new WriteBudget(options.maxWriteUnitsPerSecond);
  const positions: SegmentCheckpoint[] = Array.from({ length: totalSegments }, (_, segment) =>
    resume?.segments[segment] ?? { segment, totalSegments, done: false, counts: emptyCounts() });
  const snapshot = (): BackfillCheckpoint => ({ table: tableName, fingerprint: plan.next.fingerprint, totalSegments, segments: [...positions] });
  // When one segment fails, the others stop after their current page (their checkpoints stay
  // valid), and the failure is thrown once all have stopped: nothing writes after the run ends.
  let failed = false;
  // A dry run's guards are remembered across its segments, up to MAX_PLANNED_GUARDS in all.
  const plannedGuards = options.dryRun ? new Map() : undefined;
  const settled = await Promise.allSettled(positions.map((checkpoint, segment) => runSegment({
    client: options.client,
    tableName,
    plan,
    segment,
    totalSegments,
    checkpoint,
    budget,
    dryRun: options.dryRun,
    plannedGuards,
    pageSize: options.pageSize,
    retry: options.retry,
    shouldStop: () => failed,
    onCheckpoint: async (position) => {
      positions[segment] = position;
      await options.onCheckpoint?.(snapshot());
    },
  }).catch((error: unknown) => {
    failed = true;
    throw error;
  })));
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  const results = settled.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof runSegment>>>).value);
  const counts = emptyCounts();
  for (const r of results) addCounts(counts, r.counts);
  return { counts, failures: results.flatMap((r) => r.failures), checkpoint: snapshot() };
}
