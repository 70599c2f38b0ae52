// Bad command lines and bad manifests: a clear message and the documented exit code.
import { run } from './run';
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

test('an unknown command: exit 2, naming the commands', async () => {
  expect(await run('deploy', 'x.json')).toEqual({
    code: 2,
    stdout: '',
    stderr: "single-table: unknown command 'deploy'; commands: docs, cost, check, lock, local, backfill\nRun 'single-table --help' for usage.\n",
  });
});

test('an unknown flag: exit 2, listing the flags', async () => {
  const r = await run('docs', 'examples/manifest.ts', '--outdir', 'x');
  expect(r.code).toBe(2);
  expect(r.stderr).toBe("single-table: docs: Unknown option '--outdir'; options: --out VALUE, --json, --samples VALUE, --help\nRun 'single-table docs --help' for usage.\n");
});

test('a flag without its value, and a missing or extra argument: exit 2', async () => {
  expect((await run('docs', 'examples/manifest.ts', '--out')).code).toBe(2);
  expect(await run('check')).toMatchObject({ code: 2, stderr: expect.stringContaining('check: expected 1 argument(s), got 0') });
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
