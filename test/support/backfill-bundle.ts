// Builds the backfill's segment Lambda bundle with the compile task's own command (read from
// .projen/tasks.json), so a test synthesizing SingleTableBackfill stages what the package ships,
// built from the current sources.
import { execSync } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';
import { SEGMENT_BUNDLE } from '../../lib/construct/backfill/code';

const ROOT = path.join(__dirname, '..', '..');

export function buildSegmentBundle(): string {
  const tasks = JSON.parse(readFileSync(path.join(ROOT, '.projen', 'tasks.json'), 'utf8'));
  const step = (tasks.tasks.compile.steps as { exec?: string }[]).find((s) => s.exec?.includes('backfill-segment/index.js'));
  if (!step) throw new Error('the compile task has no step bundling the backfill segment Lambda');
  execSync(step.exec!, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` } });
  return SEGMENT_BUNDLE;
}
