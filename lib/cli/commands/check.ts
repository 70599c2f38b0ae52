// `single-table check <manifest>`: every manifest validation the construct runs, without a CDK app.
import { checkManifest } from '../../manifest/compile';
import { DiagnosticLevel } from '../../manifest/diagnostics';
import { Command } from '../command';
import { formatFinding } from '../compile';
import { EXIT } from '../io';
import { loadManifest } from '../load';

export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a manifest: errors and warnings with their location',
  help: `Usage: single-table check <manifest> [--json]

Runs every validation of the manifest (names, key templates, key collisions, projections, access
patterns, sharding) without a CDK app, and prints each error and warning with where it is and how
to fix it.

Arguments:
  <manifest>   a .json file, or a .js/.ts module exporting the manifest (as \`manifest\`, the
               default export, or its only export)

Options:
  --json       print {"valid", "errors", "warnings"} as JSON
  -h, --help   show this help

Exit code: 0 when there is no error (warnings allowed), 1 on errors or when the manifest cannot be
loaded, 2 on bad arguments.
`,
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const { diagnostics } = checkManifest(loadManifest(file, io));
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
