// Iterating every page: `for await` over queryAll / queryShardsAll / the client's queryAll yields
// exactly the items of the pages the one-page calls return cursor after cursor, and `.pages()`
// gives those pages with the same cursors, so an iteration resumes from any page's cursor.
import fc from 'fast-check';
import { ordersManifest } from './fixtures/orders-manifest';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, queryAll, queryShardsAll, SingleTableError } from '../../lib/runtime';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages, countRequests } from '../support/requests';

type M = typeof ordersManifest;

let engine: Engine;
let db: ReturnType<typeof createClient<M>>;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(ordersManifest));
  db = createClient(ordersManifest, { client: engine.client, tableName: await engine.createTable() });
  await db.batchWrite(Array.from({ length: 30 }, (_, i) => ({
    type: 'put' as const,
    entity: 'Order' as const,
    item: { customerId: 'c1', orderId: `o${i}`, status: i % 4 ? 'OPEN' : 'SHIPPED', placedAt: '2024-05-01T00:00:00Z', total: i % 9, note: i % 2 ? 'odd' : undefined },
  })));
});
afterAll(() => engine.stop());

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

test('property: the iteration yields exactly the items of the pages, and .pages() the pages with their cursors', async () => {
  const table = openTable<M>(modelDocument(db.model), { client: db.dynamodb, tableName: db.tableName });
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(undefined, 1, 2, 5, 13),
    fc.constantFrom(undefined, { attr: 'note', exists: true } as const),
    fc.boolean(),
    async (limit, filter, sharded) => {
      const options = { limit, filter };
      const pages = sharded
        ? await allPages((cursor) => db.query('byAll', { status: 'OPEN' }, { ...options, cursor }))
        : await allPages((cursor) => db.query('customer', { customerId: 'c1' }, { ...options, cursor }));
      const iterated = sharded ? queryShardsAll(table, 'byAll', { status: 'OPEN' }, options) : queryAll(table, 'customer', { customerId: 'c1' }, options);
      expect(await collect(iterated)).toEqual(pages.items);
      const viaPages = await collect(iterated.pages());
      expect(viaPages).toHaveLength(pages.pages);
      expect(viaPages.flatMap((p) => p.items)).toEqual(pages.items);
      expect(viaPages[viaPages.length - 1].cursor).toBeUndefined();
      // Resuming from any page's cursor yields the rest.
      const k = Math.floor(viaPages.length / 2);
      if (k > 0) {
        const rest = sharded
          ? queryShardsAll(table, 'byAll', { status: 'OPEN' }, { ...options, cursor: viaPages[k - 1].cursor })
          : queryAll(table, 'customer', { customerId: 'c1' }, { ...options, cursor: viaPages[k - 1].cursor });
        expect(await collect(rest)).toEqual(viaPages.slice(k).flatMap((p) => p.items));
      }
    },
  ), { numRuns: propertyRuns(20) });
});

test('pages are read as the iteration goes: breaking out after the first item sends one query', async () => {
  const requests = countRequests(db.dynamodb);
  for await (const order of db.queryAll('customer', { customerId: 'c1' }, { limit: 2 })) {
    expect(order.entity).toBe('Order');
    break;
  }
  expect(requests.of('QueryCommand')).toBe(1);
});

test('a bad cursor fails at the first step, before any request', async () => {
  const requests = countRequests(db.dynamodb);
  await expect(collect(db.queryAll('customer', { customerId: 'c1' }, { cursor: 'bm90IGEgY3Vyc29y' }))).rejects.toThrow(SingleTableError);
  expect(requests.total()).toBe(0);
});
