// The docs' examples that do something when run (statements at their top level, not a handler's
// declaration) run as written on DynamoDB Local, each on a new table made from the synthesized
// template of its manifest: the example app's, or the one its first block defines. The table is
// opened as a connected Lambda opens it (TABLE_NAME, the model file, the endpoint).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asRunnable, checkedFiles, ROOT, writeModule } from './doc-blocks';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import type { SingleTableManifest } from '../../lib/model/manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const ENV = ['TABLE_NAME', 'SINGLE_TABLE_MODEL', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;

const files = checkedFiles();
const examples = [...files].filter(([, { text }]) => /^await /m.test(text));

/** The first block of a continued example: it holds the manifest, if the example defines its own. */
function rootOf(name: string): string {
  const after = /^<!-- check: \S+ after (\S+) -->$/.exec(files.get(name)!.block.marker ?? '')?.[1];
  return after ? rootOf(after) : name;
}

let engine: Engine;
const engines: Engine[] = [];
let dir: string;
let log: jest.SpyInstance;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
beforeAll(async () => {
  engine = await startEngine();
  dir = mkdtempSync(join(tmpdir(), 'cdk-single-table-guide-'));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
  for (const e of [engine, ...engines]) await e.stop();
});

test('the guide has its examples', () => {
  expect(examples.map(([name]) => name)).toEqual(expect.arrayContaining(['runtime-intro.ts', 'runtime-query.ts', 'runtime-transactions.ts', 'unique-write.ts']));
  expect(examples.length).toBeGreaterThanOrEqual(10);
});

test.each(examples.map(([name, { block, text }]) => [name, block.page, text]))('%s (%s) runs on DynamoDB Local', async (name, _page, text) => {
  const root = files.get(rootOf(name))!.text;
  if (/^export const manifest = defineManifest\(/m.test(root)) {
    // The example's own manifest: its table from the construct's template, its model file beside it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { manifest } = require(writeModule(dir, `${name}.manifest.ts`, root)) as { manifest: SingleTableManifest };
    const own = await startEngine(synthesizedTemplate(manifest));
    engines.push(own);
    process.env.TABLE_NAME = await own.createTable();
    process.env.SINGLE_TABLE_MODEL = join(dir, `${name}.model.json`);
    writeFileSync(process.env.SINGLE_TABLE_MODEL, JSON.stringify(modelDocument(resolveModel(manifest))));
  } else {
    process.env.TABLE_NAME = await engine.createTable();
    process.env.SINGLE_TABLE_MODEL = join(ROOT, 'examples', 'manifest.model.json');
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { run, caught } = require(writeModule(dir, name, asRunnable(text))) as { run: () => Promise<void>; caught: Error[] };
  log.mockClear();
  await run();
  // An error the block shows in a comment (`// [CODE] message ...`) is one it caught, worded so.
  const shown = [...files.get(name)!.block.text.matchAll(/\/\/ (\[[A-Z_]+\] [^\n]*?)(?: \.\.\.|,? \.\.\.)?$/gm)].map((m) => m[1]);
  for (const message of shown) expect(caught.map((e) => e.message.slice(0, message.length))).toContain(message);
  // What a block prints where the guide says what happens: the error it shows handling.
  if (name === 'runtime-errors.ts') expect(log).toHaveBeenCalledWith('Order', 'createdAt');
});
