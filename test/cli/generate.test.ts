// `single-table generate` writes the compiled model file a handler imports; `generate --check` and
// `check` report one that no longer matches its manifest. The committed model files of the
// example app and the benchmark are current (a stale one would fail the function at cold start).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT, run } from './run';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { modelJson } from '../../lib/model/document';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'single-table-cli-generate-')); });

const writeManifest = (value: object) => {
  const file = join(dir, 'orders.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
};

test.each(['examples/manifest.ts', 'bench/model/manifest.ts'])('the committed model file of %s is current', async (file) => {
  const result = await run('generate', file, '--check');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(/model\.json: up to date \(manifest [0-9a-f]{16}\)/);
});

test.each(['examples/manifest.ts', 'bench/model/manifest.ts'])('the committed access module of %s is current (generate --access --check, and check)', async (file) => {
  const result = await run('generate', file, '--access', '--check');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(/access\.ts: up to date \(manifest [0-9a-f]{16}\)/);
  expect((await run('check', file)).code).toBe(0);
});

test('generate --access writes the access module beside the manifest; check and generate --check report it stale once the manifest changes', async () => {
  const file = writeManifest(manifest);
  const write = writeManifest;
  expect((await run('generate', file, '--access', '--runtime', 'my-runtime')).code).toBe(0);
  const module = readFileSync(join(dir, 'orders.access.ts'), 'utf8');
  expect(module).toContain(`export const FINGERPRINT = "${compileManifest(manifest).model.fingerprint}";`);
  expect(module).toMatch(/^import \{[^}]*putWith[^}]*\} from "my-runtime\/access";$/m);
  expect(module).toContain('import type manifest from "./orders.json";');
  // Every pattern, sharded and fetched ones too, reads through the module's own slices: no model file.
  expect(module).not.toContain('model.json');
  for (const name of ['openTable', 'putItem', 'getItem', 'query']) expect(module).toMatch(new RegExp(`export (async )?function ${name}<`));
  expect(module).not.toMatch(/export (async )?function (put|get|query)(?!Item\b)[A-Z]/);
  expect((await run('check', file)).code).toBe(0);

  const changed = { ...manifest, accessPatterns: { ...manifest.accessPatterns, allOrders: { entities: ['Order'] } } };
  write(changed);
  // The model file is brought up to date, so only the module is stale.
  expect((await run('generate', file)).code).toBe(0);
  const stale = await run('check', file);
  expect(stale.code).toBe(1);
  expect(stale.stdout).toContain(`error [MODEL_STALE] access module ${join(dir, 'orders.access.ts')}: is out of date: it was generated from the manifest fingerprinted `
    + `${compileManifest(manifest).model.fingerprint}, the manifest is now ${compileManifest(changed as never).model.fingerprint}`);
  expect(stale.stdout).toContain(`fix: run 'single-table generate ${file} --access'`);
  const checked = await run('generate', file, '--access', '--check');
  expect(checked.code).toBe(1);
  expect(checked.stdout).toMatch(/orders\.access\.ts: out of date: .*; run 'single-table generate .* --access'/);
  // Regenerating keeps the runtime specifier the module imports.
  expect((await run('generate', file, '--access')).code).toBe(0);
  expect(readFileSync(join(dir, 'orders.access.ts'), 'utf8')).toMatch(/from "my-runtime\/access";/);
  expect(readFileSync(join(dir, 'orders.access.ts'), 'utf8')).toContain('export const allOrdersPattern: ');
  expect((await run('check', file)).code).toBe(0);
});

test('generate writes the model beside the manifest; check passes, then reports it stale once the manifest changes', async () => {
  const file = writeManifest(manifest);
  const written = await run('generate', file);
  expect(written.code).toBe(0);
  expect(readFileSync(join(dir, 'orders.model.json'), 'utf8')).toBe(modelJson(compileManifest(manifest).model));
  expect((await run('check', file)).code).toBe(0);

  const changed = { ...manifest, accessPatterns: { ...manifest.accessPatterns, allOrders: { entities: ['Order'] } } };
  writeManifest(changed);
  const stale = await run('check', file);
  expect(stale.code).toBe(1);
  expect(stale.stdout).toContain(`error [MODEL_STALE] compiled model ${join(dir, 'orders.model.json')}: is out of date: it was compiled from the manifest fingerprinted `
    + `${compileManifest(manifest).model.fingerprint}, the manifest is now ${compileManifest(changed as never).model.fingerprint}`);
  expect(stale.stdout).toContain(`fix: run 'single-table generate ${file}'`);
  const checked = await run('generate', file, '--check');
  expect(checked.code).toBe(1);
  expect(checked.stdout).toMatch(/out of date: .*; run 'single-table generate /);
  expect((await run('generate', file)).code).toBe(0);
  expect((await run('check', file)).code).toBe(0);
});

test('check --model names the file; a missing one is an error there, and a file of another format version is stale', async () => {
  const file = writeManifest(manifest);
  const model = join(dir, 'elsewhere.json');
  const missing = await run('check', file, '--model', model);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toContain(`error [MODEL_STALE] compiled model ${model}: does not exist`);
  expect((await run('generate', file, '--out', model)).code).toBe(0);
  expect((await run('check', file, '--model', model)).code).toBe(0);
  writeFileSync(model, readFileSync(model, 'utf8').replace('"formatVersion": 4', '"formatVersion": 0'));
  expect((await run('check', file, '--model', model)).stdout).toContain('it has format "cdk-single-table/model" version 0, this package writes cdk-single-table/model version 4');
});

test('generate refuses a manifest with errors and writes nothing', async () => {
  const file = writeManifest({ entities: { Order: { attributes: {}, pk: 'ORDER#{orderId}', sk: 'ORDER' } } });
  const result = await run('generate', file);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/the manifest has \d+ error\(s\):\nerror \[TEMPLATE_INVALID\] entity Order, table pk: .*undeclared attribute 'orderId'/);
  expect(() => readFileSync(join(dir, 'orders.model.json'))).toThrow(/ENOENT/);
});

test('--json says what generate did: written, unchanged, then stale under --check', async () => {
  const file = writeManifest(manifest);
  const json = async (...args: string[]) => JSON.parse((await run('generate', file, '--json', ...args)).stdout);
  const fingerprint = compileManifest(manifest).model.fingerprint;
  const shown = relative(ROOT, join(dir, 'orders.model.json')); // as given: relative to the working directory
  expect(await json('--check')).toEqual({ file: shown, action: 'missing', fingerprint });
  expect(await json()).toEqual({ file: shown, action: 'written', fingerprint });
  expect(await json()).toMatchObject({ action: 'unchanged' });
  writeFileSync(join(dir, 'orders.model.json'), '{');
  expect(await json('--check')).toEqual({ file: shown, action: 'stale', fingerprint, reason: 'it is not valid JSON' });
});
