// How the commands print findings, and the model of a manifest for the commands that need a valid
// one (compiled by lib/manifest/compile.ts, the one compile entry): on errors they print every
// finding, located, and fail, pointing at `check`.
import { CliError } from './io';
import { checkManifest } from '../manifest/compile';
import { DiagnosticLevel, ManifestDiagnostic } from '../manifest/diagnostics';
import { SingleTableManifest } from '../model/manifest';
import { TableModel } from '../model/model';

/** One finding as the CLI prints it: level, code and location, then the fix. */
export function formatFinding(d: ManifestDiagnostic): string {
  return `${d.level === DiagnosticLevel.ERROR ? 'error' : 'warning'} [${d.code}] ${d.location}: ${d.message}\n  fix: ${d.fix}`;
}

/** The compiled model; throws a CliError listing every error when the manifest has any. */
export function modelOf(manifest: SingleTableManifest, file: string): TableModel {
  const { model, diagnostics } = checkManifest(manifest);
  const errors = diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR);
  if (!model || errors.length > 0) {
    throw new CliError(`${file}: the manifest has ${errors.length} error(s):\n${errors.map(formatFinding).join('\n')}\nRun 'single-table check ${file}' for warnings too.`);
  }
  return model;
}
