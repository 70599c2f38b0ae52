// README's quick start, run as written: every block marked `<!-- quick-start: run -->` is run line by
// line and every block marked `<!-- quick-start: file NAME -->` is written to NAME, in README order,
// in a new folder. The one change: `cdk-single-table` in an install line becomes the tarball
// `npm pack` makes of this repository (the compiled package, as the registry would serve it). Then
// docs/testing.md's blocks, which continue the quick start in the same folder, run the same way:
// its jest tests invoke the Lambda `cdk synth` bundled on DynamoDB Local. Needs the compiled
// package (out/): `npm test` compiles first.
import { execFile, spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { homedir, tmpdir } from 'os';
import * as path from 'path';
import { promisify } from 'util';
import * as ts from 'typescript';
import { packagedRuntime, ROOT } from '../support/bundle';

const run = promisify(execFile);

/** One marked block of the README: a shell block to run or a file to write. */
interface QuickStartStep {
  readonly kind: 'run' | 'file';
  /** The file name, for `file` steps. */
  readonly file?: string;
  readonly body: string;
}

/** A page's marked blocks in order: `<!-- quick-start: run -->` or `<!-- quick-start: file NAME -->` before a fence. */
function quickStartSteps(page: string): QuickStartStep[] {
  return [...page.matchAll(/^<!-- quick-start: (run|file (\S+)) -->\n```\w*\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: m[2] ? 'file' : 'run',
    file: m[2],
    body: m[3],
  }));
}

let work: string;
let project: string;
let template: any;
let tarball: string;
let env: NodeJS.ProcessEnv;

/** npm offline from its cache where it can; the CDK CLI without notices, telemetry or version check. */
function environment(home: string): NodeJS.ProcessEnv {
  const { CDK_VALIDATION: _off, ...user } = process.env; // aws-cdk-lib's template validation on, as a user has it
  return {
    ...user,
    HOME: home,
    npm_config_cache: process.env.npm_config_cache ?? path.join(homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: '1',
  };
}

/** Runs a page's steps in the project: files written, command lines run; returns what the commands printed. */
async function runSteps(page: string, steps: QuickStartStep[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  let output = '';
  for (const step of steps) {
    if (step.kind === 'file') {
      writeFileSync(path.join(project, step.file!), step.body);
      continue;
    }
    for (const line of step.body.split('\n').map((l) => l.replace(/\s#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'))) {
      // The package is not fetched from the registry: the install line gets this repository's tarball.
      const command = /^npm (install|i)\b/.test(line) ? line.replace(/(?<=\s)cdk-single-table(?=\s|$)/, tarball) : line;
      try {
        const { stdout, stderr } = await run('sh', ['-c', command], { cwd: project, env: { ...env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 });
        output += `${stdout}\n${stderr}\n`;
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string };
        throw new Error(`${page}: \`${line}\` failed:\n${err.stderr ?? ''}${err.stdout ?? ''}`);
      }
    }
  }
  return output;
}

