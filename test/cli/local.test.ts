// `single-table local` end to end: the example app synthesized in a child process, an embedded
// engine (AWS's DynamoDB Local by default, dynalite when asked), the sample items put and every
// access pattern run through the runtime client, with the capacity the engine reports beside the
// units the cost model expects.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, run, Run, runIn } from './run';
import { localData } from '../../examples/local-data';

let text: Run;
let json: Run;
let dynalite: Run;
let assembly: string;
let html: string;
/** The synthesis folders in the temporary folder before this file's first run of the CLI. */
let synthFoldersBefore: Set<string>;
const synthFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('single-table-synth-'));

beforeAll(async () => {
  // The same run twice: for people (synthesizing the app file), and as JSON from a cloud assembly
  // synthesized the way the CDK CLI does it.
  synthFoldersBefore = new Set(synthFolders());
  text = await run('local', '--app', 'examples/app.ts');
  assembly = mkdtempSync(join(tmpdir(), 'single-table-assembly-'));
  const synth = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'examples/app.ts'], { cwd: ROOT, env: { ...process.env, CDK_OUTDIR: assembly } });
  expect(synth.status).toBe(0);
  html = join(mkdtempSync(join(tmpdir(), 'single-table-view-')), 'view', 'table.html');
  json = await run('local', '--app', assembly, '--json', '--html', html);
  // The manifest alone: its table as the construct builds it, no app.
  dynalite = await run('local', 'examples/manifest.ts', '--data', 'examples/local-data.ts', '--engine', 'dynalite', '--json');
}, 600_000);
afterAll(() => {
  for (const dir of [assembly, html && dirname(dirname(html))]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('every pattern runs and returns what the sample items hold: exit 0', () => {
  expect(text.stderr).toBe('');
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^Engine: DynamoDB Local 3\.\d+\.\d+ \(AWS's engine, in memory, http:\/\/127\.0\.0\.1:\d+\)\n/);
  expect(text.stdout).toContain('Table:  single-table-local, created from SingleTableExample.template.json');
  const patterns = Object.keys(localData.queries).length;
  expect(text.stdout).toContain(`Ran ${patterns} of ${patterns} access patterns`);
  expect(text.stdout).toMatch(new RegExp(`\nSummary: ${Object.values(localData.items).flat().length} items put \\(39 WU expected, 39 measured\\), ${patterns} patterns ran \\(8\\.5 RU expected, 8\\.5 measured\\), 0 cost difference\\(s\\), 0 failure\\(s\\)\\.\n$`));
});

test('AWS\'s engine charges exactly what the cost model expects, per write and per pattern, table and index by index', () => {
  const out = JSON.parse(json.stdout);
  for (const w of out.writes) expect(w.measured.total).toBe(w.expectedWriteUnits);
  for (const q of out.queries) expect(q.measured.total).toBeCloseTo(q.expectedReadUnits, 5);
  const order = out.writes.find((w: { entity: string }) => w.entity === 'Order');
  expect(order.measured).toEqual({ total: 5, table: 1, indexes: { GSI1: 1, GSI2: 1, LSI1: 1, LSI2: 1 } });
  expect(text.stdout).toContain('Order          5 WU expected, measured 5 (table 1, GSI1 1, GSI2 1, LSI1 1, LSI2 1)\n');
  // KEYS_ONLY sparse index: the query on GSI3 and the follow-up read of the whole item on the table.
  expect(out.queries.find((q: { pattern: string }) => q.pattern === 'runningTasks').measured).toEqual({ total: 1, table: 0.5, indexes: { GSI3: 0.5 } });
});

test('--html writes the visual view of the table with the run\'s sample items', () => {
  expect(JSON.parse(json.stdout).html).toBe(html);
  const page = readFileSync(html, 'utf8');
  expect(page).toMatch(/^<!DOCTYPE html>/i);
  for (const pattern of Object.keys(localData.queries)) expect(page).toContain(pattern);
  expect(page).toContain('reindex the catalogue'); // a sample item's attribute, not a made-up one
});

test('the stored keys of every item, read back from the table, as aligned columns', () => {
  const out = JSON.parse(json.stdout);
  expect(out.keys).toHaveLength(Object.values(localData.items).flat().length);
  expect(out.keys).toContainEqual({ Type: 'Task', PK: 'TASK#t-1', SK: 'TASK#t-1', GSI3PK: 'RUNNING#true', GSI3SK: '2024-01-15T10:30:00.000Z' });
  expect(out.keys).toContainEqual({ Type: 'Task', PK: 'TASK#t-2', SK: 'TASK#t-2' }); // not running: absent from GSI3
  const table = text.stdout.split('Stored keys:\n')[1].split('\n\n')[0].split('\n');
  expect(table[0].trim().split(/\s+/)).toEqual(expect.arrayContaining(['Type', 'PK', 'SK', 'GSI1PK', 'GSI3PK']));
  expect(table[1]).toMatch(/^ {2}-+( {2}-+)+$/);
  expect(table).toHaveLength(2 + out.keys.length);
});

test('a manifest alone, on dynalite: the table the construct builds from it holds and answers the same; dynalite reports the table write only', () => {
  expect(dynalite).toMatchObject({ code: 0, stderr: '' });
  const out = JSON.parse(dynalite.stdout);
  expect(out.from).toBe('examples/manifest.ts (the table SingleTable builds from it)');
  expect(out.keys).toEqual(JSON.parse(json.stdout).keys);
  const items = (o: typeof out) => o.queries.map((q: { pattern: string; items: unknown[] }) => [q.pattern, q.items]);
  expect(items(out)).toEqual(items(JSON.parse(json.stdout)));
  expect(out.engine).toMatch(/^dynalite \(pure Node, in memory, http:\/\/127\.0\.0\.1:\d+; asked for\)$/);
  const order = out.writes.find((w: { entity: string }) => w.entity === 'Order');
  expect(order).toMatchObject({ expectedWriteUnits: 5, measured: { total: 1, table: 1, indexes: {} } });
});

test('a bad --engine is a usage error; without a manifest or cdk.json context, the message says what to pass', async () => {
  const bad = await run('local', '--app', assembly, '--engine', 'dynamo');
  expect(bad).toMatchObject({ code: 2, stdout: '' });
  expect(bad.stderr).toContain('local: --engine dynamo: use dynamodb-local or dynalite');
  const elsewhere = mkdtempSync(join(tmpdir(), 'single-table-project-'));
  const r = await runIn(elsewhere, 'local', '--app', assembly);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('local: name the manifest (single-table local MANIFEST), or set "cdk-single-table:manifest" in the context of ./cdk.json');
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

test.each([
  ['items of an entity the manifest does not declare', { items: { Ordr: [{}] }, queries: {} },
    "sample items for 'Ordr': no such entity; did you mean 'Order'? use one of Customer, Order"],
  ['an item put would refuse: its position and entity', { items: { Order: [localData.items.Order[0], { ...localData.items.Order[1], createdAt: undefined }] }, queries: {} },
    "sample item 2 of 'Order': [MISSING_ATTRIBUTE] entity Order, attribute createdAt: is required"],
  ['a query input query would refuse', { items: {}, queries: { ordersForCustomer: { usrname: 'ann' } } },
    "sample query for 'ordersForCustomer': [INVALID_QUERY_INPUT] pattern ordersForCustomer, attribute usrname: input 'usrname' is not used"],
])('data with %s is refused, naming the file, before anything is synthesized or started', async (_what, given, message) => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-local-'));
  const data = join(dir, 'data.json');
  writeFileSync(data, JSON.stringify(given));
  // The app does not exist: the data is refused before the app is looked for.
  const r = await run('local', '--app', join(dir, 'no-app.ts'), '--data', data);
  expect(r).toMatchObject({ code: 1, stdout: '' });
  expect(r.stderr).toContain(`single-table: ${data}: ${message}`);
});

test('without a data file, items and query inputs are made up from the manifest and every pattern runs', async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'single-table-project-'));
  const r = await runIn(elsewhere, 'local', join(ROOT, 'examples/manifest.ts'), '--app', assembly, '--engine', 'dynalite', '--json');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  const out = JSON.parse(r.stdout);
  expect(out.queries.filter((q: { skipped?: string; error?: string }) => q.skipped || q.error)).toEqual([]);
  expect(out.writes.map((w: { entity: string }) => w.entity)).toEqual(expect.arrayContaining(['Customer', 'Order', 'Product']));
  expect(out.writes.find((w: { entity: string }) => w.entity === 'Customer').item.username).toBe('username-1');
});

test('--db-path keeps the data: a second run reuses the table; a template file works as the app', async () => {
  const dbPath = mkdtempSync(join(tmpdir(), 'single-table-db-'));
  const template = join(assembly, 'SingleTableExample.template.json');
  const first = await run('local', '--app', template, '--db-path', dbPath);
  expect(first.code).toBe(0);
  expect(first.stdout).toContain(`Engine: dynalite (pure Node, data in ${dbPath}, http://127.0.0.1:`);
  expect(first.stdout).toContain('single-table-local, created from SingleTableExample.template.json');
  const second = await run('local', '--app', template, '--db-path', dbPath);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('single-table-local, already there, reused from SingleTableExample.template.json');
});

test('an app that does not synthesize: exit 1 with its error output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-app-'));
  writeFileSync(join(dir, 'app.js'), "throw new Error('no stack here');\n");
  const r = await run('local', '--app', join(dir, 'app.js'));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('failed (exit 1)');
  expect(r.stderr).toContain('no stack here');
});

