// The synthesized template `single-table local` creates its table from, so the local table is the
// one the stack deploys. The app is synthesized in a child process (the CLI itself never loads
// aws-cdk-lib), the way the CDK CLI does it: run it with CDK_OUTDIR set and read the assembly.
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { NamedTemplate, readTemplateFile, templateFromAssembly } from '../../engine/templates';
import { CliError, CliIo, progress } from '../io';
import { seconds } from './engine';
import { cdkJson, projectContext, resolveFromProject } from '../project';

/** aws-cdk-lib's context key naming the stacks whose assets are bundled (none here). */
const BUNDLING_STACKS = 'aws:cdk:bundling-stacks';

/** A template with its file name. */
export type FoundTemplate = NamedTemplate;

/**
 * The template holding the table: `app` is a template file (.json), a cloud assembly folder
 * (cdk.out), or a CDK app (.ts/.js) to synthesize; without it, the `app` command of cdk.json.
 */
export function findTemplate(app: string | undefined, io: CliIo): FoundTemplate {
  if (app && extname(app) === '.json') return readTemplate(resolve(io.cwd, app));
  if (app && existsSync(resolve(io.cwd, app)) && statSync(resolve(io.cwd, app)).isDirectory()) return fromAssembly(resolve(io.cwd, app), app);
  const outdir = synthesize(app, io);
  try {
    return fromAssembly(outdir, app ?? 'the cdk.json app');
  } finally {
    rmSync(outdir, { recursive: true, force: true }); // the template is read: nothing of the synth is kept
  }
}

function synthesize(app: string | undefined, io: CliIo): string {
  const { spawn, label } = appCommand(app, io);
  // The context the CDK CLI would give the app. Only the template is read: no asset bundling, and
  // no CloudFormation validation of the template (seconds; the `cdk synth` that deploys runs it),
  // unless CDK_VALIDATION asks for it.
  const context = { ...projectContext(io), [BUNDLING_STACKS]: [] };
  const outdir = mkdtempSync(join(tmpdir(), 'single-table-synth-'));
  const env = {
    ...process.env,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify(context),
    CDK_VALIDATION: process.env.CDK_VALIDATION ?? 'false',
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: '1',
  };
  const started = Date.now();
  progress(io, `Synthesizing ${label}...`);
  const result = spawn(env);
  if (result.status !== 0) {
    rmSync(outdir, { recursive: true, force: true });
    // Node prints the thrown error first and its stack after: the first lines say what went wrong.
    const output = `${result.stderr ?? ''}${result.error?.message ?? ''}`.split('\n').filter((l) => l.trim()).slice(0, 10).join('\n');
    throw new CliError(`local: synthesizing ${app ?? 'the cdk.json app'} failed (exit ${result.status}):\n${output}`);
  }
  progress(io, `  synthesized in ${seconds(Date.now() - started)}`);
  return outdir;
}

/** How to run the app (an app file, else cdk.json's app command), checked before anything is written. */
function appCommand(app: string | undefined, io: CliIo): { label: string; spawn(env: NodeJS.ProcessEnv): SpawnSyncReturns<string> } {
  if (!app) {
    const command = cdkJsonApp(io);
    return { spawn: (env) => spawnSync(command, { cwd: io.cwd, env, encoding: 'utf8', shell: true }), label: `the cdk.json app (${command})` };
  }
  const path = resolve(io.cwd, app);
  if (!existsSync(path)) throw new CliError(`local: ${app}: no such file (looked for ${path})`);
  const args = [path];
  if (['.ts', '.cts'].includes(extname(path))) {
    const register = resolveFromProject('ts-node/register/transpile-only', io);
    if (!register) throw new CliError(`local: synthesizing ${app} needs ts-node; install it, or pass a synthesized template (.json) or cdk.out folder`);
    args.unshift('-r', register);
  }
  return { spawn: (env) => spawnSync(process.execPath, args, { cwd: io.cwd, env, encoding: 'utf8' }), label: app };
}

function cdkJsonApp(io: CliIo): string {
  const app = cdkJson(io).app;
  if (typeof app !== 'string') throw new CliError('local: no app given and no `app` in ./cdk.json; pass the app file, a cdk.out folder or a template');
  return app;
}

function fromAssembly(dir: string, label: string): FoundTemplate {
  return cliError(() => templateFromAssembly(dir, label));
}

function readTemplate(path: string): FoundTemplate {
  return cliError(() => readTemplateFile(path));
}

function cliError<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new CliError(`local: ${(e as Error).message}`);
  }
}
