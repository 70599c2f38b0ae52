// `deployedModel` reads the compiled model file the construct's layer puts in a connected
// function (SINGLE_TABLE_MODEL), as the construct wrote it; its errors name the variable, the path
// and the fix. A handler on this path bundles nothing of the manifest compiler.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { manifest } from '../../examples/manifest';
import { SingleTable } from '../../lib/construct/single-table';
import { localEnvironment } from '../../lib/engine/invoke-lambda';
import { assemblyFunctions } from '../../lib/engine/lambda-functions';
import { MODEL_PATH_ENV } from '../../lib/model/environment';
import { SingleTableError } from '../../lib/runtime';
import { deployedModel } from '../../lib/runtime/table/load-model';
import { bundle } from '../support/bundle';

const work = mkdtempSync(join(tmpdir(), 'deployed-model-'));
const saved = process.env[MODEL_PATH_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[MODEL_PATH_ENV];
  else process.env[MODEL_PATH_ENV] = saved;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The error `deployedModel` throws with the variable set to `path` (or unset). */
function failure(path?: string): SingleTableError {
  if (path === undefined) delete process.env[MODEL_PATH_ENV];
  else process.env[MODEL_PATH_ENV] = path;
  try {
    deployedModel();
  } catch (e) {
    return e as SingleTableError;
  }
  throw new Error('expected deployedModel to throw');
}

test('reads the model file the construct staged in the layer: the table\'s model, frozen', () => {
  const app = new App({ outdir: join(work, 'cdk.out') });
  const stack = new Stack(app, 'Shop');
  const table = new SingleTable(stack, 'Table', { manifest });
  const fn = new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromAsset(join(__dirname, '..', 'fixtures', 'handlers')) });
  table.connect(fn, { patterns: ['orderById'] });
  const [synthesized] = assemblyFunctions(app.synth().directory).functions;
  // The variable as Lambda sees it names /opt; locally the same file is in the layer's staged folder.
  const env = localEnvironment(synthesized, { tableName: 'local', endpoint: 'http://127.0.0.1:1' });
  expect(env[MODEL_PATH_ENV]).toMatch(new RegExp(`/cdk-single-table/model-${table.model.fingerprint}\\.json$`));
  expect(env[MODEL_PATH_ENV]).not.toMatch(/^\/opt\//);
  process.env[MODEL_PATH_ENV] = env[MODEL_PATH_ENV];
  const model = deployedModel();
  expect(model).toEqual(JSON.parse(JSON.stringify(table.model)));
  expect(model.fingerprint).toBe(table.model.fingerprint);
  expect(Object.isFrozen(model.entities.Order)).toBe(true);
});

test('MODEL_MISSING without SINGLE_TABLE_MODEL, naming the variable and both fixes', () => {
  const error = failure(undefined);
  expect(error).toBeInstanceOf(SingleTableError);
  expect(error.code).toBe('MODEL_MISSING');
  expect(error.message).toMatch(/SINGLE_TABLE_MODEL is not set/);
  expect(error.message).toContain('table.connect(fn');
  expect(error.message).toContain('pass `model` (a compiled model file) to `openTable`');
});

test('INVALID_MODEL naming the path when the file is missing, is not JSON, or is not a compiled model file', () => {
  const missing = join(work, 'missing.json');
  const notJson = join(work, 'not.json');
  writeFileSync(notJson, '{ "format": ');
  const manifestFile = join(work, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const stale = join(work, 'stale.json');
  writeFileSync(stale, JSON.stringify({ format: 'cdk-single-table/model', formatVersion: 0, model: {} }));
  for (const [path, reason] of [[missing, /cannot be read as JSON: ENOENT/], [notJson, /cannot be read as JSON: .*JSON/], [manifestFile, /expected a compiled model file/], [stale, /format version 0/]] as const) {
    const error = failure(path);
    expect(error.code).toBe('INVALID_MODEL');
    expect(error.message).toContain(path);
    expect(error.message).toContain(MODEL_PATH_ENV);
    expect(error.message).toMatch(reason);
  }
});

test('a handler reading the deployed model bundles nothing of the manifest compiler, the construct or the CDK', async () => {
  const { inputs, code } = await bundle('test/fixtures/handlers/deployed-model-handler.ts');
  const files = Object.keys(inputs).filter((i) => inputs[i] > 0);
  expect(files).toContain('lib/runtime/table/load-model.ts');
  expect(files.filter((i) => /^lib\/(manifest|construct|model\/document)|node_modules\//.test(i))).toEqual([]);
  expect(code).not.toMatch(/aws-cdk-lib|constructs|KEY_COLLISION|PATTERN_UNRESOLVED/);
});
