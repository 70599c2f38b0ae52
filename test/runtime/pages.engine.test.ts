// Paged reads: `for await` over a query yields exactly the pages the one-page calls return cursor
// after cursor, `pages` merges them into one, and an iteration resumes from any page's cursor.
import fc from 'fast-check';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, query, SingleTableError, where } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { ordersManifest } from '../fixtures/orders-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages, countRequests } from '../support/requests';

type M = typeof ordersManifest;

let engine: Engine;
let db: ReturnType<typeof createClient<M>>;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(ordersManifest));
  db = createClient({ model: compileModelFile(ordersManifest), client: engine.client, tableName: await engine.createTable() });
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

test('property: the iteration yields exactly the pages, `pages` merges them, and a page\'s cursor resumes the rest', async () => {
  const table = openTable<M>({ model: modelDocument(db.table.model), client: db.table.dynamodb, tableName: db.table.tableName });
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(undefined, 1, 2, 5, 13),
    fc.boolean(),
    fc.boolean(),
    async (limit, filtered, sharded) => {
      const options = { limit, filter: filtered ? where<{ note?: string }>({ attr: 'note', exists: true }) : undefined };
      const read = (cursor?: string, pages?: number | 'all') => sharded
        ? query(table, 'byAll', { status: 'OPEN' }, { ...options, cursor, pages })
        : query(table, 'customer', { customerId: 'c1' }, { ...options, cursor, pages });
      const pages = await allPages((cursor) => read(cursor));
      const iterated = await collect(read());
      expect(iterated).toHaveLength(pages.pages);
      expect(iterated.flatMap((p) => p.items)).toEqual(pages.items);
      expect(iterated[iterated.length - 1].cursor).toBeUndefined();
      expect(await read(undefined, 'all')).toEqual({ items: pages.items });
      // Two pages merged end where the iteration's second page ends.
      const two = await read(undefined, 2);
      expect(two.items).toEqual(iterated.slice(0, 2).flatMap((p) => p.items));
      expect(two.cursor).toBe(iterated[Math.min(1, iterated.length - 1)].cursor);
      // Resuming from any page's cursor yields the rest.
      const k = Math.floor(iterated.length / 2);
      if (k > 0) expect((await collect(read(iterated[k - 1].cursor))).flatMap((p) => p.items)).toEqual(iterated.slice(k).flatMap((p) => p.items));
    },
  ), { numRuns: propertyRuns(20) });
});

test('pages are read as the iteration goes: breaking out after the first page sends one query; nothing is sent before', async () => {
  const requests = countRequests(db.table.dynamodb);
  const paged = db.query('customer', { customerId: 'c1' }, { limit: 2 });
  expect(requests.total()).toBe(0);
  for await (const page of paged) {
    expect(page.items[0].entity).toBe('Order');
    break;
  }
  expect(requests.of('QueryCommand')).toBe(1);
});

test('a bad cursor or page count fails at the first step, before any request', async () => {
  const requests = countRequests(db.table.dynamodb);
  await expect(collect(db.query('customer', { customerId: 'c1' }, { cursor: 'bm90IGEgY3Vyc29y' }))).rejects.toThrow(SingleTableError);
  await expect(db.query('customer', { customerId: 'c1' }, { pages: 0 })).rejects.toMatchObject({ code: 'INVALID_QUERY_INPUT' });
  expect(requests.total()).toBe(0);
});
