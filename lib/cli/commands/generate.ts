// `single-table generate <manifest>`: compiles the manifest once, at build time, into the model
// file a Lambda imports (lib/model/format.ts), so the function never resolves the manifest.
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { accessFileState, accessModule, accessModuleRuntime, defaultAccessFile } from '../../generate/access-module';
import { defaultModelFile, modelFileState, modelJson } from '../../model/document';
import { Command } from '../command';
import { modelOf } from '../findings';
import { EXIT } from '../io';
import { loadManifest } from '../load';

export const generateCommand: Command = {
  name: 'generate',
  summary: 'write the compiled model file (<manifest>.model.json) that Lambda handlers import',
  help: `Usage: single-table generate <manifest> [--out FILE] [--access [--runtime SPEC]] [--check] [--json]

Validates the manifest as the construct does at synth, then writes its compiled model: JSON with
a format name and version (JSON Schema: cdk-single-table/lib/model/schema.json) holding every
fact the runtime reads, and the manifest's fingerprint. A handler imports it and passes it to
openTable; the runtime loads it without resolving the manifest, and at cold start compares its
fingerprint with the one the stack deployed (SINGLE_TABLE_FINGERPRINT). Run it after every change
of the manifest and commit the file; 'single-table check' reports a file that is out of date.

Arguments:
  <manifest>         a .json file, or a .js/.ts module exporting the manifest

Options:
  --out FILE         where to write (default: beside the manifest, orders.ts -> orders.model.json)
  --access           also write the typed access module (<manifest>.access.ts, beside the
                     manifest): the runtime's putItem, getItem and query, each holding only
                     the part of the model it reads, so a handler's bundle carries only the
                     functions it calls (docs/access-modules.md)
  --runtime SPEC     what the access module imports the runtime as (default: what the file
                     imports now, else cdk-single-table/runtime)
  --check            write nothing; exit 1 when a file is missing or out of date (for CI)
  --json             print { file, action, fingerprint, reason? } per file (action: unchanged,
                     written, missing or stale)
  -h, --help         show this help

Exit code: 0 when the file was written or is up to date, 1 on manifest errors or (--check) an
out-of-date file, 2 on bad arguments.
`,
  options: { out: { type: 'string' }, check: { type: 'boolean' }, json: { type: 'boolean' }, access: { type: 'boolean' }, runtime: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const model = modelOf(loadManifest(file, io), file);
    const out = resolve(io.cwd, typeof flags.out === 'string' ? flags.out : defaultModelFile(file));
    const files: GeneratedFile[] = [{ path: out, expected: modelJson(model), state: modelFileState(out, model) }];
    if (flags.access) {
      const path = resolve(io.cwd, defaultAccessFile(file));
      const runtime = typeof flags.runtime === 'string' ? flags.runtime : accessModuleRuntime(path);
      const expected = accessModule(model, { file: path, manifestFile: resolve(io.cwd, file), runtime });
      files.push({ path, expected, state: accessFileState(path, expected) });
    }
    let failed = false;
    for (const f of files) {
      const shown = relative(io.cwd, f.path) || f.path;
      const report = (action: string, text: string, reason?: string) =>
        io.out(flags.json ? JSON.stringify({ file: shown, action, fingerprint: model.fingerprint, ...(reason ? { reason } : {}) }, null, 2) + '\n' : text);
      if (f.state.state === 'current') {
        report('unchanged', `${shown}: up to date (manifest ${model.fingerprint})\n`);
      } else if (flags.check) {
        const reason = 'reason' in f.state ? f.state.reason : undefined;
        const command = `single-table generate ${file}${flags.access ? ' --access' : ''}`;
        report(f.state.state, `${shown}: ${reason === undefined ? 'missing' : `out of date: ${reason}`}; run '${command}'\n`, reason);
        failed = true;
      } else {
        writeFileSync(f.path, f.expected);
        report('written', `${shown}: written (manifest ${model.fingerprint}); commit it with the manifest\n`);
      }
    }
    return failed ? EXIT.FAILED : EXIT.OK;
  },
};

/** One file generate writes: where, what it should hold, and how the file on disk relates to that. */
interface GeneratedFile {
  readonly path: string;
  readonly expected: string;
  readonly state: { readonly state: 'current' | 'missing' } | { readonly state: 'stale'; readonly reason: string };
}
