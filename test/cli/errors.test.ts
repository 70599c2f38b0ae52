// Bad command lines and bad manifests: a clear message and the documented exit code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from './run';
import { COMMANDS } from '../../lib/cli';

test('no command: the usage on stderr, exit 2', async () => {
  const r = await run();
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Usage: single-table <command> <manifest> [options]');
});

test('--help lists every command, exit 0', async () => {
  const r = await run('--help');
  expect(r.code).toBe(0);
  for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.name}`);
});

test.each(COMMANDS.map((c) => c.name))('%s --help: its usage, exit 0', async (name) => {
  const r = await run(name, '--help');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(new RegExp(`^Usage: single-table ${name} `));
});

test('every command\'s usage lists every flag it takes', () => {
  for (const c of COMMANDS) {
    const usage = c.help.split('\n\n')[0];
    for (const flag of Object.keys(c.options)) expect(`${c.name}: ${usage}`).toMatch(new RegExp(`^${c.name}: [\\s\\S]*\\[?--${flag}\\b`));
  }
});

test('--version prints the package\'s version', async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(await run('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
});

test('an unknown command: exit 2, naming the commands', async () => {
  expect(await run('deploy', 'x.json')).toEqual({
    code: 2,
    stdout: '',
    stderr: "single-table: unknown command 'deploy'; commands: docs, cost, advise, check, lock, generate, local, backfill\nRun 'single-table --help' for usage.\n",
  });
});

test('a misspelled command or flag: the one meant, then the list', async () => {
  const names = COMMANDS.map((c) => c.name).join(', ');
  expect(await run('dcos', 'examples/manifest.ts')).toEqual({
    code: 2,
    stdout: '',
    stderr: `single-table: unknown command 'dcos'; did you mean 'docs'? commands: ${names}\nRun 'single-table --help' for usage.\n`,
  });
  const r = await run('docs', 'examples/manifest.ts', '--fromat', 'html');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^single-table: docs: Unknown option '--fromat'; did you mean '--format'\? options: --format VALUE, /);
});

test('an unknown flag: exit 2, listing the flags', async () => {
  const r = await run('docs', 'examples/manifest.ts', '--outdir', 'x');
  expect(r.code).toBe(2);
  expect(r.stderr).toBe("single-table: docs: Unknown option '--outdir'; options: --format VALUE, --out VALUE, --json, --data VALUE, --samples VALUE, --help\nRun 'single-table docs --help' for usage.\n");
});

test('a flag without its value, and a missing or extra argument: exit 2', async () => {
  expect((await run('docs', 'examples/manifest.ts', '--out')).code).toBe(2);
  expect(await run('check')).toEqual({
    code: 2,
    stdout: '',
    stderr: 'single-table: check: missing <manifest>: a .json file, or a .js/.ts module exporting the manifest (as `manifest`, '
      + 'the default export, or its only export)\n'
      + 'Usage: single-table check <manifest> [--json] [--lock FILE [--lock-name NAME]] [--model FILE]\n'
      + "Run 'single-table check --help' for more.\n",
  });
  expect(await run('cost', 'a.json', 'b.json')).toMatchObject({ code: 2, stderr: expect.stringContaining('expected 1 argument(s), got 2 (a.json b.json)') });
});

test('a missing manifest file: exit 1, naming the path looked at', async () => {
  const r = await run('check', 'nope/manifest.json');
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^single-table: nope\/manifest\.json: no such file \(looked for .*nope\/manifest\.json\)\n$/);
});

test('invalid JSON: exit 1 with the parser message', async () => {
  const r = await run('check', 'test/cli/fixtures/bad.json');
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('test/cli/fixtures/bad.json: not valid JSON:');
});

test('a module whose export cannot be told apart: exit 1, listing the exports', async () => {
  const r = await run('check', 'test/cli/fixtures/two-exports.js');
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('cannot tell which export is the manifest: found first, second; export it as `manifest` or as the default export');
});

test('a file type it cannot load, and a JSON value that is not a manifest: exit 1', async () => {
  expect(await run('check', 'README.md')).toMatchObject({ code: 1, stderr: expect.stringContaining('expected a .json, .js or .ts file') });
  expect(await run('check', 'test/cli/fixtures/samples.json')).toMatchObject({ code: 1, stdout: expect.stringContaining('error [MANIFEST_SHAPE] manifest: has no `entities` map') });
});

test('a .ts manifest that does not compile: exit 1 with every TypeScript diagnostic, file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-ts-'));
  const file = join(dir, 'manifest.ts');
  writeFileSync(file, "export const manifest = {\n  entities: {\n    A: { attributes: {}, pk: 'A', sk: 'A'\n  },\n};\nconst size: number = ;\n");
  // The CLI as a process under ts-node, the way `npx single-table` loads a .ts manifest.
  const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'lib/cli/index.ts', 'check', file], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`${file}: loading failed: TypeScript cannot compile it:`);
  const diagnostics = r.stderr.split('\n').filter((line) => /manifest\.ts\(\d+,\d+\): error TS\d+/.test(line));
  expect(diagnostics.length).toBeGreaterThanOrEqual(2);
  expect(r.stderr).toMatch(/manifest\.ts\(6,\d+\): error TS1109: Expression expected/);
}, 120_000);
