// The synthesized template `single-table local` creates its table from, so the local table is the
// one the stack deploys. The app is synthesized in a child process (the CLI itself never loads
// aws-cdk-lib), the way the CDK CLI does it: run it with CDK_OUTDIR set and read the assembly.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { TABLE_RESOURCE_TYPES } from '../../local/create-table';
import { CliError, CliIo, progress } from '../io';
import { resolveFromProject } from '../project';

/** A template with its file name. */
export interface FoundTemplate {
  /** Where it came from, e.g. `SingleTableExample.template.json`. */
  readonly name: string;
  /** The CloudFormation template. */
  readonly template: { Resources?: Record<string, { Type: string; Properties?: Record<string, any> }> };
}

/**
 * The template holding the table: `app` is a template file (.json), a cloud assembly folder
 * (cdk.out), or a CDK app (.ts/.js) to synthesize; without it, the `app` command of cdk.json.
 */
export function findTemplate(app: string | undefined, io: CliIo): FoundTemplate {
  if (app && extname(app) === '.json') return readTemplate(resolve(io.cwd, app));
  if (app && existsSync(resolve(io.cwd, app)) && statSync(resolve(io.cwd, app)).isDirectory()) return fromAssembly(resolve(io.cwd, app), app);
  return fromAssembly(synthesize(app, io), app ?? 'the cdk.json app');
}

function synthesize(app: string | undefined, io: CliIo): string {
  const outdir = mkdtempSync(join(tmpdir(), 'single-table-synth-'));
  const env = { ...process.env, CDK_OUTDIR: outdir, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: '1' };
  let result;
  if (app) {
    const path = resolve(io.cwd, app);
    if (!existsSync(path)) throw new CliError(`local: ${app}: no such file (looked for ${path})`);
    const args = [path];
    if (['.ts', '.cts'].includes(extname(path))) {
      const register = resolveFromProject('ts-node/register/transpile-only', io);
      if (!register) throw new CliError(`local: synthesizing ${app} needs ts-node; install it, or pass a synthesized template (.json) or cdk.out folder`);
      args.unshift('-r', register);
    }
    progress(io, `Synthesizing ${app}...`);
    result = spawnSync(process.execPath, args, { cwd: io.cwd, env, encoding: 'utf8' });
  } else {
    const command = cdkJsonApp(io);
    progress(io, `Synthesizing the cdk.json app (${command})...`);
    result = spawnSync(command, { cwd: io.cwd, env, encoding: 'utf8', shell: true });
  }
  if (result.status !== 0) {
    // Node prints the thrown error first and its stack after: the first lines say what went wrong.
    const output = `${result.stderr ?? ''}${result.error?.message ?? ''}`.split('\n').filter((l) => l.trim()).slice(0, 10).join('\n');
    throw new CliError(`local: synthesizing ${app ?? 'the cdk.json app'} failed (exit ${result.status}):\n${output}`);
  }
  return outdir;
}

function cdkJsonApp(io: CliIo): string {
  const path = join(io.cwd, 'cdk.json');
  const app = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { app?: unknown }).app : undefined;
  if (typeof app !== 'string') throw new CliError('local: no app given and no `app` in ./cdk.json; pass the app file, a cdk.out folder or a template');
  return app;
}

function fromAssembly(dir: string, label: string): FoundTemplate {
  const withTable = readdirSync(dir)
    .filter((f) => f.endsWith('.template.json'))
    .sort()
    .map((f) => readTemplate(join(dir, f)))
    .filter((t) => Object.values(t.template.Resources ?? {}).some((r) => TABLE_RESOURCE_TYPES.includes(r.Type)));
  if (withTable.length !== 1) {
    throw new CliError(`local: ${label}: expected one stack template with a DynamoDB table, found ${withTable.map((t) => t.name).join(', ') || 'none'}; pass that template (.json)`);
  }
  return withTable[0];
}

function readTemplate(path: string): FoundTemplate {
  if (!existsSync(path)) throw new CliError(`local: ${path}: no such template`);
  try {
    return { name: basename(path), template: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (e) {
    throw new CliError(`local: ${path}: not valid JSON: ${(e as Error).message}`);
  }
}
