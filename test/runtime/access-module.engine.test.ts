// The access module `single-table generate --access` writes (examples/manifest.access.ts) against
// the runtime's operations, each on its own table of the embedded engine holding the same items:
// the same functions with the same arguments send the same requests and return the same results
// and cursors, and bad input fails the same way (code and message), with nothing sent when the
// runtime can tell before sending. Items are generated, valid and invalid. The table the module
// opens serves the runtime's other operations too, with the whole model loaded when they ask.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as fc from 'fast-check';
import { manifest as benchManifest } from '../../bench/model/manifest';
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import * as access from '../../examples/manifest.access';
import modelFile from '../../examples/manifest.model.json';
import { createClient, deleteItem, EntityName, openTable, PatternName, SingleTableError, updateItem, where } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { countRequests } from '../support/requests';

type M = typeof manifest;
type Loose = (...args: unknown[]) => Promise<unknown>;

let engine: Engine;
let generic: ReturnType<typeof createClient<M>>;
let table: ReturnType<typeof access.openTable>;
const sent: { generic: unknown[]; access: unknown[] } = { generic: [], access: [] };

/** Records the input of every command a client sends. */
function record(client: DynamoDBClient, into: unknown[]): void {
  client.middlewareStack.add((next, context) => async (args) => {
    into.push({ command: context.commandName, input: args.input });
    return next(args);
  }, { step: 'initialize', name: `record${into === sent.access ? 'Access' : 'Generic'}` });
}

let seeded: ReturnType<typeof createClient<M>>;

/** Writes the example's items to both tables (again: the put properties overwrite some of them with generated values). */
async function seed(): Promise<void> {
  for (const [entity, items] of Object.entries(localData.items)) {
    for (const item of items) await Promise.all([generic, seeded].map((c) => c.putItem(entity as EntityName<M>, item as never)));
  }
}

beforeAll(async () => {
  engine = await startEngine();
  generic = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName: await engine.createTable() });
  // The other table gets the same items through the runtime, so that the two start equal.
  seeded = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName: await engine.createTable() });
  table = access.openTable({ client: seeded.table.dynamodb, tableName: seeded.table.tableName, model: modelFile });
  await seed();
  record(generic.table.dynamodb, sent.generic);
  record(table.dynamodb, sent.access);
});
afterAll(() => engine.stop());

/** What a call did: its result, or its error's code and message; and the requests it sent. */
async function outcome(run: () => Promise<unknown>, requests: unknown[]) {
  const before = requests.length;
  try {
    return { result: await run(), error: undefined as string | undefined, sent: requests.slice(before) };
  } catch (e) {
    // DynamoDB's own refusals too: both paths send the same request, so both meet the same one.
    const code = e instanceof SingleTableError ? e.code : (e as Error).name;
    return { error: `${code} ${(e as Error).message}`, sent: requests.slice(before) };
  }
}

const same = async (viaAccess: () => Promise<unknown>, viaGeneric: () => Promise<unknown>) => {
  const a = await outcome(viaAccess, sent.access);
  const g = await outcome(viaGeneric, sent.generic);
  // The requests name each path's own table.
  const named = (o: typeof a, name: string) => JSON.parse(JSON.stringify(o).split(`"${name}"`).join('"<table>"'));
  expect(named(a, table.tableName)).toEqual(named(g, generic.table.tableName));
  // Only DynamoDB can tell that a create's item exists or a replace's does not, or refuse a request.
  const byDynamoDB = a.error?.startsWith('CONDITION_FAILED') || a.error?.startsWith('ValidationException');
  if (a.error !== undefined && !byDynamoDB) expect(a.sent).toEqual([]);
  return a;
};

const viaAccess = access as unknown as Record<'putItem' | 'getItem' | 'query', Loose>;
const loose = () => generic as unknown as Record<'putItem' | 'getItem' | 'query', Loose>;

// Values of every kind, good and bad, so both paths meet every rule of every attribute; often
// undefined, which leaves an optional attribute out and its sparse index with it.
const anyValue = fc.oneof(fc.constant(undefined),
  fc.string({ maxLength: 6 }), fc.constantFrom('', 'a#b', 'x\ud800', 'é'.repeat(700)), fc.double(), fc.integer(), fc.boolean(),
  fc.constantFrom(undefined, null, '2024-01-02', '2024-01-02T03:04:05+02:00', 'yesterday', new Date(0), new Set(['a']), [1, { a: 2 }], { k: 'v' }),
);

