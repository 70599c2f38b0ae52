// startLocalApp runs the functions of a synthesized cloud assembly on the local engine: the
// example app's own bundled handler (CommonJS, as NodejsFunction bundles it by default) and an ES
// module beside it, each in a process of its own with the environment Lambda would give it
// pointed at the local table, from the asset the template names even when older synths left
// other `asset.*` folders behind.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { manifest } from '../../examples/manifest';
import { ExampleStack } from '../../examples/stack';
import { SingleTable } from '../../lib/construct/single-table';
import { LambdaInvocationError, LocalApp, startLocalApp } from '../../lib/testing';
import { ROOT } from '../support/bundle';
import { Engine, startEngine } from '../support/engine';

const work = mkdtempSync(join(tmpdir(), 'local-app-'));
const assembly = join(work, 'cdk.out');
const PROBE = join(__dirname, 'fixtures', 'probe', 'probe.mjs');

/** The probe Lambda's code in a folder of its own, its VERSION set to `version`. */
function probeCode(version: string): Code {
  const dir = join(work, `probe-${version}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'probe.mjs'), readFileSync(PROBE, 'utf8').replace("VERSION = 'current'", `VERSION = '${version}'`));
  return Code.fromAsset(dir);
}

/** Adds the probe to a stack, connected to its table. */
function addProbe(stack: Stack, table: SingleTable, version: string): void {
  const probe = new LambdaFunction(stack, 'Probe', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'probe.handler',
    code: probeCode(version),
    timeout: Duration.seconds(7),
    environment: { GREETING: 'hello' },
  });
  table.connect(probe, { patterns: ['orderById'] });
}

let engine: Engine;
let local: LocalApp;
let example: ExampleStack;
const leak = process.env.SINGLE_TABLE_TEST_LEAK;

beforeAll(async () => {
  // An earlier synth of the same app, whose probe answered 'stale': its asset folder stays in cdk.out.
  const earlier = new App({ outdir: assembly });
  const stack = new Stack(earlier, 'SingleTableExample');
  addProbe(stack, new SingleTable(stack, 'Table', { manifest }), 'stale');
  earlier.synth();
  const app = new App({ outdir: assembly });
  example = new ExampleStack(app, 'SingleTableExample');
  addProbe(example, example.table, 'current');
  app.synth();
  // The SDK is the Lambda runtime's; locally the project holding cdk.out provides it.
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
  process.env.SINGLE_TABLE_TEST_LEAK = 'the test process';
  // The run's shared engine: the app creates its table there and deletes it on stop.
  engine = await startEngine();
  const running = { kind: engine.kind, endpoint: engine.endpoint, description: engine.kind, stop: () => engine.stop() };
  local = await startLocalApp({ assembly, engine: running });
}, 240_000);

afterAll(async () => {
  if (leak === undefined) delete process.env.SINGLE_TABLE_TEST_LEAK;
  else process.env.SINGLE_TABLE_TEST_LEAK = leak;
  await local?.stop();
  await engine?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('the example app\'s bundled handler writes an item into the local table and reads it back', async () => {
  const order = { username: 'ann', orderId: 'o-1', status: 'OPEN', createdAt: '2026-01-02T03:04:05.000Z', amount: 12.5 };
  expect(await local.invoke('SingleTableExample/Handler', { put: { entity: 'Order', item: order } })).toEqual({ ok: true });
  const stored = await local.engine.dynamodb.send(new GetItemCommand({ TableName: local.tableName, Key: { PK: { S: 'CUSTOMER#ann' }, SK: { S: 'ORDER#o-1' } } }));
  expect(stored.Item).toMatchObject({ Type: { S: 'Order' }, orderId: { S: 'o-1' } });
  const page = await local.invoke('Handler', { pattern: 'orderById', input: { orderId: 'o-1' } });
  expect(page.items).toEqual([{ entity: 'Order', item: expect.objectContaining({ username: 'ann', orderId: 'o-1', status: 'OPEN' }) }]);
});

test('a function gets its own environment, pointed at the local table and its model layer\'s file, and nothing of the test process', async () => {
  const result = await local.invoke('SingleTableExample/Probe', { hello: 'world' });
  expect(result.version).toBe('current');
  expect(result.event).toEqual({ hello: 'world' });
  expect(result.env).toMatchObject({
    GREETING: 'hello',
    TABLE_NAME: local.tableName,
    SINGLE_TABLE_FINGERPRINT: example.table.model.fingerprint,
    AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
    AWS_REGION: expect.any(String),
    AWS_ACCESS_KEY_ID: expect.any(String),
    AWS_SECRET_ACCESS_KEY: expect.any(String),
  });
  expect(result.env.SINGLE_TABLE_MODEL).toMatch(new RegExp(`^${assembly}/asset\\.[0-9a-f]{64}/cdk-single-table/model-${example.table.model.fingerprint}\\.json$`));
  expect(result.modelFingerprint).toBe(example.table.model.fingerprint);
  expect(result.env.SINGLE_TABLE_TEST_LEAK).toBeUndefined();
  expect(result.remaining).toBeGreaterThan(0);
  expect(result.remaining).toBeLessThanOrEqual(7_000);
  const overridden = await local.invoke('Probe', {}, { environment: { GREETING: 'bonjour' } });
  expect(overridden.env.GREETING).toBe('bonjour');
});

test('a handler\'s error rejects the invocation with its type, message and output', async () => {
  const error = await local.invoke('Probe', { fail: 'no such order' }).then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(LambdaInvocationError);
  expect(error).toMatchObject({ errorType: 'TypeError', errorMessage: 'no such order' });
  expect(error.message).toMatch(/^SingleTableExample\/Probe \(probe\.handler\) failed: TypeError: no such order/);
  expect(error.logs).toContain('about to fail');
});

test('an unknown function is named with the functions the assembly has', async () => {
  expect(local.functions).toEqual(['SingleTableExample/Handler', 'SingleTableExample/Probe']);
  await expect(local.invoke('Shop/Orders')).rejects.toThrow(
    `${assembly}: no Lambda function 'Shop/Orders'; the assembly has SingleTableExample/Handler, SingleTableExample/Probe. Run \`npx cdk synth\` after changing the app`);
});

test('an assembly folder that is not one says so', async () => {
  await expect(startLocalApp({ assembly: join(work, 'nowhere') })).rejects.toThrow(/nowhere: no such folder; run `npx cdk synth` first/);
});
