// `cdk-single-table/migrate` as docs/migrations.md shows it (test/docs/checked-examples.test.ts
// type-checks the block): run as written on the example app's table, its dry run reports what
// `single-table backfill --dry-run` reports, its run rewrites every stale item, and its checkpoint
// resumes it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AttributeValue, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import type { BackfillCheckpoint, BackfillCounts } from '../../lib/migrate';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { run } from '../cli/run';
import { Engine, startEngine } from '../support/engine';

const ROOT = join(__dirname, '..', '..');
const MARK = '<!-- check: migrate.ts -->';

type Migrate = (tableName: string, save: (c: BackfillCheckpoint) => Promise<void>, resume?: BackfillCheckpoint, client?: unknown) =>
Promise<{ priced: BackfillCounts; run: BackfillCounts }>;

let engine: Engine;
let dir: string;
let file: string;
beforeAll(async () => {
  engine = await startEngine();
  const page = readFileSync(join(ROOT, 'docs', 'migrations.md'), 'utf8');
  const block = /^```ts\n([\s\S]*?)```/.exec(page.slice(page.indexOf(MARK) + MARK.length).trimStart());
  if (!page.includes(MARK) || !block) throw new Error('docs/migrations.md has no ts block after the mark');
  mkdirSync(join(ROOT, 'cdk.out'), { recursive: true }); // absent in a fresh clone
  dir = mkdtempSync(join(ROOT, 'cdk.out', 'docs-migrate-'));
  const lib = relative(dir, join(ROOT, 'lib', 'migrate', 'index')).split(sep).join('/');
  file = join(dir, 'migrate.ts');
  writeFileSync(file, block[1].replace("from 'cdk-single-table/migrate'", `from '${lib}'`));
  writeFileSync(join(dir, 'manifest.model.json'), readFileSync(join(ROOT, 'examples', 'manifest.model.json')));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

/**
 * The example's items as stored before GSI2 and LSI2 were added to Orders and GSI1 to Products:
 * written by the runtime, then stripped of those index attributes.
 */
async function staleTable(): Promise<{ tableName: string; stale: number }> {
  const tableName = await engine.createTable();
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName }) as unknown as {
    batchWrite(r: object[]): Promise<void>;
  };
  await db.batchWrite(Object.entries(localData.items).flatMap(([entity, items]) => (items as object[]).map((item) => ({ type: 'put', entity, item }))));
  const strip: Record<string, string[]> = { Order: ['GSI2PK', 'GSI2SK', 'LSI2SK'], Product: ['GSI1PK', 'GSI1SK'] };
  let stale = 0;
  const page = await engine.client.send(new ScanCommand({ TableName: tableName }));
  for (const item of page.Items ?? []) {
    const names = strip[item.Type?.S ?? ''];
    if (!names) continue;
    expect(names.every((name) => item[name] !== undefined)).toBe(true);
    const key: Record<string, AttributeValue> = { PK: item.PK, SK: item.SK };
    await engine.client.send(new UpdateItemCommand({ TableName: tableName, Key: key, UpdateExpression: `REMOVE ${names.join(', ')}` }));
    stale++;
  }
  return { tableName, stale };
}

test('run as written: its dry run reports what the command\'s does, its run rewrites every stale item, a second run finds none', async () => {
  const { tableName, stale } = await staleTable();
  expect(stale).toBe(localData.items.Order.length + localData.items.Product.length);
  const cli = await run('backfill', 'examples/manifest.ts', '--table', tableName, '--endpoint', engine.endpoint, '--dry-run', '--json');
  expect(cli.code).toBe(0);
  const planned = JSON.parse(cli.stdout).counts as BackfillCounts;
  expect(planned).toMatchObject({ stale, failed: 0 });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migrate } = require(file) as { migrate: Migrate };
  const saved: BackfillCheckpoint[] = [];
  const result = await migrate(tableName, async (c) => { saved.push(JSON.parse(JSON.stringify(c))); }, undefined, engine.client);
  expect(result.priced).toEqual(planned);
  expect(result.run).toMatchObject({ stale, rewritten: stale, failed: 0, writeUnits: planned.writeUnits });
  expect(saved.at(-1)).toMatchObject({ table: tableName, totalSegments: 4 });
  expect(saved.at(-1)!.segments.map((s) => s.done)).toEqual([true, true, true, true]);

  // Resumed from its last checkpoint, the run reads nothing more; the command then finds every item current.
  const resumed = await migrate(tableName, async () => undefined, saved.at(-1), engine.client);
  expect(resumed.priced).toMatchObject({ stale: 0 });
  expect(resumed.run).toEqual(result.run);
  const again = await run('backfill', 'examples/manifest.ts', '--table', tableName, '--endpoint', engine.endpoint, '--dry-run', '--json');
  expect(JSON.parse(again.stdout).counts).toMatchObject({ scanned: planned.scanned, stale: 0 });
});
