// The segment worker: scans one segment of a parallel scan (Segment / TotalSegments), works out
// each item's fix and rewrites every stale item with a conditional UpdateItem; an item of an entity
// with unique attributes also gets the guard of each value that has none (./guards.ts). Shared by the CLI
// and a Lambda: it sends through the DynamoDBClient it is given and imports nothing of the CDK.
//
// No application write is lost: the update holds the values the fix was computed from as its
// condition, so a write in between fails it; the item is then read again (strongly consistent) and
// its fix recomputed from what is stored now. A stopped run resumes from its checkpoint: the
// LastEvaluatedKey of the last page done (items of a page half done are seen again, and a fix is
// idempotent: a current item is not written).
// eslint-disable-next-line import/no-extraneous-dependencies
import { AttributeValue, DynamoDBClient, GetItemCommand, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { fixWriteUnits } from './fix-cost';
import { buildFixUpdate, storedKey } from './fix-input';
import { GuardContext, guardStoredItem, readGuards } from './guards';
import { BackfillPlan, ItemFix, itemFix, KeyViolation } from './plan';
import { WriteBudget } from './write-budget';
import { fromItem } from '../runtime/attributes/marshall';
import { RetryPolicy, withThrottlingRetry } from '../runtime/table/retry';

type Item = Record<string, AttributeValue>;

/** What a run found and did. */
export interface BackfillCounts {
  /** Items read by the scan. */
  scanned: number;
  /** Items whose index attributes were missing or stale when scanned. */
  stale: number;
  /** Items rewritten. Stale items not rewritten and not failed were brought up to date or deleted by a concurrent write. */
  rewritten: number;
  /** Conditional updates that found the item changed since it was read (each was re-read and retried). */
  conflicts: number;
  /** Items of no entity of the manifest, left alone. */
  skipped: number;
  /** Items that could not be fixed (see the failures). */
  failed: number;
  /**
   * Guard items written for unique values that had none (items stored before the attribute was
   * declared unique); in a dry run, the guards that would be written.
   */
  guardsWritten: number;
  /** Write units DynamoDB reported consuming; in a dry run, the units the rewrites and guards would cost. */
  writeUnits: number;
  /** Read units the scan and the re-reads consumed. */
  readUnits: number;
}

/** Where a segment stands: enough to resume it. */
export interface SegmentCheckpoint {
  readonly segment: number;
  readonly totalSegments: number;
  /** The scan position after the last page done. @default - the segment's start */
  readonly lastEvaluatedKey?: Item;
  /** Whether the whole segment is done. */
  readonly done: boolean;
  readonly counts: BackfillCounts;
}

/** An item that could not be fixed. */
export interface ItemFailure {
  /** Its table key, as plain values. */
  readonly key: Record<string, unknown>;
  /** Its entity, when known. */
  readonly entity?: string;
  readonly reason: string;
  /** The stored values a multi-attribute GSI cannot index, when that is the reason. @default - none */
  readonly violations?: KeyViolation[];
}

/** Options of `runSegment`. */
export interface SegmentOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly plan: BackfillPlan;
  readonly segment: number;
  readonly totalSegments: number;
  /** Resume from here. @default - the segment's start */
  readonly checkpoint?: SegmentCheckpoint;
  /** The write budget, shared by the segments of one process. @default - none */
  readonly budget?: WriteBudget;
  /** Count and price the rewrites without writing. @default false */
  readonly dryRun?: boolean;
  /**
   * In a dry run, the guards it would write (GuardContext.planned), shared by the segments of one
   * process so a value two segments hold is reported too. @default - one for this segment
   */
  readonly plannedGuards?: Map<string, Record<string, AttributeValue>>;
  /** Items per scan page. @default 100 */
  readonly pageSize?: number;
  /** Throttled requests, and guard transactions cancelled for throttling or contention. @default - 10 attempts, 50 ms doubling to 5 s, full jitter */
  readonly retry?: RetryPolicy;
  /** Times one item is re-read and retried after its condition (or its guard's transaction) fails. @default 10 */
  readonly maxConflicts?: number;
  /** Called after every page with the checkpoint to save. */
  readonly onCheckpoint?: (checkpoint: SegmentCheckpoint) => void | Promise<void>;
  /** Asked after every page; true stops the run there (a Lambda near its time limit). */
  readonly shouldStop?: () => boolean;
  /** Most failures listed in the result (all are counted). @default 100 */
  readonly maxFailuresListed?: number;
}

/** A segment's result: its checkpoint and the failures listed. */
export interface SegmentResult extends SegmentCheckpoint {
  readonly failures: ItemFailure[];
}

/** A zeroed set of counts. */
export function emptyCounts(): BackfillCounts {
  return { scanned: 0, stale: 0, rewritten: 0, conflicts: 0, skipped: 0, failed: 0, guardsWritten: 0, writeUnits: 0, readUnits: 0 };
}

/** Adds `b` into `a`. */
export function addCounts(a: BackfillCounts, b: BackfillCounts): BackfillCounts {
  for (const k of Object.keys(a) as (keyof BackfillCounts)[]) a[k] += b[k];
  return a;
}

const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 50, maxDelayMs: 5000 };

