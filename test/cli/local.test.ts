// `single-table local` end to end: the example app synthesized in a child process, dynalite in
// this one, the sample items put and every access pattern run through the runtime client.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run, Run } from './run';
import { localData } from '../../examples/local-data';

let text: Run;
let json: Run;
let assembly: string;

beforeAll(async () => {
  // The same run twice: for people (synthesizing the app file), and as JSON from a cloud assembly
  // synthesized the way the CDK CLI does it.
  text = await run('local', 'examples/app.ts');
  assembly = mkdtempSync(join(tmpdir(), 'single-table-assembly-'));
  const synth = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'examples/app.ts'], { cwd: ROOT, env: { ...process.env, CDK_OUTDIR: assembly } });
  expect(synth.status).toBe(0);
  json = await run('local', assembly, '--json');
}, 120_000);

test('every pattern runs and returns what the sample items hold: exit 0', () => {
  expect(text.stderr).toBe('');
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^Engine: dynalite in memory \(http:\/\/127\.0\.0\.1:\d+\)\n/);
  expect(text.stdout).toContain('Table:  single-table-local, created from SingleTableExample.template.json');
  const patterns = Object.keys(localData.queries).length;
  expect(text.stdout).toContain(`Ran ${patterns} of ${patterns} access patterns`);
});

test('results per pattern, in the pattern\'s order, with the units the cost model expects', () => {
  const out = JSON.parse(json.stdout);
  const query = (name: string) => out.queries.find((q: { pattern: string }) => q.pattern === name);
  // Sharded GSI2, newest first across three shards; three queries at half a unit each.
  expect(query('ordersByStatus').items.map((i: { item: { orderId: string } }) => i.item.orderId)).toEqual(['o-3', 'o-4', 'o-1']);
  expect(query('ordersByStatus').expectedReadUnits).toBe(1.5);
  // Sparse boolean index: only the running task; KEYS_ONLY, so one fetch per item on top.
  expect(query('runningTasks').items).toEqual([{ entity: 'Task', item: localData.items.Task[0] }]);
  expect(query('runningTasks').expectedReadUnits).toBe(1);
  expect(query('customerWithOrders').items.map((i: { entity: string }) => i.entity)).toEqual(['Customer', 'Order', 'Order', 'Order']);
  expect(query('ordersForCustomerByAmount').items.map((i: { item: { amount: number } }) => i.item.amount)).toEqual([250, 99.99]);
});

test('writes: one per sample item, priced for the indexes the item is really in', () => {
  const out = JSON.parse(json.stdout);
  expect(out.writes).toHaveLength(Object.values(localData.items).flat().length);
  const tasks = out.writes.filter((w: { entity: string }) => w.entity === 'Task').map((w: { expectedWriteUnits: number }) => w.expectedWriteUnits);
  expect(tasks).toEqual([2, 1]); // the task that is not running stays out of GSI3
  const orders = out.writes.filter((w: { entity: string }) => w.entity === 'Order').map((w: { expectedWriteUnits: number }) => w.expectedWriteUnits);
  expect(orders).toEqual([5, 5, 5, 5]); // table, GSI1, GSI2, LSI1, LSI2
});

test('data that does not fit the manifest is refused before anything runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-local-'));
  const data = join(dir, 'data.json');
  writeFileSync(data, JSON.stringify({ items: { Invoice: [{}] }, queries: {} }));
  const r = await run('local', assembly, '--data', data);
  expect(r).toMatchObject({ code: 1, stdout: '' });
  expect(r.stderr).toContain("local: the data file has items for 'Invoice', which is not an entity of the manifest");
});

test('--db-path keeps the data: a second run reuses the table; a template file works as the app', async () => {
  const dbPath = mkdtempSync(join(tmpdir(), 'single-table-db-'));
  const template = join(assembly, 'SingleTableExample.template.json');
  const first = await run('local', template, '--db-path', dbPath);
  expect(first.code).toBe(0);
  expect(first.stdout).toContain(`Engine: dynalite with data in ${dbPath}`);
  expect(first.stdout).toContain('single-table-local, created from SingleTableExample.template.json');
  const second = await run('local', template, '--db-path', dbPath);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('single-table-local, already there, reused from SingleTableExample.template.json');
});

test('an app that does not synthesize: exit 1 with its error output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-app-'));
  writeFileSync(join(dir, 'app.js'), "throw new Error('no stack here');\n");
  const r = await run('local', join(dir, 'app.js'));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('failed (exit 1)');
  expect(r.stderr).toContain('no stack here');
});