test.each(Object.keys(manifest.entities))('putItem of %s sends what the runtime\'s sends, or fails as it fails', async (entity) => {
  const sample = localData.items[entity as keyof typeof localData.items][0] as Record<string, unknown>;
  const names = [...Object.keys(manifest.entities[entity as keyof typeof manifest.entities].attributes), 'colour'];
  await fc.assert(fc.asyncProperty(fc.dictionary(fc.constantFrom(...names), anyValue, { maxKeys: 3 }), fc.constantFrom(undefined, 'create', 'replace', 'bad'),
    async (changes, mode) => {
      const item = { ...sample, ...changes };
      const options = mode === undefined ? undefined : { mode };
      await same(() => viaAccess.putItem(table, entity, item, options), () => loose().putItem(entity, item, options));
    }), { numRuns: propertyRuns(60) });
});

test.each(Object.keys(manifest.entities))('getItem of %s reads what the runtime\'s reads, or fails as it fails', async (entity) => {
  const sample = localData.items[entity as keyof typeof localData.items][0] as Record<string, unknown>;
  await fc.assert(fc.asyncProperty(fc.dictionary(fc.constantFrom(...Object.keys(sample), 'colour'), anyValue, { maxKeys: 2 }), fc.boolean(),
    async (changes, consistent) => {
      const e = manifest.entities[entity as keyof typeof manifest.entities];
      const key = Object.fromEntries(Object.keys(sample).filter((k) => `${e.pk}${e.sk}`.includes(`{${k}}`)).map((k) => [k, sample[k]]));
      const changed = { ...key, ...changes };
      await same(() => viaAccess.getItem(table, entity, changed, { consistent }), () => loose().getItem(entity, changed, { consistent }));
    }), { numRuns: propertyRuns(25) });
  // The sample itself is found.
  const found = await viaAccess.getItem(table, entity, Object.fromEntries(Object.entries(sample).filter(([k]) => {
    const e = manifest.entities[entity as keyof typeof manifest.entities];
    return `${e.pk}${e.sk}`.includes(`{${k}}`);
  })));
  expect(found).toBeDefined();
});

const patterns = Object.keys(manifest.accessPatterns!) as PatternName<M>[];

test.each(patterns)('query of %s returns the pages and cursors the runtime returns', async (pattern) => {
  await seed();
  const input = localData.queries[pattern as keyof typeof localData.queries];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const options = { limit: 1, cursor };
    const viaGeneric = () => generic.query(pattern, input as never, options as never);
    const page = await same(() => viaAccess.query(table, pattern, input, options), viaGeneric) as { result: { cursor?: string } };
    cursor = page.result.cursor;
    pages++;
  } while (cursor !== undefined && pages < 20);
  expect(pages).toBeGreaterThan(1);
});

test.each(patterns)('query of %s with every page, iterated, and with read options returns what the runtime returns', async (pattern) => {
  await seed();
  const input = localData.queries[pattern as keyof typeof localData.queries] as never;
  // Every page in one await, and page after page in a for await.
  await same(() => access.query(table, pattern, input, { limit: 1, pages: 'all' }), () => generic.query(pattern, input, { limit: 1, pages: 'all' }));
  const iterated = async (paged: AsyncIterable<unknown>) => {
    const pages = [];
    for await (const page of paged) pages.push(page);
    return pages;
  };
  await same(() => iterated(access.query(table, pattern, input, { limit: 2 })), () => iterated(generic.query(pattern, input, { limit: 2 })));
  // The attributes results keep, and a filter: checked against the whole model, which the table loads for them.
  const entity = manifest.accessPatterns![pattern].entities[0];
  const [first, second] = Object.keys(manifest.entities[entity].attributes);
  const options = { attributes: [first, second], filter: where<Record<string, unknown>>({ attr: first, exists: true }) } as never;
  // (A filter on an attribute a keys-only index does not hold is refused the same way.)
  type Page = { result?: { items: { item: object }[] } };
  const result = await same(() => access.query(table, pattern, input, options), () => generic.query(pattern, input, options)) as Page;
  for (const { item } of result.result?.items ?? []) expect(Object.keys(item).every((k) => k === first || k === second)).toBe(true);
  if (pattern === 'ordersForCustomer') expect(result.result!.items.length).toBeGreaterThan(0);
  // An attribute none of the pattern's entities declares, and a filter not made by where, fail the same way.
  // The attributes alone: on a keys-only or partly projected index they decide whether entries are fetched.
  const only = { attributes: [second] } as never;
  const projected = await same(() => access.query(table, pattern, input, only), () => generic.query(pattern, input, only)) as Page;
  expect(projected.result!.items.length).toBeGreaterThan(0);
  for (const bad of [{ attributes: ['colour'] }, { filter: { attr: first, exists: true } }] as never[]) {
    await same(() => access.query(table, pattern, input, bad), () => generic.query(pattern, input, bad));
  }
  // An attribute the pattern does not declare it reads (ordersByStatus declares five of Order's) fails the same way.
  const undeclared = Object.keys(manifest.entities[entity].attributes).find((a) => !generic.table.model.patterns[pattern].attributes.includes(a));
  if (undeclared) {
    const asked = { attributes: [undeclared] } as never;
    const refused = await same(() => access.query(table, pattern, input, asked), () => generic.query(pattern, input, asked));
    expect((refused as { error?: string }).error).toMatch(new RegExp(`^UNKNOWN_ATTRIBUTE .*which pattern ${pattern} does not declare it reads`));
  }
});

