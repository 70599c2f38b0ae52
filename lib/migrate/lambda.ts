// The entry of the backfill's segment Lambda (bundled at compile into out/backfill-segment/index.js;
// the construct puts it beside the compiled model files of the table). One invocation works one
// scan segment from the checkpoint in the state it is given and returns the next state: the same
// shape, with the new checkpoint, `done` and the counts so far. The items that could not be fixed
// are logged, not returned, so the state stays small (Step Functions passes at most 256 KB).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { segmentHandler, SegmentEvent } from './handler';
import {
  BACKFILL_MAX_WCU_ENV, BACKFILL_MODEL_FILE, BACKFILL_PREVIOUS_MODEL_FILE, BACKFILL_RESERVE_ENV, BACKFILL_TABLE_ENV,
} from './lambda-environment';
import type { BackfillCounts, SegmentCheckpoint } from './worker';
import { loadModel } from '../runtime/table/load-model';

/** The state of one segment's loop: the event of the next invocation. */
export interface SegmentState extends SegmentEvent {
  /** Whether the segment is done; the loop ends there. */
  readonly done: boolean;
  /** Counts of the segment so far. */
  readonly counts: BackfillCounts;
}

function modelFile(name: string) {
  return loadModel(JSON.parse(readFileSync(join(__dirname, name), 'utf8')));
}

function numberFrom(name: string): number | undefined {
  const text = process.env[name];
  return text === undefined || text === '' ? undefined : Number(text);
}

const previousFile = join(__dirname, BACKFILL_PREVIOUS_MODEL_FILE);
const work = segmentHandler({
  model: modelFile(BACKFILL_MODEL_FILE),
  previous: existsSync(previousFile) ? modelFile(BACKFILL_PREVIOUS_MODEL_FILE) : undefined,
  tableName: process.env[BACKFILL_TABLE_ENV]!,
  maxWriteUnitsPerSecond: numberFrom(BACKFILL_MAX_WCU_ENV),
  reserveMs: numberFrom(BACKFILL_RESERVE_ENV),
});

/** Works the segment of `event` from its checkpoint until it is done or the time runs short. */
export async function handler(event: SegmentEvent, context: { getRemainingTimeInMillis(): number }): Promise<SegmentState> {
  const { failures, ...position } = await work({ segment: event.segment, totalSegments: event.totalSegments, checkpoint: event.checkpoint }, context);
  for (const failure of failures) console.error(JSON.stringify({ message: 'item not fixed', segment: event.segment, ...failure }));
  const checkpoint: SegmentCheckpoint = position;
  return { segment: event.segment, totalSegments: event.totalSegments, checkpoint, done: position.done, counts: position.counts };
}
