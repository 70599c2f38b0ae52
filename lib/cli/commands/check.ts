// `single-table check <manifest>`: every manifest validation the construct runs, without a CDK app,
// and with --lock the construct's shard lock check too.
import { resolve } from 'node:path';
import { accessFileState, accessModule, accessModuleRuntime, defaultAccessFile } from '../../generate/access-module';
import { checkManifest } from '../../manifest/compile';
import { DiagnosticLevel, ManifestDiagnostic } from '../../manifest/diagnostics';
import { applyShardLock, describeRecorded } from '../../manifest/shard-lock';
import { defaultModelFile, modelFileState } from '../../model/document';
import { TableModel } from '../../model/model';
import { Command, FlagValues } from '../command';
import { formatFinding } from '../findings';
import { CliIo, EXIT } from '../io';
import { loadManifest } from '../load';
import { LOCK_HELP, LOCK_OPTIONS, readLock } from '../lock';

export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a manifest: errors and warnings with their location',
  help: `Usage: single-table check <manifest> [--json] [--lock FILE [--lock-name NAME]] [--model FILE]

Runs every validation of the manifest (shape and types, names, key templates, key collisions,
projections, access patterns, sharding, hot partitions and LSI item collections) without a CDK app,
and prints each error and warning with where it is and how to fix it (docs/validation.md lists
every code). With --lock, also the shard lock check of the construct: a shard count the lock file
records that shardCount and previousShardCounts no longer declare, a strategy that strategy and
previousStrategies no longer declare, or a recorded index that is no longer sharded, is an error;
counts or strategies not recorded yet are a warning (SHARD_LOCK_OUTDATED). When the compiled model
file that 'single-table generate' writes exists (beside the manifest, or --model), a file that no
longer matches the manifest is an error (MODEL_STALE): a function bundling it would refuse to start
against a table deployed from the manifest.

Arguments:
  <manifest>         a .json file, or a .js/.ts module exporting the manifest (as \`manifest\`,
                     the default export, or its only export)

Options:
  --json             print {"valid", "errors", "warnings"} as JSON
  --model FILE       the compiled model file to compare (default: <manifest>.model.json beside
                     the manifest, when it exists)
${LOCK_HELP}
  -h, --help         show this help

Exit code: 0 when there is no error (warnings allowed), 1 on errors or when the manifest or lock
file cannot be loaded, 2 on bad arguments.
`,
  options: { json: { type: 'boolean' }, model: { type: 'string' }, ...LOCK_OPTIONS },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const { model, diagnostics } = checkManifest(loadManifest(file, io));
    if (model && typeof flags.lock === 'string') diagnostics.push(...lockFindings(model, flags, io));
    if (model) diagnostics.push(...modelFileFindings(model, file, flags, io), ...accessFileFindings(model, file, io));
    const errors = diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR);
    const warnings = diagnostics.filter((d) => d.level === DiagnosticLevel.WARNING);
    if (flags.json) {
      io.out(JSON.stringify({ valid: errors.length === 0, errors, warnings }, null, 2) + '\n');
    } else {
      for (const d of diagnostics) io.out(formatFinding(d) + '\n');
      io.out(`${file}: ${errors.length} error(s), ${warnings.length} warning(s)${errors.length === 0 ? ': valid' : ''}\n`);
    }
    return errors.length === 0 ? EXIT.OK : EXIT.FAILED;
  },
};

/** The construct's lock check, and a warning for counts or strategies the file does not record yet. */
function lockFindings(model: TableModel, flags: FlagValues, io: CliIo): ManifestDiagnostic[] {
  const lockFile = flags.lock as string;
  const lock = readLock(lockFile, flags['lock-name'] as string | undefined, io, true);
  const { diagnostics, recorded } = applyShardLock(model, lock.name, lock.text);
  if (Object.keys(recorded).length === 0 || diagnostics.length > 0) return diagnostics;
  return [{
    level: DiagnosticLevel.WARNING,
    code: 'SHARD_LOCK_OUTDATED',
    location: `shard lock '${lock.name}'`,
    message: `${describeRecorded(recorded)} not recorded in ${lockFile} yet`,
    fix: `synthesize the app, or run 'single-table lock <manifest> --lock ${lockFile}', and commit ${lockFile}`,
  }];
}

/** MODEL_STALE when the compiled model file is not what the manifest compiles to (or, named by --model, is missing). */
function modelFileFindings(model: TableModel, manifestFile: string, flags: FlagValues, io: CliIo): ManifestDiagnostic[] {
  const named = typeof flags.model === 'string' ? flags.model : undefined;
  const file = named ?? defaultModelFile(manifestFile);
  const found = modelFileState(resolve(io.cwd, file), model);
  if (found.state === 'current' || (found.state === 'missing' && named === undefined)) return [];
  return [{
    level: DiagnosticLevel.ERROR,
    code: 'MODEL_STALE',
    location: `compiled model ${file}`,
    message: found.state === 'missing' ? 'does not exist' : `is out of date: ${found.reason}`,
    fix: `run 'single-table generate ${manifestFile}${named ? ` --out ${named}` : ''}' and commit ${file}`,
  }];
}

/** MODEL_STALE when the access module beside the manifest (`generate --access`) is not what the manifest generates. */
function accessFileFindings(model: TableModel, manifestFile: string, io: CliIo): ManifestDiagnostic[] {
  const file = defaultAccessFile(manifestFile);
  const path = resolve(io.cwd, file);
  const expected = accessModule(model, { file: path, manifestFile: resolve(io.cwd, manifestFile), runtime: accessModuleRuntime(path) });
  const found = accessFileState(path, expected);
  if (found.state !== 'stale') return [];
  return [{
    level: DiagnosticLevel.ERROR,
    code: 'MODEL_STALE',
    location: `access module ${file}`,
    message: `is out of date: ${found.reason}`,
    fix: `run 'single-table generate ${manifestFile} --access' and commit ${file}`,
  }];
}