/** Runs (or resumes) one segment to its end, or until `shouldStop`. */
export async function runSegment(options: SegmentOptions): Promise<SegmentResult> {
  const { client, tableName, plan, segment, totalSegments } = options;
  if (!Number.isInteger(totalSegments) || totalSegments < 1 || totalSegments > 1_000_000) {
    throw new RangeError(`totalSegments must be an integer from 1 to 1000000 (DynamoDB's limit), got ${totalSegments}`);
  }
  if (!Number.isInteger(segment) || segment < 0 || segment >= totalSegments) throw new RangeError(`segment must be an integer from 0 to ${totalSegments - 1}, got ${segment}`);
  const start = options.checkpoint;
  if (start && (start.segment !== segment || start.totalSegments !== totalSegments)) {
    throw new RangeError(`the checkpoint is of segment ${start.segment} of ${start.totalSegments}, not ${segment} of ${totalSegments}`);
  }
  const counts = { ...emptyCounts(), ...start?.counts };
  const failures: ItemFailure[] = [];
  const retry = options.retry ?? DEFAULT_RETRY;
  const fail = (item: Item, entity: string | undefined, reason: string, violations?: KeyViolation[]) => {
    counts.failed++;
    if (failures.length >= (options.maxFailuresListed ?? 100)) return;
    failures.push({ key: fromItem(storedKey(plan.next, item)), entity, reason, ...violations && { violations } });
  };
  if (start?.done) return { ...start, counts, failures };
  const dryRun = options.dryRun ?? false;
  const maxConflicts = options.maxConflicts ?? 10;
  const planned = dryRun ? options.plannedGuards ?? new Map() : undefined;
  const guards: GuardContext = { client, tableName, model: plan.next, retry, budget: options.budget, counts, fail, dryRun, planned, maxConflicts };

  let lastEvaluatedKey = start?.lastEvaluatedKey;
  do {
    const page = await withThrottlingRetry(retry, () => client.send(new ScanCommand({
      TableName: tableName,
      Segment: segment,
      TotalSegments: totalSegments,
      ExclusiveStartKey: lastEvaluatedKey,
      Limit: options.pageSize ?? 100,
      ReturnConsumedCapacity: 'TOTAL',
    })));
    counts.readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    const items = page.Items ?? [];
    const fixes = items.map((item) => itemFix(plan, item));
    const entityOf = (fix: ItemFix) => fix.kind === 'CURRENT' || fix.kind === 'STALE' ? plan.next.entities[fix.entity] : undefined;
    const known = await readGuards(guards, items.map((item, i) => [item, entityOf(fixes[i])]));
    for (const [i, item] of items.entries()) {
      counts.scanned++;
      const fix = fixes[i];
      if (fix.kind === 'SKIPPED') {
        counts.skipped++;
      } else if (fix.kind === 'FAILED') {
        fail(item, fix.entity, fix.reason, fix.violations);
      } else if (fix.kind === 'STALE') {
        counts.stale++;
        if (options.dryRun) counts.writeUnits += fixWriteUnits(plan.next, item, fix);
        else await rewrite(item, fix);
      }
      const entity = entityOf(fix);
      if (entity?.unique?.length) await guardStoredItem(guards, item, entity, known);
    }
    lastEvaluatedKey = page.LastEvaluatedKey;
    const checkpoint: SegmentCheckpoint = { segment, totalSegments, lastEvaluatedKey, done: lastEvaluatedKey === undefined, counts: { ...counts } };
    await options.onCheckpoint?.(checkpoint);
    if (!checkpoint.done && options.shouldStop?.()) return { ...checkpoint, failures };
  } while (lastEvaluatedKey);
  return { segment, totalSegments, done: true, counts, failures };

  async function rewrite(scanned: Item, first: ItemFix & { kind: 'STALE' }): Promise<void> {
    let fix: ItemFix = first;
    let item = scanned;
    const key = storedKey(plan.next, scanned);
    for (let attempt = 1; ; attempt++) {
      await options.budget?.acquire();
      try {
        const out = await withThrottlingRetry(retry, () => client.send(new UpdateItemCommand(buildFixUpdate(plan.next, tableName, key, fix as ItemFix & { kind: 'STALE' }))));
        const units = out.ConsumedCapacity?.CapacityUnits ?? 0;
        counts.writeUnits += units;
        options.budget?.spend(units);
        counts.rewritten++;
        return;
      } catch (error) {
        // An index key violation the model does not foresee (an index outside the manifest): this
        // item cannot be written until its value is fixed; the others can.
        if (isIndexKeyViolation(error)) {
          fail(item, first.entity, `DynamoDB refuses to write it: ${(error as Error).message}; fix the value and run the backfill again`);
          return;
        }
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        // A failed condition still costs the write units of the item's size; DynamoDB does not
        // report them on the error, so at least one is counted against the budget.
        options.budget?.spend(1);
        counts.conflicts++;
      }
      const now = await withThrottlingRetry(retry, () => client.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' })));
      counts.readUnits += now.ConsumedCapacity?.CapacityUnits ?? 0;
      if (!now.Item) return; // deleted meanwhile: nothing to fix
      item = now.Item;
      fix = itemFix(plan, item);
      if (fix.kind === 'CURRENT') return; // the concurrent write brought it up to date
      if (fix.kind !== 'STALE') {
        if (fix.kind === 'SKIPPED') counts.skipped++;
        else if (fix.kind === 'FAILED') fail(item, fix.entity, fix.reason, fix.violations);
        return;
      }
      if (attempt >= (options.maxConflicts ?? 10)) {
        fail(item, fix.entity, `changed by other writes ${attempt} times while being rewritten; run the backfill again`);
        return;
      }
    }
  }
}

/** A ValidationException about an index key's type or size: the item's own values, not the request. */
function isIndexKeyViolation(error: unknown): boolean {
  const { name, message } = error as { name?: string; message?: string };
  return name === 'ValidationException' && /index key/i.test(message ?? '');
}
