// An entity whose attributes the runtime maintains (here a unique email) written through a
// generated access module: its putItem writes it with the runtime's putItem, guard items
// included, given `maintainedWrites` as the runtime's own table takes them, and refuses it without;
// the module's other entities are written with their item builders. The module is generated and
// loaded as users load theirs.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { accessModule } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { maintainedWrites, openTable as openRuntimeTable, scan } from '../../lib/runtime';
import { uniqueManifest } from '../fixtures/unique-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

type Loose = (...args: unknown[]) => Promise<unknown>;

let engine: Engine;
let dir: string;
let access: Record<'putItem' | 'getItem', Loose> & { openTable(options: object): { tableName: string } };
const joinedAt = '2024-01-01T00:00:00.000Z';
const model = resolveModel(uniqueManifest);

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(uniqueManifest));
  dir = mkdtempSync(path.join(tmpdir(), 'access-maintained-'));
  const file = path.join(dir, 'manifest.access.ts');
  writeFileSync(file, accessModule(model, { file, manifestFile: path.join(__dirname, '..', 'fixtures', 'unique-manifest.ts'), runtime: path.join(__dirname, '../../lib/runtime') }));
  // Loaded through jest's own module system, which transpiles the generated TypeScript as it does the tests.
  access = jest.requireActual(file);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

/** A new table opened by the module, with the whole model as a file (tests carry it; a Lambda reads the deployed one). */
async function open(options: object = {}) {
  return access.openTable({ client: engine.client, tableName: await engine.createTable(), model: modelDocument(model), ...options });
}

test('a unique value is claimed with its guard item and refused to a second item, as the runtime\'s putItem does', async () => {
  const table = await open({ maintainedWrites });
  await access.putItem(table, 'Customer', { username: 'ann', email: 'a@x', joinedAt });
  await expect(access.putItem(table, 'Customer', { username: 'bob', email: 'a@x', joinedAt }))
    .rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', entity: 'Customer', attribute: 'email' });
  await access.putItem(table, 'Order', { username: 'ann', orderId: 'o1', total: 5 });
  expect(await access.getItem(table, 'Customer', { username: 'ann' })).toEqual({ username: 'ann', email: 'a@x', joinedAt });
  // The same items the runtime writes: the customer, its email's guard item, the order.
  const runtime = openRuntimeTable<typeof uniqueManifest>({ client: engine.client, tableName: table.tableName, model: modelDocument(model) });
  const { items } = await scan(runtime, { pages: 'all' });
  expect(items.map((i) => i.entity).sort()).toEqual(['Customer', 'Order']);
  const raw = await engine.client.send(new ScanCommand({ TableName: table.tableName }));
  expect(raw.Items).toHaveLength(3);
});

test('without maintainedWrites the unique entity is refused before any request, and the others are written', async () => {
  const table = await open();
  await expect(access.putItem(table, 'Customer', { username: 'ann', email: 'a@x', joinedAt })).rejects.toMatchObject({ code: 'MAINTAINED_WRITES_MISSING', entity: 'Customer' });
  await access.putItem(table, 'Order', { username: 'ann', orderId: 'o1', total: 5 });
  expect(await access.getItem(table, 'Order', { username: 'ann', orderId: 'o1' })).toEqual({ username: 'ann', orderId: 'o1', total: 5 });
});
