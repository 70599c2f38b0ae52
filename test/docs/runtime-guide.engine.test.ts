// The runtime guide's examples run as written on DynamoDB Local: each one (the first block, and
// each block that continues it) on a new table made from the example app's synthesized template,
// opened as a connected Lambda opens it (TABLE_NAME, the model file, the endpoint).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asRunnable, checkedFiles, ROOT, writeModule } from './doc-blocks';
import { Engine, startEngine } from '../support/engine';

const ENV = ['TABLE_NAME', 'SINGLE_TABLE_MODEL', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;

// The guide's blocks that do something when run, rather than declare a handler.
const examples = [...checkedFiles()].filter(([, { block, text }]) => block.page === 'docs/runtime.md' && !/^export /m.test(text));

let engine: Engine;
let dir: string;
let log: jest.SpyInstance;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
beforeAll(async () => {
  engine = await startEngine();
  dir = mkdtempSync(join(tmpdir(), 'cdk-single-table-guide-'));
  Object.assign(process.env, {
    SINGLE_TABLE_MODEL: join(ROOT, 'examples', 'manifest.model.json'),
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
  await engine.stop();
});

test('the guide has its examples', () => {
  expect(examples.map(([name]) => name)).toEqual(expect.arrayContaining(['runtime-intro.ts', 'runtime-query.ts', 'runtime-transactions.ts']));
  expect(examples.length).toBeGreaterThanOrEqual(10);
});

test.each(examples.map(([name, { text }]) => [name, text]))('%s runs on DynamoDB Local', async (name, text) => {
  process.env.TABLE_NAME = await engine.createTable();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { run } = require(writeModule(dir, name, asRunnable(text))) as { run: () => Promise<void> };
  log.mockClear();
  await run();
  // What a block prints where the guide says what happens: the error it shows handling.
  if (name === 'runtime-errors.ts') expect(log).toHaveBeenCalledWith('Order', 'createdAt');
});
