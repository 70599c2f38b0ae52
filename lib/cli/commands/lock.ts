// `single-table lock <manifest> --lock FILE`: records the manifest's shard counts and strategies in the lock file,
// as a synth with `shardLock` does, after the same check; for apps that synthesize elsewhere.
import { writeFileSync } from 'node:fs';
import { applyShardLock, describeRecorded } from '../../manifest/shard-lock';
import { Command } from '../command';
import { formatFinding, modelOf } from '../compile';
import { CliError, EXIT } from '../io';
import { loadManifest } from '../load';
import { LOCK_HELP, LOCK_OPTIONS, readLock } from '../lock';

export const lockCommand: Command = {
  name: 'lock',
  summary: 'record the shard counts and strategies of every sharded GSI in the shard lock file',
  help: `Usage: single-table lock <manifest> --lock FILE [--lock-name NAME]

Checks the manifest against the shard lock file as the construct does at synth (every shard count
the file records must still be declared by shardCount or previousShardCounts, every strategy by
strategy or previousStrategies, and every recorded index must still be sharded), then adds the
manifest's new counts and strategies to the file (creating it). The file is changed only when one
is new. Commit it with the manifest.

Arguments:
  <manifest>         a .json file, or a .js/.ts module exporting the manifest

Options:
${LOCK_HELP}
  -h, --help         show this help

Exit code: 0 when the file is up to date or was updated, 1 on a manifest or lock error (the file
is left as it was), 2 on bad arguments.
`,
  options: LOCK_OPTIONS,
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    if (typeof flags.lock !== 'string') throw new CliError('lock: --lock FILE is required', EXIT.USAGE);
    const model = modelOf(loadManifest(file, io), file);
    const lock = readLock(flags.lock, flags['lock-name'] as string | undefined, io, false);
    const result = applyShardLock(model, lock.name, lock.text);
    if (result.diagnostics.length > 0) {
      for (const d of result.diagnostics) io.out(formatFinding(d) + '\n');
      io.out(`${flags.lock}: ${result.diagnostics.length} error(s); not changed\n`);
      return EXIT.FAILED;
    }
    if (result.text === undefined) {
      io.out(`${flags.lock}: up to date for '${lock.name}'\n`);
    } else {
      writeFileSync(lock.path, result.text);
      io.out(`${flags.lock}: recorded ${describeRecorded(result.recorded)} for '${lock.name}'; commit it\n`);
    }
    return EXIT.OK;
  },
};
