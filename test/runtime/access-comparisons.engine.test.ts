// Sort-key comparisons through a generated access module, against the generic query on the same
// table: page by page the same items. `<` with a literal floor reads BETWEEN the floor and the bound
// and leaves the bound's own key out of the results (BETWEEN is inclusive), which the one-partition
// query of a generated module does only for patterns with a sort-key condition. A query without
// options reads in the pattern's declared order.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { accessModule, readsThroughSlice } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { manifest } from '../fixtures/comparisons-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages } from '../support/requests';

type Page = { items: unknown[]; cursor?: string };
type Query = (table: unknown, pattern: string, input: object, options?: object) => Promise<Page>;

let engine: Engine;
let dir: string;
let db: ReturnType<typeof createClient<typeof manifest>>;
let access: Record<string, Query> & { openTable(options: object): unknown };
let table: unknown;
let run = 0;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
  const model = resolveModel(manifest);
  dir = mkdtempSync(path.join(tmpdir(), 'access-comparisons-'));
  const file = path.join(dir, 'manifest.access.ts');
  writeFileSync(file, accessModule(model, {
    file,
    manifestFile: path.join(__dirname, '..', 'fixtures', 'comparisons-manifest.ts'),
    runtime: path.join(__dirname, '../../lib/runtime'),
  }));
  // Loaded through jest's own module system, which transpiles the generated TypeScript as it does the tests.
  access = jest.requireActual(file);
  table = access.openTable({ client: db.table.dynamodb, tableName: db.table.tableName });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

const PATTERNS = ['lt', 'lte', 'gt', 'gte', 'pinLt', 'pinLte', 'pinGt', 'pinGte'] as const;
// The module's query of one pattern, as a function of the input and options.
const queryOf = (pattern: string) => (input: object, options?: object) => access.query(table, pattern, input, options);

test('every comparison pattern runs as a one-partition query of the module', () => {
  const model = resolveModel(manifest);
  for (const pattern of PATTERNS) expect(readsThroughSlice(model, model.patterns[pattern])).toBe(false);
});

test('each comparison returns, page by page, what the generic query returns; `<` on a full key leaves that key out', async () => {
  const bounds = fc.record({ n: fc.integer({ min: -3, max: 3 }), id: fc.option(fc.constantFrom('i0', 'i1', 'i2'), { nil: undefined }) });
  await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 8 }), bounds, fc.constantFrom(1, 2, 50),
    async (ns, bound, limit) => {
      const s = `p${run++}`;
      await db.batchWrite([
        ...ns.map((n, i) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n, id: `i${i}` } })),
        { type: 'put', entity: 'Below', item: { s, x: 'b' } },
        { type: 'put', entity: 'Above', item: { s, x: 'a' } },
        { type: 'put', entity: 'Pinned', item: { s } },
      ]);
      for (const pattern of PATTERNS) {
        const input = pattern.startsWith('pin') ? { s } : { s, ...bound };
        const generic = await allPages((cursor) => db.query(pattern, input as never, { cursor, limit }));
        const generated = await allPages((cursor) => queryOf(pattern)(input, { cursor, limit }) as never);
        expect([pattern, generated.items]).toEqual([pattern, generic.items]);
      }
    }), { numRuns: propertyRuns(10) });
});

test('`<` on a full key: every reading below it, not the reading of that key', async () => {
  const s = `full${run++}`;
  await db.batchWrite(['a', 'b', 'c'].map((id) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n: 1, id } })));
  const page = await queryOf('lt')({ s, n: 1, id: 'b' });
  expect(page.items).toEqual([{ entity: 'Reading', item: { s, n: 1, id: 'a' } }]);
});

test('a pattern declared in descending order reads that way through the module without options, and ascending when asked', async () => {
  const s = `order${run++}`;
  await db.batchWrite([3, 1, 2].map((n) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n, id: 'i' } })));
  const ns = async (page: Promise<Page>) => (await page).items.map((r) => (r as { item: { n: number } }).item.n);
  expect(await ns(queryOf('newest')({ s }))).toEqual([3, 2, 1]);
  expect(await ns(queryOf('newest')({ s }, { order: 'asc' }))).toEqual([1, 2, 3]);
  expect(await ns(db.query('newest', { s }))).toEqual([3, 2, 1]);
});