test('the table the module opens serves the runtime\'s updateItem and deleteItem, and a put with a condition, as the runtime\'s table does', async () => {
  await seed();
  const key = { username: 'ann', orderId: 'o-1' };
  const updated = await same(() => updateItem(table, 'Order', { ...key, trackingNumber: 'T-1' }), () => generic.updateItem('Order', { ...key, trackingNumber: 'T-1' }));
  expect(updated.error).toBeUndefined();
  const order = await access.getItem(table, 'Order', key);
  expect(order).toMatchObject({ trackingNumber: 'T-1' });
  // A condition of the caller's is checked against the entity, and its failure told, as the runtime's put does.
  const condition = where<Record<string, unknown>>({ attr: 'trackingNumber', eq: 'T-2' });
  const refused = await same(() => access.putItem(table, 'Order', order as never, { condition } as never), () => generic.putItem('Order', order as never, { condition } as never));
  expect(refused.error).toMatch(/^CONDITION_FAILED /);
  await same(() => deleteItem(table, 'Order', key), () => generic.deleteItem('Order', key));
  await same(() => access.getItem(table, 'Order', key), () => generic.getItem('Order', key));
});

test('the whole model is read only when a runtime operation asks, and must be the module\'s manifest\'s', async () => {
  const previous = process.env.SINGLE_TABLE_MODEL;
  delete process.env.SINGLE_TABLE_MODEL;
  try {
    // The module's own functions need none: no model file, no SINGLE_TABLE_MODEL.
    const bare = access.openTable({ client: table.dynamodb, tableName: table.tableName });
    await access.putItem(bare, 'Customer', localData.items.Customer[0] as never);
    expect(await access.query(bare, 'ordersForCustomer', { username: 'ann' })).toHaveProperty('items');
    // A runtime operation needs the model: from SINGLE_TABLE_MODEL, which is not set.
    await expect(deleteItem(bare, 'Order', { username: 'ann', orderId: 'nope' })).rejects.toThrow(/SINGLE_TABLE_MODEL is not set/);
    // A model of another manifest is refused.
    const other = access.openTable({ client: table.dynamodb, tableName: table.tableName, model: { ...modelFile, model: { ...modelFile.model, fingerprint: '0123456789abcdef' } } as never });
    await expect(deleteItem(other, 'Order', { username: 'ann', orderId: 'nope' })).rejects.toThrow(/generated from manifest c4462448c2a3f3e4.*compiled from manifest 0123456789abcdef/);
  } finally {
    if (previous !== undefined) process.env.SINGLE_TABLE_MODEL = previous;
  }
});