beforeAll(async () => {
  packagedRuntime(); // fails with "compile first" when out/ is missing
  work = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-consumer-'));
  project = path.join(work, 'project');
  const home = path.join(work, 'home');
  mkdirSync(project);
  mkdirSync(home);
  // The CDK CLI reads user settings from ~/.cdk.json: no notices (they are fetched from the network).
  writeFileSync(path.join(home, '.cdk.json'), JSON.stringify({ notices: false }));
  env = environment(home);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  tarball = path.join(work, JSON.parse(stdout)[0].filename);

  const steps = quickStartSteps(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  expect(steps.map((s) => s.file ?? s.kind)).toEqual(QUICK_START_FILES);
  expect(steps[0].body).toMatch(/^npm install cdk-single-table /m);
  await runSteps('README quick start', steps);
  template = JSON.parse(readFileSync(path.join(project, 'cdk.out', 'Shop.template.json'), 'utf8'));
}, 280_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const QUICK_START_FILES = ['run', 'cdk.json', 'tsconfig.json', 'manifest.ts', 'app.ts', 'orders.ts', 'run'];

function resourcesOfType(type: string): any[] {
  return Object.values(template.Resources as Record<string, any>).filter((r) => r.Type === type);
}

test('cdk synth: the table with its LSIs and both GSIs, and the Lambda on Node.js 22 with an ES module bundle', () => {
  const [table] = resourcesOfType('AWS::DynamoDB::GlobalTable');
  expect(table.Properties.GlobalSecondaryIndexes.map((i: any) => i.IndexName)).toEqual(['GSI1', 'GSI2']);
  expect(table.Properties.LocalSecondaryIndexes).toHaveLength(5);
  const [fn] = resourcesOfType('AWS::Lambda::Function');
  expect(fn.Properties.Runtime).toBe('nodejs22.x');
  expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(['SINGLE_TABLE_FINGERPRINT', 'SINGLE_TABLE_MODEL', 'TABLE_NAME']);
  // The model layer, one JSON file where SINGLE_TABLE_MODEL points.
  expect(fn.Properties.Layers).toHaveLength(1);
  const [layer] = resourcesOfType('AWS::Lambda::LayerVersion');
  const layerDir = path.join(project, 'cdk.out', `asset.${layer.Properties.Content.S3Key.replace(/\.zip$/, '')}`);
  const model = JSON.parse(readFileSync(path.join(layerDir, fn.Properties.Environment.Variables.SINGLE_TABLE_MODEL.replace(/^\/opt\//, '')), 'utf8'));
  expect(model.model.fingerprint).toBe(fn.Properties.Environment.Variables.SINGLE_TABLE_FINGERPRINT);
  const bundles = readdirSync(path.join(project, 'cdk.out')).filter((d) => existsSync(path.join(project, 'cdk.out', d, 'index.mjs')));
  expect(bundles).toHaveLength(1);
  // The SDK is left to the Lambda runtime, and neither CDK code nor the validation rules are bundled.
  const code = readFileSync(path.join(project, 'cdk.out', bundles[0], 'index.mjs'), 'utf8');
  expect(code).toMatch(/from\s*"@aws-sdk\/client-dynamodb"/);
  expect(code).not.toMatch(/aws-cdk-lib|SHARD_LOCK_|KEY_COLLISION/);
  // aws-cdk-lib checked every resource against its CloudFormation schema and found nothing.
  const report = JSON.parse(readFileSync(path.join(project, 'cdk.out', 'validation-report.json'), 'utf8'));
  expect(report.pluginReports.flatMap((r: { violations: unknown[] }) => r.violations)).toEqual([]);
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

test('docs/testing.md continues the quick start: its jest tests run the synthesized Lambda and the table on DynamoDB Local, and leave no engine running', async () => {
  const steps = quickStartSteps(readFileSync(path.join(ROOT, 'docs', 'testing.md'), 'utf8'));
  expect(steps.map((s) => s.file ?? s.kind)).toEqual(['run', 'jest.config.js', 'orders.test.ts', 'table.test.ts', 'run']);
  // It adds files of its own and never rewrites one the quick start wrote.
  expect(steps.filter((s) => QUICK_START_FILES.includes(s.file!))).toEqual([]);
  // Other engines may run on this machine (the test run's own, other runs): the example's JVMs are
  // told apart by a variable in the environment they inherit.
  const mark = `${process.pid}-${Date.now()}`;
  const output = await runSteps('docs/testing.md', steps, { SINGLE_TABLE_EXAMPLE_RUN: mark });
  expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
  expect(jvmsMarked(`SINGLE_TABLE_EXAMPLE_RUN=${mark}`)).toEqual([]);
}, 600_000);

/** Type errors of the quick start's Lambda (and the manifest it imports) under a module setting. */
function typeErrors(options: ts.CompilerOptions): string[] {
  const files = [path.join(project, 'orders.ts')];
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    typeRoots: [path.join(project, 'node_modules', '@types')],
    ignoreDeprecations: '6.0',
    ...options,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// cdk synth has type-checked the whole quick start (ts-node, the README's tsconfig: node16). The
// Lambda's import of `cdk-single-table/runtime` is what depends on the resolution: the classic
// node10 resolution many CDK apps still use ignores package exports and finds the types through
// the package's typesVersions.
test('the Lambda type-checks against the installed package with classic CommonJS resolution (node10)', () => {
  expect(typeErrors({ module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 })).toEqual([]);
});
