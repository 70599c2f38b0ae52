// The construct's side of the shard lock (lib/manifest/shard-lock.ts): read the file at synth,
// fail on counts or strategies the manifest dropped, and write the new ones so they are committed with the change.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiagnosticLevel, ManifestDiagnostic } from '../manifest/diagnostics';
import { applyShardLock, describeRecorded } from '../manifest/shard-lock';
import type { TableModel } from '../model/model';

/**
 * Checks the model against the lock file's entry `name`. Without errors, new counts and strategies are written to
 * the file (created if absent) and reported as a SHARD_LOCK_UPDATED warning: the file changed and
 * must be committed, or the next deployment's check would not know them.
 */
export function syncShardLock(model: TableModel, file: string, name: string): ManifestDiagnostic[] {
  const path = resolve(file);
  const result = applyShardLock(model, name, existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  const located = result.diagnostics.map((d) => ({ ...d, message: `${d.message} (${file})` }));
  if (result.text === undefined) return located;
  writeFileSync(path, result.text);
  return [{
    level: DiagnosticLevel.WARNING,
    code: 'SHARD_LOCK_UPDATED',
    location: `shard lock '${name}'`,
    message: `recorded ${describeRecorded(result.recorded)} in ${file}`,
    fix: `commit ${file} with this manifest change`,
  }];
}
