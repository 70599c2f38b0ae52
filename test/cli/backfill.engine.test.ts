// `single-table backfill` against the embedded engine: a dry run counts and prices, a run rewrites
// in segments with a checkpoint file, a second run rewrites nothing, an item that cannot be fixed
// fails the run (exit 1) naming it, and bad arguments stop before any request.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { runIn } from './run';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { shopManifest, shopRows } from '../fixtures/shop';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

let engine: Engine;
let dir: string;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(shopManifest('B')));
  dir = mkdtempSync(join(tmpdir(), 'backfill-cli-'));
  writeFileSync(join(dir, 'a.json'), JSON.stringify(shopManifest('A')));
  writeFileSync(join(dir, 'b.json'), JSON.stringify(shopManifest('B')));
});
afterAll(() => engine.stop());

/** A table seeded under manifest A: 20 customers with 5 orders each, 40 products. */
async function seeded(): Promise<string> {
  const tableName = await engine.createTable();
  const a = createClient({ model: compileModelFile(shopManifest('A')), client: engine.client, tableName }) as unknown as { batchWrite(r: object[]): Promise<void> };
  await a.batchWrite(shopRows(20, 5, 40).map((r) => ({ type: 'put', entity: r.entity, item: r.item })));
  return tableName;
}

const backfill = (tableName: string, ...args: string[]) => runIn(dir, 'backfill', 'b.json', '--table', tableName, '--endpoint', engine.endpoint, ...args);

test('a dry run counts and prices the rewrites; the run costs what it said; a second run rewrites nothing', async () => {
  const tableName = await seeded();
  const dry = await backfill(tableName, '--from', 'a.json', '--dry-run', '--json');
  expect(dry.stderr).toBe('');
  expect(dry.code).toBe(0);
  const planned = JSON.parse(dry.stdout);
  // Every order (new GSI3, GSI2 from 3 to 5 shards) and every product (new GSI1 template); customers are current.
  expect(planned.counts).toMatchObject({ scanned: 160, stale: 140, rewritten: 0, failed: 0 });
  expect(planned.plan.find((e: { entity: string }) => e.entity === 'Product').changes).toEqual([
    { index: 'GSI1', change: 'TEMPLATE', detail: 'CATEGORY#{category} / PRICE#{price} -> CATEGORY#{category} / PRICE#{price}#{productId}' },
  ]);

  const done = await backfill(tableName, '--from', 'a.json', '--segments', '3', '--resume', 'checkpoint.json', '--json');
  expect(done.code).toBe(0);
  const result = JSON.parse(done.stdout);
  expect(result.counts).toMatchObject({ scanned: 160, stale: 140, rewritten: 140, failed: 0 });
  expect(result.counts.writeUnits).toBe(planned.counts.writeUnits);
  const checkpoint = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'));
  expect(checkpoint).toMatchObject({ table: tableName, totalSegments: 3 });
  expect(checkpoint.segments.map((s: { done: boolean }) => s.done)).toEqual([true, true, true]);

  // Resuming a finished run reads nothing more; a new run finds every item current.
  const resumed = await backfill(tableName, '--resume', 'checkpoint.json', '--json');
  expect(JSON.parse(resumed.stdout).counts).toEqual(result.counts);
  const again = await backfill(tableName);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/Scanned 160 items in 1 segment\(s\) in .*: 0 stale, 0 rewritten, 0 changed meanwhile \(re-read\), 0 of no entity \(left alone\), 0 failed\./);
});

test('an item that cannot be fixed is listed with its key and reason, and the run exits 1', async () => {
  const tableName = await seeded();
  // An order whose amount a hand-written script stored as text: GSI3's AMOUNT#{amount} cannot be composed.
  const bad = {
    PK: { S: 'CUSTOMER#c0001' },
    SK: { S: 'ORDER#bad' },
    Type: { S: 'Order' },
    customerId: { S: 'c0001' },
    orderId: { S: 'bad' },
    status: { S: 'OPEN' },
    createdAt: { S: '2025-02-01T00:00:00.000Z' },
    amount: { S: 'ten' },
  };
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: bad }));
  const r = await backfill(tableName, '--from', 'a.json');
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('140 rewritten');
  expect(r.stdout).toContain('1 failed.');
  expect(r.stdout).toMatch(/FAILED \{"PK":"CUSTOMER#c0001","SK":"ORDER#bad"\} \(Order\): .*amount/);
});

test.each([
  [['--dry-run', '--resume', 'x.json'], 2, /--dry-run writes nothing and keeps no checkpoint/],
  [['--segments', '0'], 2, /--segments 0: expected a whole number from 1/],
  [['--max-wcu', 'fast'], 2, /--max-wcu fast: expected a whole number/],
])('bad arguments %j: exit %d before any request', async (args, code, message) => {
  const r = await runIn(dir, 'backfill', 'b.json', '--table', 't', '--endpoint', 'http://127.0.0.1:9', ...args);
  expect(r.code).toBe(code);
  expect(r.stderr).toMatch(message);
});

test('a changed table key template is refused before any request, naming the entity and the templates', async () => {
  const moved = shopManifest('B');
  writeFileSync(join(dir, 'moved.json'), JSON.stringify({ ...moved, entities: { ...moved.entities, Product: { ...moved.entities.Product, sk: 'ITEM#{productId}' } } }));
  const r = await runIn(dir, 'backfill', 'moved.json', '--from', 'b.json', '--table', 't', '--endpoint', 'http://127.0.0.1:9');
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/entity Product: its table key changed from PRODUCT#\{productId\} \/ PRODUCT#\{productId\} to PRODUCT#\{productId\} \/ ITEM#\{productId\}/);
  expect((await runIn(dir, 'backfill', 'b.json')).stderr).toMatch(/--table NAME is required/);
});

test('with a unique attribute the plan names it, the run gives each stored value its guard, and a value held twice fails the run naming both items', async () => {
  const tableName = await seeded();
  const b = shopManifest('B');
  writeFileSync(join(dir, 'unique.json'), JSON.stringify({ ...b, entities: { ...b.entities, Customer: { ...b.entities.Customer, unique: ['email'] } } }));
  const run = (...args: string[]) => runIn(dir, 'backfill', 'unique.json', '--table', tableName, '--endpoint', engine.endpoint, '--from', 'a.json', ...args);
  const dry = await run('--dry-run');
  expect(dry.stdout).toContain('Customer: no change known (every slot is checked all the same); unique email: a guard item for each value that has none');
  expect(dry.stdout).toContain('Unique values without a guard item: 20 (none written).');
  const done = await run();
  expect(done.code).toBe(0);
  expect(done.stdout).toContain('Unique values without a guard item: 20, each given its guard.');

  const twin = { customerId: { S: 'twin' }, email: { S: 'c0004@example.com' }, name: { S: 'Twin' }, Type: { S: 'Customer' } };
  await engine.client.send(new PutItemCommand({ TableName: tableName, Item: { PK: { S: 'CUSTOMER#twin' }, SK: { S: 'PROFILE#twin' }, ...twin } }));
  const again = await run();
  expect(again.code).toBe(1);
  expect(again.stdout).toContain('Unique values without a guard item: 0, each given its guard.');
  // The 20 guards the first run wrote are scanned too, and are no items of an unknown entity.
  expect(again.stdout).toMatch(/Scanned 181 items .*, 0 of no entity \(left alone\), 1 failed\./);
  expect(again.stdout).toMatch(/FAILED \{"PK":"CUSTOMER#twin","SK":"PROFILE#twin"\} \(Customer\): its email "c0004@example.com" is a unique value another item holds too \(\{"PK":"CUSTOMER#c0004"/);
});
