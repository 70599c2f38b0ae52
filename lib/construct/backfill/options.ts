// The props of a backfill job (SingleTable.addBackfill / SingleTableBackfill).
import type { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { SingleTableManifest } from '../../model/manifest';
import type { ISingleTable } from '../i-single-table';

/** Options of `SingleTable.addBackfill`. */
export interface SingleTableBackfillOptions {
  /**
   * The manifest the stored items were written under. With it the job removes the attributes of
   * index slots the current manifest dropped, and a changed table key fails the synth (that moves
   * items to new keys: a copy, not a backfill). Give this or `previousModelFile`, not both.
   * @default - none: the shard history (`previousShardCounts`, `previousStrategies`, which the shard
   * lock keeps complete) names the resharded indexes, and every index slot of every item is checked
   */
  readonly previousManifest?: SingleTableManifest;

  /**
   * Path of the compiled model file (`single-table generate`) of the manifest the stored items were
   * written under; see `previousManifest`. A relative path is resolved from the synth's working directory.
   * @default - none
   */
  readonly previousModelFile?: string;

  /**
   * Parallel scan segments (DynamoDB's `TotalSegments`): the Distributed Map runs one loop of
   * Lambda invocations per segment. 1 to 1000.
   * @default 16
   */
  readonly segments?: number;

  /**
   * Segments worked at the same time (the Distributed Map's `MaxConcurrency`), 1 to `segments`.
   * @default - `segments`
   */
  readonly maxConcurrency?: number;

  /**
   * Write units per second for the whole job, measured from the capacity DynamoDB reports
   * consuming. Each invocation gets this divided by `maxConcurrency`, so the segments running at
   * once stay within it together.
   * @default - no limit
   */
  readonly maxWriteUnitsPerSecond?: number;

  /**
   * Time limit of one invocation of the segment function, 1 to 15 minutes. An invocation stops
   * after the scan page that leaves it less than a quarter of this (at most one minute) and
   * returns its checkpoint; the next invocation goes on from there.
   * @default Duration.minutes(15)
   */
  readonly timeout?: Duration;

  /**
   * Memory of the segment function, in MiB.
   * @default 512
   */
  readonly memorySize?: number;

  /**
   * How long the logs of the function and of the state machine are kept.
   * @default RetentionDays.ONE_YEAR
   */
  readonly logRetention?: RetentionDays;
}

/** Properties of a `SingleTableBackfill`. */
export interface SingleTableBackfillProps extends SingleTableBackfillOptions {
  /** The table to backfill, defined in this app or imported. */
  readonly table: ISingleTable;
}
