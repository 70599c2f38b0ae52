// `cdk-single-table/migrate`: the backfill as functions, for a deploy pipeline or a Lambda of the
// user's own: the planner and the run (a dry run is an option of it). The `single-table backfill`
// command and the job of `addBackfill` call the same two. Needs the SDK (`@aws-sdk/client-dynamodb`)
// and imports nothing of the CDK.
export { planBackfill, BackfillPlanError } from './plan';
export type { BackfillModel, BackfillPlan, EntityPlan, SlotChange } from './plan';
export { backfill } from './run';
export type { BackfillCheckpoint, BackfillOptions, BackfillResult } from './run';
export type { BackfillCounts, ItemFailure, SegmentCheckpoint } from './worker';
export type { RetryPolicy } from '../runtime/table/retry';
