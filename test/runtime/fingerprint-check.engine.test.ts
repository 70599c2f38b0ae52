// The cold-start fingerprint check, end to end: the fingerprint comes from the environment the
// stack gives the function (SingleTable.connect, read back from the synthesized template), and
// the runtime compares it with the manifest it was built with.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { manifest } from '../../examples/manifest';
import { SingleTable } from '../../lib/construct/single-table';
import { FINGERPRINT_ENV } from '../../lib/model/environment';
import { SingleTableManifest } from '../../lib/model/manifest';
import { createClient, SingleTableError } from '../../lib/runtime';
import { checkFingerprint } from '../../lib/runtime/table/fingerprint-check';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';

/** The environment a connected function gets in the synthesized template. */
function deployedEnvironment(deployed: SingleTableManifest): Record<string, unknown> {
  const stack = new Stack(new App(), 'Deployed');
  const table = new SingleTable(stack, 'Table', { manifest: deployed });
  const fn = new LambdaFunction(stack, 'Handler', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('exports.handler = 1') });
  table.connect(fn, { patterns: ['orderById'], readItems: true });
  const [props] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map((f: any) => f.Properties);
  return props.Environment.Variables;
}

/** The example manifest with one more access pattern: same table, different manifest. */
const changed = {
  ...manifest,
  accessPatterns: { ...manifest.accessPatterns, ordersByAmountOnly: { entities: ['Order'], index: 'LSI2' } },
} as unknown as SingleTableManifest;

let engine: Engine;
let tableName: string;
const saved = process.env[FINGERPRINT_ENV];

beforeAll(async () => {
  engine = await startEngine();
  tableName = await engine.createTable();
});
afterAll(() => engine.stop());
afterEach(() => {
  if (saved === undefined) delete process.env[FINGERPRINT_ENV];
  else process.env[FINGERPRINT_ENV] = saved;
});

test('the fingerprint the stack deployed matches the same manifest: the client starts and works', async () => {
  const env = deployedEnvironment(manifest);
  process.env[FINGERPRINT_ENV] = env[FINGERPRINT_ENV] as string;
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
  await db.putItem('Group', { groupId: 'g1', name: 'Hikers' });
  expect(await db.getItem('Group', { groupId: 'g1' })).toEqual({ groupId: 'g1', name: 'Hikers' });
});

test('a function bundled with another manifest fails at creation, naming both fingerprints', () => {
  const deployed = deployedEnvironment(changed)[FINGERPRINT_ENV] as string;
  process.env[FINGERPRINT_ENV] = deployed;
  const bundled = deployedEnvironment(manifest)[FINGERPRINT_ENV] as string;
  expect(bundled).not.toBe(deployed);
  let error: unknown;
  try {
    createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SingleTableError);
  expect((error as SingleTableError).code).toBe('MANIFEST_MISMATCH');
  expect((error as Error).message).toBe(
    `[MANIFEST_MISMATCH] this function was bundled with manifest ${bundled}, its table deployed from manifest ${deployed} (SINGLE_TABLE_FINGERPRINT); `
      + 'deploy both from the same manifest',
  );
});

test('without the variable (a function wired by hand, a local run) the check is skipped', () => {
  delete process.env[FINGERPRINT_ENV];
  expect(() => createClient({ model: compileModelFile(changed), client: engine.client, tableName })).not.toThrow();
  expect(() => checkFingerprint('0123456789abcdef', { [FINGERPRINT_ENV]: '' })).not.toThrow();
  expect(() => checkFingerprint('0123456789abcdef', { [FINGERPRINT_ENV]: '0123456789abcdef' })).not.toThrow();
  expect(() => checkFingerprint('0123456789abcdef', { [FINGERPRINT_ENV]: 'fedcba9876543210' })).toThrow('[MANIFEST_MISMATCH]');
});
