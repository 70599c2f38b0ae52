// README's quick start, run as written: every block marked `<!-- quick-start: run -->` is run line by
// line and every block marked `<!-- quick-start: file NAME -->` is written to NAME, in README order,
// in a new folder. The one change: `cdk-single-table` in an install line becomes the tarball
// `npm pack` makes of this repository (the compiled package, as the registry would serve it). Then
// the Lambda that `cdk synth` bundled runs against a local engine whose table comes from the
// synthesized template. Needs the compiled package (out/): `npm test` compiles first.
import { execFile } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { homedir, tmpdir } from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import * as ts from 'typescript';
import { packagedRuntime, ROOT } from '../support/bundle';
import { Engine, startEngine } from '../support/engine';

const run = promisify(execFile);

/** One marked block of the README: a shell block to run or a file to write. */
interface QuickStartStep {
  readonly kind: 'run' | 'file';
  /** The file name, for `file` steps. */
  readonly file?: string;
  readonly body: string;
}

/** The README's marked blocks in order: `<!-- quick-start: run -->` or `<!-- quick-start: file NAME -->` before a fence. */
function quickStartSteps(readme: string): QuickStartStep[] {
  return [...readme.matchAll(/^<!-- quick-start: (run|file (\S+)) -->\n```\w*\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: m[2] ? 'file' : 'run',
    file: m[2],
    body: m[3],
  }));
}

let work: string;
let project: string;
let template: any;
let engine: Engine | undefined;

/** npm offline from its cache where it can; the CDK CLI without notices, telemetry or version check. */
function environment(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
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

async function runLine(line: string, tarball: string, env: NodeJS.ProcessEnv): Promise<void> {
  // The package is not fetched from the registry: the install line gets this repository's tarball.
  const command = /^npm (install|i)\b/.test(line) ? line.replace(/(?<=\s)cdk-single-table(?=\s|$)/, tarball) : line;
  try {
    await run('sh', ['-c', command], { cwd: project, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    throw new Error(`README quick start: \`${line}\` failed:\n${err.stderr ?? ''}${err.stdout ?? ''}`);
  }
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
  const env = environment(home);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  const tarball = path.join(work, JSON.parse(stdout)[0].filename);

  const steps = quickStartSteps(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  expect(steps.map((s) => s.file ?? s.kind)).toEqual(['run', 'cdk.json', 'tsconfig.json', 'manifest.ts', 'app.ts', 'orders.ts', 'run']);
  expect(steps[0].body).toMatch(/^npm install cdk-single-table /m);
  for (const step of steps) {
    if (step.kind === 'file') {
      writeFileSync(path.join(project, step.file!), step.body);
      continue;
    }
    for (const line of step.body.split('\n').map((l) => l.replace(/\s#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'))) {
      await runLine(line, tarball, env);
    }
  }
  template = JSON.parse(readFileSync(path.join(project, 'cdk.out', 'Shop.template.json'), 'utf8'));
}, 280_000);

afterAll(async () => {
  await engine?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function resourcesOfType(type: string): any[] {
  return Object.values(template.Resources as Record<string, any>).filter((r) => r.Type === type);
}

test('cdk synth: the table with its LSIs and both GSIs, and the Lambda on Node.js 22 with an ES module bundle', () => {
  const [table] = resourcesOfType('AWS::DynamoDB::GlobalTable');
  expect(table.Properties.GlobalSecondaryIndexes.map((i: any) => i.IndexName)).toEqual(['GSI1', 'GSI2']);
  expect(table.Properties.LocalSecondaryIndexes).toHaveLength(5);
  const [fn] = resourcesOfType('AWS::Lambda::Function');
  expect(fn.Properties.Runtime).toBe('nodejs22.x');
  expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(['SINGLE_TABLE_FINGERPRINT', 'TABLE_NAME']);
  const bundles = readdirSync(path.join(project, 'cdk.out')).filter((d) => existsSync(path.join(project, 'cdk.out', d, 'index.mjs')));
  expect(bundles).toHaveLength(1);
});

test('the Lambda cdk synth bundled runs against a local engine: the put and the query of orders.ts', async () => {
  engine = await startEngine(template);
  const tableName = await engine.createTable();
  const [fn] = resourcesOfType('AWS::Lambda::Function');
  const [asset] = readdirSync(path.join(project, 'cdk.out')).filter((d) => existsSync(path.join(project, 'cdk.out', d, 'index.mjs')));
  const entry = path.join(project, 'cdk.out', asset, 'index.mjs');
  const code = readFileSync(entry, 'utf8');
  // The SDK is left to the Lambda runtime, and neither CDK code nor the validation rules are bundled.
  expect(code).toMatch(/from\s*"@aws-sdk\/client-dynamodb"/);
  expect(code).not.toMatch(/aws-cdk-lib|SHARD_LOCK_|KEY_COLLISION/);

  // The handler is called as the Lambda runtime calls an ES module's export, with the environment
  // the template gives it (the table name pointed at the local table). The runtime's client reads
  // the endpoint from AWS_ENDPOINT_URL_DYNAMODB.
  const script = `const { handler } = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(await handler({})));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      TABLE_NAME: tableName,
      SINGLE_TABLE_FINGERPRINT: fn.Properties.Environment.Variables.SINGLE_TABLE_FINGERPRINT,
      AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
  });
  const page = JSON.parse(stdout);
  expect(page.items).toEqual([{ entity: 'Order', item: expect.objectContaining({ username: 'alice', orderId: 'o-1', status: 'OPEN' }) }]);

  const stored = await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: 'CUSTOMER#alice' }, SK: { S: 'ORDER#o-1' } } }));
  expect(stored.Item).toMatchObject({ Type: { S: 'Order' }, GSI1PK: { S: 'ORDER#o-1' }, GSI2PK: { S: 'ORDER#OPEN' } });
});

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
