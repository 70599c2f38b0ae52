// The environment and files the backfill's segment Lambda reads, named once for the construct that
// sets them and the entry that reads them. No imports: the Lambda bundle stays free of aws-cdk-lib.

/** The table's name. */
export const BACKFILL_TABLE_ENV = 'TABLE_NAME';
/** Write units per second one invocation may spend: the run's budget divided by the concurrency. */
export const BACKFILL_MAX_WCU_ENV = 'BACKFILL_MAX_WRITE_UNITS_PER_SECOND';
/** Milliseconds kept in hand: an invocation stops after the page that leaves it less. */
export const BACKFILL_RESERVE_ENV = 'BACKFILL_RESERVE_MS';

/** The compiled model file of the manifest to backfill to, beside the handler's bundle. */
export const BACKFILL_MODEL_FILE = 'model.json';
/** The compiled model file of the manifest the items were written under, when given. */
export const BACKFILL_PREVIOUS_MODEL_FILE = 'previous.json';
