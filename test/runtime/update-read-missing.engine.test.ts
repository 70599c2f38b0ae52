// Updates that move index keys without every input, on dynalite. Without `readMissing` such an
// update fails before sending, naming every missing input of every index it moves at once; with
// it, the runtime reads the missing inputs, updates on the condition that they still hold those
// values, and reads again when another writer changed them in between. The item's index keys
// always agree with its values.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { AttributeKind, createClient, defineManifest, SingleTableError, SortKeyCondition } from '../../lib/runtime';
import { READ_MISSING_ATTEMPTS } from '../../lib/runtime/items/update';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { countRequests } from '../support/requests';

const manifest = defineManifest({
  entities: {
    Listing: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        region: { type: AttributeKind.STRING, required: true },
        category: { type: AttributeKind.STRING, required: true },
        price: { type: AttributeKind.NUMBER, required: true },
        status: { type: AttributeKind.STRING, required: true },
        listedAt: { type: AttributeKind.DATE, required: true },
        featured: { type: AttributeKind.BOOLEAN },
        title: { type: AttributeKind.STRING },
      },
      pk: 'LISTING#{id}',
      sk: 'LISTING#{id}',
      indexes: {
        GSI1: { pk: 'REGION#{region}', sk: 'CATEGORY#{category}#PRICE#{price}' },
        GSI2: { pk: 'STATUS#{status}', sk: '{listedAt}' },
        GSI3: { pk: 'FEATURED#{featured}', sk: '{listedAt}' },
      },
    },
  },
  globalIndexes: { GSI1: {}, GSI2: {}, GSI3: {} },
  localIndexes: { enabled: false },
  accessPatterns: {
    inRegion: { entities: ['Listing'], index: 'GSI1', sortKeyCondition: SortKeyCondition.BEGINS_WITH },
    withStatus: { entities: ['Listing'], index: 'GSI2' },
  },
});
type Db = ReturnType<typeof createClient<typeof manifest>>;

let engine: Engine;
let tableName: string;
let db: Db;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  tableName = await engine.createTable();
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName });
});
afterAll(() => engine.stop());

const listing = (id: string) => ({ id, region: 'eu', category: 'bikes', price: 100, status: 'DRAFT', listedAt: '2024-01-01T00:00:00.000Z' });

/** A client whose UpdateItem requests first run `before` (another writer acting between read and update). */
function clientWith(before?: () => Promise<void>): { db: Db; requests: ReturnType<typeof countRequests> } {
  const client = engine.newClient();
  const other = createClient({ model: compileModelFile(manifest), client, tableName });
  const requests = countRequests(client);
  client.middlewareStack.add((next, context) => async (args) => {
    if (before && context.commandName === 'UpdateItemCommand') await before();
    return next(args);
  }, { step: 'initialize', name: 'beforeUpdate' });
  return { db: other, requests };
}

/** The stored item's index key attributes, as DynamoDB holds them. */
async function indexKeys(id: string): Promise<Record<string, string | undefined>> {
  const out = await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: `LISTING#${id}` }, SK: { S: `LISTING#${id}` } } }));
  const item = out.Item!;
  return Object.fromEntries(['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK'].map((k) => [k, item[k]?.S]));
}

/** The prices of these tests as sort key segments (docs/keys.md, "Numbers"). */
const PRICE_SEGMENT: Record<number, string> = { 75: 'P50175', 100: 'P5021', 202: 'P502202' };

/** The index keys an item with these values must have. */
function expectedKeys(v: { region: string; category: string; price: number; status: string; listedAt: string; featured?: boolean }) {
  return {
    GSI1PK: `REGION#${v.region}`,
    GSI1SK: `CATEGORY#${v.category}#PRICE#${PRICE_SEGMENT[v.price]}`,
    GSI2PK: `STATUS#${v.status}`,
    GSI2SK: v.listedAt,
    GSI3PK: v.featured ? 'FEATURED#true' : undefined,
    GSI3SK: v.featured ? v.listedAt : undefined,
  };
}

test('an update missing inputs of two indexes fails before sending, naming every missing input in one error', async () => {
  await db.putItem('Listing', listing('l1'));
  const { db: other, requests } = clientWith();
  const attempt = other.updateItem('Listing', { id: 'l1', category: 'cars', status: 'LIVE' });
  // It named region and price (GSI1) first; listedAt (GSI2) only after those were passed.
  await expect(attempt).rejects.toMatchObject({ code: 'PARTIAL_INDEX_UPDATE', entity: 'Listing', attribute: 'region' });
  await expect(attempt).rejects.toThrow('changes category, status but not region, price, listedAt, which the index keys it moves are also composed from (GSI1: region, price; GSI2: listedAt)');
  await expect(attempt).rejects.toThrow('{ readMissing: true }');
  expect(requests.total()).toBe(0);
});

