// The CLI as users run it: one bundled JavaScript file started as a process. Proves the shebang,
// exit codes of a real process, loading .ts manifests with the project's esbuild (and the message
// when there is no loader), and that the tool never loads aws-cdk-lib or constructs.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { ROOT } from './run';

const dir = mkdtempSync(join(tmpdir(), 'single-table-cli-'));
const cli = join(dir, 'single-table.js');
let inputs: string[] = [];

beforeAll(() => {
  const result = buildSync({
    entryPoints: [join(ROOT, 'lib/cli/index.ts')],
    outfile: cli,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    metafile: true,
    logLevel: 'silent',
  });
  inputs = Object.keys(result.metafile!.inputs);
  chmodSync(cli, 0o755);
});

const start = (args: string[], cwd = ROOT) => spawnSync(cli, args, { cwd, encoding: 'utf8', timeout: 60_000 });

test('the entry starts with a node shebang and runs as an executable', () => {
  expect(readFileSync(join(ROOT, 'lib/cli/index.ts'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  const r = start(['--help']);
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('Usage: single-table');
});

test('no aws-cdk-lib or constructs in the tool', () => {
  expect(inputs.length).toBeGreaterThan(5);
  expect(inputs.filter((i) => /node_modules\/(aws-cdk-lib|constructs)\//.test(i))).toEqual([]);
});

test('a .ts manifest is loaded with the project\'s esbuild; progress goes to stderr without a terminal too', () => {
  const r = start(['check', 'examples/manifest.ts']);
  expect(r.stderr).toBe('Loading examples/manifest.ts with esbuild...\n');
  expect(r.stdout).toBe('examples/manifest.ts: 0 error(s), 0 warning(s): valid\n');
  expect(r.status).toBe(0);
});

test('in a fresh project with esbuild and no TypeScript, a typed .ts manifest loads; one that does not parse names file and line', () => {
  const project = mkdtempSync(join(tmpdir(), 'single-table-user-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', 'esbuild'), join(project, 'node_modules', 'esbuild'));
  writeFileSync(join(project, 'manifest.ts'), [
    "type Kind = 'STRING' | 'NUMBER';",
    "const id: { type: Kind; required: boolean } = { type: 'STRING', required: true };",
    "export const manifest = { entities: { Note: { attributes: { id }, pk: 'NOTE#{id}', sk: 'NOTE#{id}' } } };",
  ].join('\n'));
  writeFileSync(join(project, 'broken.ts'), 'export const manifest = {\n  entities: {},\n};\nconst size: number = ;\n');
  const r = start(['check', 'manifest.ts'], project);
  expect(r).toMatchObject({ status: 0, stdout: 'manifest.ts: 0 error(s), 0 warning(s): valid\n' });
  const broken = start(['check', 'broken.ts'], project);
  expect(broken.status).toBe(1);
  expect(broken.stderr).toContain('broken.ts: loading failed: TypeScript cannot compile it:\n');
  expect(broken.stderr).toMatch(/broken\.ts:4:\d+: ERROR: Unexpected ";"/);
});

test('without esbuild or ts-node, a .ts manifest fails with what to install or do instead; exit codes reach the shell', () => {
  const project = mkdtempSync(join(tmpdir(), 'single-table-user-'));
  writeFileSync(join(project, 'manifest.ts'), 'export const manifest = { entities: {} };\n');
  const r = start(['check', 'manifest.ts'], project);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('manifest.ts: loading a .ts module needs esbuild (or ts-node), and neither is installed here. Install esbuild (npm install --save-dev esbuild');
  expect(r.stderr).toContain('compile the module to JavaScript (tsc), or write it as JSON');
  expect(start(['frob']).status).toBe(2);
  expect(start(['check', 'test/cli/fixtures/broken.json']).status).toBe(1);
});
