// `single-table lock <manifest> --lock FILE`: records the manifest's shard counts and strategies in the lock file,
// as a synth with `shardLock` does, after the same check; for apps that synthesize elsewhere.
import { writeFileSync } from 'node:fs';
import { DiagnosticLevel } from '../../manifest/diagnostics';
import { applyShardLock, describeRecorded, ShardLockEntry } from '../../manifest/shard-lock';
import { IndexType, TableModel } from '../../model/model';
import { Command } from '../command';
import { formatFinding, modelOf } from '../findings';
import { CliError, EXIT } from '../io';
import { loadManifest } from '../load';
import { LOCK_HELP, LOCK_OPTIONS, readLock } from '../lock';

/** What `lock` did to the file. */
type LockAction = 'created' | 'updated' | 'unchanged' | 'nothing-to-record' | 'refused';

export const lockCommand: Command = {
  name: 'lock',
  summary: 'record the shard counts and strategies of every sharded GSI in the shard lock file',
  help: `Usage: single-table lock <manifest> --lock FILE [--lock-name NAME] [--json]

Checks the manifest against the shard lock file as the construct does at synth (every shard count
the file records must still be declared by shardCount or previousShardCounts, every strategy by
strategy or previousStrategies, and every recorded index must still be sharded), then adds the
manifest's new counts and strategies to the file (creating it). The file is written only when
something is new; a manifest without a sharded GSI has nothing to record, and no file is created.
Commit the file with the manifest.

Arguments:
  <manifest>         a .json file, or a .js/.ts module exporting the manifest

Options:
${LOCK_HELP}
  --json             print what was done as JSON: {"file", "entry", "action", "written",
                     "recorded", "sharded", "errors"}; action is created, updated, unchanged,
                     nothing-to-record or refused
  -h, --help         show this help

Exit code: 0 when the file is up to date or was updated, 1 on a manifest or lock error (the file
is left as it was), 2 on bad arguments.
`,
  options: { ...LOCK_OPTIONS, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    if (typeof flags.lock !== 'string') throw new CliError('lock: --lock FILE is required', EXIT.USAGE);
    const model = modelOf(loadManifest(file, io), file);
    const lock = readLock(flags.lock, flags['lock-name'] as string | undefined, io, false);
    const result = applyShardLock(model, lock.name, lock.text);
    const sharded = shardedIndexes(model);
    let action: LockAction;
    if (result.diagnostics.length > 0) action = 'refused';
    else if (result.text !== undefined) action = lock.text === undefined ? 'created' : 'updated';
    else action = Object.keys(sharded).length === 0 ? 'nothing-to-record' : 'unchanged';
    if (result.text !== undefined && action !== 'refused') writeFileSync(lock.path, result.text);

    if (flags.json) {
      const errors = result.diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR);
      const report = { file: flags.lock, entry: lock.name, action, written: action === 'created' || action === 'updated', recorded: result.recorded, sharded, errors };
      io.out(JSON.stringify(report, null, 2) + '\n');
    } else {
      for (const d of result.diagnostics) io.out(formatFinding(d) + '\n');
      io.out(`${flags.lock}: ${sentence(action, result.diagnostics.length, result.recorded, sharded, lock.name)}\n`);
    }
    return action === 'refused' ? EXIT.FAILED : EXIT.OK;
  },
};

/** What the manifest declares for each sharded GSI: the history a lock entry holds. */
function shardedIndexes(model: TableModel): ShardLockEntry {
  const out: { [index: string]: { counts: number[]; strategies: string[] } } = {};
  for (const index of Object.values(model.indexes)) {
    if (index.type === IndexType.GSI && index.shards) out[index.name] = { counts: index.shards.counts, strategies: index.shards.strategies };
  }
  return out;
}

function sentence(action: LockAction, errors: number, recorded: ShardLockEntry, sharded: ShardLockEntry, entry: string): string {
  switch (action) {
    case 'refused': return `${errors} error(s); not changed`;
    case 'created': return `created, recording ${describeRecorded(recorded)} for '${entry}'; commit it`;
    case 'updated': return `recorded ${describeRecorded(recorded)} for '${entry}'; commit it`;
    case 'nothing-to-record': return `no GSI of the manifest is sharded, so there is nothing to record for '${entry}'; the file was not written`;
    default: return `already records ${describeRecorded(sharded)} for '${entry}'; not changed`;
  }
}