test('the app is synthesized with the context the CDK CLI gives it (./cdk.context.json, then ./cdk.json), no asset bundling and no template validation unless CDK_VALIDATION asks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-app-'));
  const manifest = join(ROOT, 'examples', 'manifest.ts');
  const project = { 'shop:stage': 'test', 'shop:both': 'cdk.json', 'cdk-single-table:manifest': manifest };
  writeFileSync(join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', context: project }));
  writeFileSync(join(dir, 'cdk.context.json'), JSON.stringify({ 'shop:lookup': 'cached', 'shop:both': 'cdk.context.json' }));
  writeFileSync(join(dir, 'app.js'), "throw new Error('context ' + process.env.CDK_CONTEXT_JSON + ' validation ' + process.env.CDK_VALIDATION);\n");
  const asked = process.env.CDK_VALIDATION; // the test run's
  try {
    // The app of cdk.json, and the same app named on the command line; CDK_VALIDATION unset, then set.
    for (const [app, validation] of [[[], undefined], [['--app', 'app.js'], undefined], [[], 'true']] as const) {
      if (validation === undefined) delete process.env.CDK_VALIDATION;
      else process.env.CDK_VALIDATION = validation;
      const r = await runIn(dir, 'local', ...app);
      expect(r.code).toBe(1);
      const [, context, passed] = /context (\{.*\}) validation (\w+)/.exec(r.stderr)!;
      expect(JSON.parse(context)).toEqual({ ...project, 'shop:lookup': 'cached', 'aws:cdk:bundling-stacks': [] });
      expect(passed).toBe(validation ?? 'false');
    }
  } finally {
    process.env.CDK_VALIDATION = asked;
  }
  writeFileSync(join(dir, 'cdk.context.json'), '{ "shop:lookup": ');
  const bad = await runIn(dir, 'local');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('./cdk.context.json: not valid JSON');
  rmSync(dir, { recursive: true, force: true });
});

// Last in this file. No other test synthesizes through the CLI, so a new synthesis folder in the
// temporary folder would be one of this file's runs.
test('no run left its synthesized cloud assembly behind: removed once the template is read, or when the synth fails', () => {
  expect(text.stdout).toContain('created from SingleTableExample.template.json');
  expect(synthFolders().filter((name) => !synthFoldersBefore.has(name))).toEqual([]);
});