test('readMissing reads the missing inputs once and moves every index key; the item is found where its values say', async () => {
  await db.putItem('Listing', listing('l2'));
  const { db: other, requests } = clientWith();
  const updated = await other.updateItem('Listing', { id: 'l2', category: 'cars', status: 'LIVE' }, { readMissing: true });
  expect(updated).toEqual({ ...listing('l2'), category: 'cars', status: 'LIVE' });
  expect(requests.of('GetItemCommand')).toBe(1);
  expect(requests.of('UpdateItemCommand')).toBe(1);
  expect(await indexKeys('l2')).toEqual(expectedKeys(updated));
  expect((await db.query('inRegion', { region: 'eu', category: 'cars' })).items.map((r) => r.item.id)).toEqual(['l2']);
  expect((await db.query('withStatus', { status: 'LIVE' })).items.map((r) => r.item.id)).toEqual(['l2']);
});

test('readMissing sends no read when the update lacks nothing', async () => {
  await db.putItem('Listing', listing('l3'));
  const { db: other, requests } = clientWith();
  await other.updateItem('Listing', { id: 'l3', title: 'Red bike' }, { readMissing: true });
  expect(requests.of('GetItemCommand')).toBe(0);
  expect(requests.of('UpdateItemCommand')).toBe(1);
});

test('a writer that changes a read input between the read and the update makes the runtime read again: no stale index key', async () => {
  await db.putItem('Listing', listing('l4'));
  let interfere = 1;
  const { db: other, requests } = clientWith(async () => {
    if (interfere-- > 0) await db.updateItem('Listing', { id: 'l4', region: 'eu', category: 'bikes', price: 75 });
  });
  const updated = await other.updateItem('Listing', { id: 'l4', category: 'cars' }, { readMissing: true });
  expect(updated).toMatchObject({ category: 'cars', price: 75 });
  expect(requests.of('GetItemCommand')).toBe(2);
  expect(requests.of('UpdateItemCommand')).toBe(2);
  // Without the condition the update would have composed GSI1SK from the price read first (100).
  expect(await indexKeys('l4')).toEqual(expectedKeys(updated));
});

test('a read input that keeps changing fails with CONDITION_FAILED after a bounded number of attempts, the item untouched by it', async () => {
  await db.putItem('Listing', listing('l5'));
  let price = 200;
  const { db: other, requests } = clientWith(() => db.updateItem('Listing', { id: 'l5', region: 'eu', category: 'bikes', price: price++ }).then(() => undefined));
  const error = await other.updateItem('Listing', { id: 'l5', category: 'cars' }, { readMissing: true }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SingleTableError);
  expect(error).toMatchObject({ code: 'CONDITION_FAILED', entity: 'Listing' });
  expect((error as Error).message).toContain(`region, price changed between each read and update, ${READ_MISSING_ATTEMPTS} times`);
  expect(requests.of('UpdateItemCommand')).toBe(READ_MISSING_ATTEMPTS);
  const stored = await db.getItem('Listing', { id: 'l5' }, { consistent: true });
  expect(stored).toMatchObject({ category: 'bikes', price: 200 + READ_MISSING_ATTEMPTS - 1 });
  expect(await indexKeys('l5')).toEqual(expectedKeys(stored!));
});

test('readMissing of an item that does not exist fails with CONDITION_FAILED without an update', async () => {
  const { db: other, requests } = clientWith();
  await expect(other.updateItem('Listing', { id: 'ghost', category: 'cars' }, { readMissing: true })).rejects.toMatchObject({ code: 'CONDITION_FAILED', entity: 'Listing' });
  expect(requests.of('UpdateItemCommand')).toBe(0);
});

test('an input the stored item lacks keeps it out of that sparse index, on the condition that it is still absent', async () => {
  await db.putItem('Listing', listing('l6'));
  let interfere = 1;
  const { db: other, requests } = clientWith(async () => {
    if (interfere-- > 0) await db.updateItem('Listing', { id: 'l6', featured: true, listedAt: '2024-01-01T00:00:00.000Z', status: 'DRAFT' });
  });
  // GSI2 needs status (read) and GSI3 needs featured, absent when read, then set by the other writer.
  const updated = await other.updateItem('Listing', { id: 'l6', listedAt: '2024-03-01T00:00:00.000Z' }, { readMissing: true });
  expect(requests.of('UpdateItemCommand')).toBe(2);
  expect(updated).toMatchObject({ featured: true, listedAt: '2024-03-01T00:00:00.000Z' });
  expect(await indexKeys('l6')).toEqual(expectedKeys(updated));

  await db.putItem('Listing', listing('l7'));
  const plain = await other.updateItem('Listing', { id: 'l7', listedAt: '2024-03-01T00:00:00.000Z' }, { readMissing: true });
  expect(await indexKeys('l7')).toEqual(expectedKeys(plain));
  expect((await indexKeys('l7')).GSI3PK).toBeUndefined();
});
