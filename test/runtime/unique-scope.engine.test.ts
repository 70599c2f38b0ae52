// Unique values scoped by a tenant on DynamoDB Local: each tenant's members hold distinct emails,
// two tenants may hold the same one, and every guard lies under its tenant's partition key prefix
// (what a tenant-isolated grant's LeadingKeys allow).
import { AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GUARD_OWNER_ATTRIBUTE, guardMark } from '../../lib/keys/unique-guard';
import { resolveModel } from '../../lib/manifest/resolve';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { scopedUniqueManifest } from '../fixtures/scoped-unique-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const manifest = scopedUniqueManifest;
const model = resolveModel(manifest);
const PK = model.indexes.table.partitionKey;
let engine: Engine;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
});
afterAll(() => engine.stop());

async function guards(tableName: string): Promise<[string, string][]> {
  const out = await engine.client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  return (out.Items ?? [])
    .filter((i: Record<string, AttributeValue>) => i[model.typeAttribute].S === guardMark(model.escapeChar))
    .map((i: Record<string, AttributeValue>): [string, string] => [i[PK].S!, i[GUARD_OWNER_ATTRIBUTE].M![PK].S!])
    .sort();
}

test('a value is unique within a tenant; another tenant may hold it; guards move within the tenant\'s prefix', async () => {
  const tableName = await engine.createTable();
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
  await db.putItem('Member', { tenantId: 'a', memberId: 'm1', email: 'x@y' }, { mode: 'create' });
  await db.putItem('Member', { tenantId: 'b', memberId: 'm1', email: 'x@y' }, { mode: 'create' });
  await expect(db.putItem('Member', { tenantId: 'a', memberId: 'm2', email: 'x@y' }, { mode: 'create' }))
    .rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', entity: 'Member', attribute: 'email' });
  expect(await guards(tableName)).toEqual([
    ['TENANT#a#$unique#Member#email#x@y', 'TENANT#a#MEMBER#m1'],
    ['TENANT#b#$unique#Member#email#x@y', 'TENANT#b#MEMBER#m1'],
  ]);
  await db.updateItem('Member', { tenantId: 'a', memberId: 'm1', email: 'z@y' });
  await db.putItem('Member', { tenantId: 'a', memberId: 'm2', email: 'x@y' }, { mode: 'create' });
  await db.deleteItem('Member', { tenantId: 'b', memberId: 'm1' });
  expect(await guards(tableName)).toEqual([
    ['TENANT#a#$unique#Member#email#x@y', 'TENANT#a#MEMBER#m2'],
    ['TENANT#a#$unique#Member#email#z@y', 'TENANT#a#MEMBER#m1'],
  ]);
});

test('each unique attribute has its own scope: emails unique per tenant, handles across the table, in one entity', async () => {
  const tableName = await engine.createTable();
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
  await db.putItem('Member', { tenantId: 'a', memberId: 'm1', email: 'x@y', handle: 'ann' }, { mode: 'create' });
  await expect(db.putItem('Member', { tenantId: 'b', memberId: 'm1', email: 'x@y', handle: 'ann' }, { mode: 'create' }))
    .rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', attribute: 'handle' });
  await db.putItem('Member', { tenantId: 'b', memberId: 'm1', email: 'x@y', handle: 'bob' }, { mode: 'create' });
  await expect(db.putItem('Member', { tenantId: 'a', memberId: 'm2', email: 'x@y', handle: 'cy' }, { mode: 'create' }))
    .rejects.toMatchObject({ code: 'UNIQUE_VIOLATION', attribute: 'email' });
  expect(await guards(tableName)).toEqual([
    ['$unique#Member#handle#ann', 'TENANT#a#MEMBER#m1'],
    ['$unique#Member#handle#bob', 'TENANT#b#MEMBER#m1'],
    ['TENANT#a#$unique#Member#email#x@y', 'TENANT#a#MEMBER#m1'],
    ['TENANT#b#$unique#Member#email#x@y', 'TENANT#b#MEMBER#m1'],
  ]);
  // Two members of two tenants swap handles in one transaction: each guard changes owner once.
  await db.transactWrite([
    { type: 'update', entity: 'Member', changes: { tenantId: 'a', memberId: 'm1', handle: 'bob' } },
    { type: 'update', entity: 'Member', changes: { tenantId: 'b', memberId: 'm1', handle: 'ann' } },
  ]);
  expect((await guards(tableName)).slice(0, 2)).toEqual([
    ['$unique#Member#handle#ann', 'TENANT#b#MEMBER#m1'],
    ['$unique#Member#handle#bob', 'TENANT#a#MEMBER#m1'],
  ]);
});