test.each([
  ['pattern', 'ordersByColour'],
  ['pattern', 'constructor'],
  ['entity', 'Invoice'],
  ['entity', 'toString'],
])('an unknown %s name (%s) fails as the runtime fails, naming the known ones, before sending', async (kind, name) => {
  const result = kind === 'pattern'
    ? await same(() => access.query(table, name as never, {} as never), () => loose().query(name, {}))
    : await same(() => access.putItem(table, name as never, {} as never), () => loose().putItem(name, {}));
  expect(result.error).toMatch(kind === 'pattern' ? /^UNKNOWN_PATTERN .*known patterns: ordersForCustomer, / : /^UNKNOWN_ENTITY .*known entities: Customer, /);
});

test.each([
  ['ordersForCustomer', { username: '' }, {}],
  ['ordersForCustomer', { username: 'ann', colour: 'red' }, {}],
  ['customerByEmail', { email: 5 }, {}],
  ['customerByEmail', 'ann', {}],
  ['customerWithOrders', { username: 'ann' }, { consistent: true, order: 'sideways' }],
  ['orderById', { orderId: 'o-1' }, { consistent: true }],
  ['productsByCategory', { category: 'books', between: [{ price: 50 }, { price: 10 }] }, {}],
  ['membersOfGroup', { groupId: 'g-1' }, { limit: 0 }],
  ['membersOfGroup', { groupId: 'g-1' }, { cursor: 'not-a-cursor' }],
  ['groupsForCustomer', { username: 'é'.repeat(1100) }, {}],
])('query %s with bad input (case %#) fails as the runtime fails, before sending', async (pattern, input, options) => {
  const result = await same(() => viaAccess.query(table, pattern, input, options), () => loose().query(pattern, input, options));
  expect(result).toHaveProperty('error');
});

test('a cursor of one pattern is refused by another, the same way', async () => {
  const { cursor } = await generic.query('ordersForCustomer', { username: 'ann' }, { limit: 1 });
  const result = await same(() => access.query(table, 'groupsForCustomer', { username: 'ann' }, { cursor }), () => generic.query('groupsForCustomer', { username: 'ann' }, { cursor }));
  expect(result).toMatchObject({ error: expect.stringContaining('INVALID_CURSOR') });
});

test('the module\'s functions take a table the runtime opened: of the module\'s manifest they read it, of another they refuse it before any request', async () => {
  const client = engine.newClient();
  const requests = countRequests(client);
  const opened = openTable<M>({ client, tableName: seeded.table.tableName, model: modelFile });
  expect(await access.getItem(opened, 'Customer', { username: 'ann' })).toEqual(await access.getItem(table, 'Customer', { username: 'ann' }));
  expect((await access.query(opened, 'ordersForCustomer', { username: 'ann' })).items).toEqual((await access.query(table, 'ordersForCustomer', { username: 'ann' })).items);
  const sentBefore = requests.total();
  expect(sentBefore).toBe(2);

  const other = openTable({ client, tableName: seeded.table.tableName, model: compileModelFile(benchManifest) });
  const mismatch = `[MANIFEST_MISMATCH] this access module was generated from manifest ${access.FINGERPRINT}, the model the table was opened with was compiled from manifest ${
    other.access.fingerprint}; generate both from the same manifest (\`single-table generate --access\`)`;
  expect(other.access.fingerprint).not.toBe(access.FINGERPRINT);
  await expect(access.getItem(other as never, 'Customer', { username: 'ann' })).rejects.toThrow(mismatch);
  await expect(access.putItem(other as never, 'Customer', localData.items.Customer[0])).rejects.toThrow(mismatch);
  expect(() => access.query(other as never, 'ordersForCustomer', { username: 'ann' })).toThrow(mismatch);
  expect(requests.total()).toBe(sentBefore);
});

test('opening the table checks the deployed fingerprint: a table deployed from another manifest is refused at cold start', () => {
  const env = process.env.SINGLE_TABLE_FINGERPRINT;
  process.env.SINGLE_TABLE_FINGERPRINT = '0123456789abcdef';
  try {
    expect(() => access.openTable({ client: table.dynamodb, tableName: 'any' })).toThrow(/MANIFEST_MISMATCH.*manifest c4462448c2a3f3e4.*manifest 0123456789abcdef/);
    process.env.SINGLE_TABLE_FINGERPRINT = access.FINGERPRINT;
    expect(access.openTable({ client: table.dynamodb, tableName: 'any' }).tableName).toBe('any');
  } finally {
    if (env === undefined) delete process.env.SINGLE_TABLE_FINGERPRINT; else process.env.SINGLE_TABLE_FINGERPRINT = env;
  }
});
