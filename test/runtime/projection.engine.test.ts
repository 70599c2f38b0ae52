// The `attributes` option and reads without a follow-up fetch: an index entry answers for what its
// index projects and for the values inside its keys, so a query asking only for those sends no
// BatchGetItem and returns what the fetched items hold.
import fc from 'fast-check';
import { FetchMode } from '../../lib/model/model';
import { createClient, SingleTableError } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ordersManifest } from '../fixtures/orders-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { countRequests } from '../support/requests';

type Db = ReturnType<typeof createClient<typeof ordersManifest>>;

let engine: Engine;
let db: Db;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(ordersManifest));
  db = createClient({ model: compileModelFile(ordersManifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

const order = (i: number, extra: Record<string, unknown> = {}) => ({
  customerId: `c${i % 3}`,
  orderId: `o${i}#x ${i}`,
  status: i % 2 ? 'OPEN' : 'SHIPPED',
  placedAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
  total: (i * 7.25) - 20,
  rush: i % 3 === 0 ? true : undefined,
  note: i % 4 ? `note ${i}` : undefined,
  tags: new Set([`t${i}`]),
  ...extra,
});

const pick = (item: Record<string, unknown>, names: readonly string[]) => Object.fromEntries(names.filter((n) => n in item).map((n) => [n, item[n]]));
const pickAll = (items: { entity: string; item: Record<string, unknown> }[], names: readonly string[]) =>
  items.map((r) => ({ entity: r.entity, item: pick(r.item, names) }));

beforeAll(async () => {
  for (let i = 0; i < 12; i++) await db.putItem('Order', order(i) as never);
});

test('the compiled model needs no fetch for a pattern whose attributes the keys hold; the query sends none', async () => {
  expect(db.table.model.patterns.byStatusKeys.fetch).toBe(FetchMode.NONE);
  expect(db.table.model.patterns.byStatus.fetch).toBe(FetchMode.BATCH_GET);
  const requests = countRequests(db.table.dynamodb);
  const page = await db.query('byStatusKeys', { status: 'OPEN' });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  const fetched = await db.query('byStatus', { status: 'OPEN' });
  expect(requests.of('BatchGetItemCommand')).toBe(1);
  expect(page.items).toEqual(pickAll(fetched.items, ['customerId', 'orderId', 'status', 'placedAt']));
  expect(page.items).toHaveLength(6);
});

test('attributes the keys hold are read from a KEYS_ONLY index without BatchGetItem, equal to the fetched ones', async () => {
  const requests = countRequests(db.table.dynamodb);
  const names = ['orderId', 'placedAt', 'customerId'] as const;
  const page = await db.query('byStatus', { status: 'SHIPPED' }, { attributes: names });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  const fetched = await db.query('byStatus', { status: 'SHIPPED' });
  expect(page.items).toEqual(pickAll(fetched.items, names));
  // Typed: only the asked attributes.
  const first: { orderId: string; placedAt: string; customerId: string } = page.items[0].item;
  expect(Object.keys(first).sort()).toEqual(['customerId', 'orderId', 'placedAt']);
});

test('an attribute the index neither projects nor encodes is fetched, and the results keep only the asked ones', async () => {
  const requests = countRequests(db.table.dynamodb);
  const page = await db.query('byStatus', { status: 'OPEN' }, { attributes: ['orderId', 'total'] });
  expect(requests.of('BatchGetItemCommand')).toBe(1);
  for (const { item } of page.items) expect(Object.keys(item).sort()).toEqual(['orderId', 'total']);
});

test('INCLUDE: projected attributes and key values together, no fetch', async () => {
  const requests = countRequests(db.table.dynamodb);
  const names = ['note', 'total', 'orderId'] as const;
  const page = await db.query('byTotal', { customerId: 'c1' }, { attributes: names });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  const fetched = await db.query('byTotal', { customerId: 'c1' });
  expect(requests.of('BatchGetItemCommand')).toBe(1);
  expect(page.items).toEqual(pickAll(fetched.items, names));
  expect(page.items.some((r) => r.item.note === undefined)).toBe(true); // an absent optional attribute stays absent
});

test('a sharded KEYS_ONLY index: key values decoded past the shard suffix, merged in order', async () => {
  const requests = countRequests(db.table.dynamodb);
  const names = ['rush', 'placedAt', 'orderId'] as const;
  const page = await db.query('rush', { rush: true }, { attributes: names });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  const fetched = await db.query('rush', { rush: true });
  expect(page.items).toEqual(pickAll(fetched.items, names));
  expect(page.items.map((r) => r.item.rush)).toEqual([true, true, true, true]);
});

test('the table and an ALL index send a ProjectionExpression and return only the asked attributes', async () => {
  const requests = countRequests(db.table.dynamodb);
  const own = await db.query('customer', { customerId: 'c2' }, { attributes: ['orderId', 'note'] });
  const all = await db.query('byAll', { status: 'OPEN' }, { attributes: ['total'] });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  expect(own.items.map((r) => r.entity)).toEqual(['Order', 'Order', 'Order', 'Order']);
  expect(pickAll((await db.query('customer', { customerId: 'c2' })).items, ['orderId', 'note'])).toEqual(own.items);
  expect(all.items.map((r) => r.item.total)).toEqual([...all.items.map((r) => r.item.total)].sort((a, b) => a - b));
  for (const { item } of all.items) expect(Object.keys(item)).toEqual(['total']);
});

test('an attribute no entity of the pattern declares, or an empty list, fails before any request', async () => {
  const requests = countRequests(db.table.dynamodb);
  const unknown = db.query('byStatus', { status: 'OPEN' }, { attributes: ['orderId', 'name' as 'orderId'] });
  await expect(unknown).rejects.toThrow(SingleTableError);
  await expect(unknown).rejects.toThrow(/pattern byStatus, attribute name: attributes names "name", which none of Order declares/);
  await expect(db.query('byStatus', { status: 'OPEN' }, { attributes: [] })).rejects.toThrow(/attributes must be a non-empty list/);
  expect(requests.total()).toBe(0);
});

test('property: any attribute subset on any index equals the full items cut to it, page for page (one-partition and fan-out reads)', async () => {
  const names = ['customerId', 'orderId', 'status', 'placedAt', 'total', 'rush', 'note', 'tags'] as const;
  const cases = [
    ['byStatus', { status: 'OPEN' }],
    ['byTotal', { customerId: 'c0' }],
    ['rush', { rush: true }],
    ['byAll', { status: 'SHIPPED' }],
    ['customer', { customerId: 'c1' }],
  ] as const;
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...cases),
    fc.subarray([...names], { minLength: 1 }),
    fc.constantFrom(undefined, 2, 5),
    async ([pattern, input], attributes, limit) => {
      // The client runs every pattern with queryShards: one partition, or a fan-out over the shards.
      const run = (o: object) => db.query(pattern as never, input as never, { limit, ...o } as never);
      const projected = await run({ attributes });
      const full = await run({});
      expect(projected.items).toEqual(pickAll(full.items, attributes));
      expect(projected.cursor === undefined).toBe(full.cursor === undefined);
    },
  ), { numRuns: propertyRuns(25) });
});

test('a read names only attributes its pattern declares it reads: another one is refused before any request', async () => {
  const requests = countRequests(db.table.dynamodb);
  const read = db.query('byStatusKeys', { status: 'OPEN' }, { attributes: ['orderId', 'total'] } as never);
  await expect(read).rejects.toThrow(SingleTableError);
  await expect(read).rejects.toMatchObject({ code: 'UNKNOWN_ATTRIBUTE', message: expect.stringContaining('add it to accessPatterns.byStatusKeys.attributes') });
  expect(requests.total()).toBe(0);
});
