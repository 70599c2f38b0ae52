// The patterns a generated access module reads through their slice of the model (write-sharded
// fan-out, BatchGetItem hydration of KEYS_ONLY and INCLUDE entries, values decoded from keys),
// against the full runtime's queryShards on the same table: page by page the same items, the same
// cursors, and each side resumes from the other's cursor. The module is generated from the model
// and loaded as users load theirs; it never imports the model file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { accessModule, readsThroughSlice } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { createClient, openTable, query, Table } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { manifest } from '../fixtures/access-slice-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

type M = typeof manifest;
type Loose = (...args: unknown[]) => Promise<{ items: unknown[]; cursor?: string }>;

/** The patterns of this test, each with an input that matches many items. */
const INPUTS: Record<string, Record<string, unknown>> = {
  byStatus: { status: 'OPEN' },
  byStatusKeys: { status: 'OPEN' },
  byTotal: { customerId: 'c1' },
  rush: { rush: true },
  byAll: { status: 'OPEN' },
  byRegion: { region: 'eu' },
};

let engine: Engine;
let dir: string;
let full: Table<M>;
let access: Record<string, Loose> & { openTable(options: object): unknown };
let table: unknown;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  const db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
  await db.batchWrite(Array.from({ length: 40 }, (_, i) => ({
    type: 'put' as const,
    entity: 'Order' as const,
    item: {
      customerId: `c${i % 3}`,
      orderId: `o${i}`,
      status: i % 5 ? 'OPEN' : 'SHIPPED',
      placedAt: `2024-05-${String(1 + (i % 7)).padStart(2, '0')}T00:00:00Z`,
      total: i % 9,
      rush: i % 2 === 0 || undefined,
      note: i % 3 ? `n${i}` : undefined,
      tags: i % 4 ? new Set([`t${i}`]) : undefined,
      region: i % 6 ? 'eu' : 'us',
    },
  })));
  const model = resolveModel(manifest);
  full = openTable<M>({ model: modelDocument(model), client: db.table.dynamodb, tableName: db.table.tableName });
  dir = mkdtempSync(path.join(tmpdir(), 'access-slice-'));
  const file = path.join(dir, 'manifest.access.ts');
  writeFileSync(file, accessModule(model, { file, manifestFile: path.join(__dirname, '..', 'fixtures', 'access-slice-manifest.ts'), runtime: path.join(__dirname, '../../lib/runtime') }));
  // Loaded through jest's own module system, which transpiles the generated TypeScript as it does the tests.
  access = jest.requireActual(file);
  table = access.openTable({ client: db.table.dynamodb, tableName: db.table.tableName });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

// The module's query of one pattern, as a function of the input and options.
const queryOf = (pattern: string) => (input: unknown, options?: unknown) => access.query(table, pattern, input, options);

test('every pattern of the test reads through its slice, and the module never imports the model file', () => {
  const model = resolveModel(manifest);
  for (const pattern of Object.keys(INPUTS)) expect(readsThroughSlice(model, model.patterns[pattern])).toBe(true);
  expect(readFileSync(path.join(dir, 'manifest.access.ts'), 'utf8')).not.toMatch(/model\.json|queryShards/);
});

test.each(Object.keys(INPUTS))('%s: page by page the items and cursors of queryShards, each resuming from the other\'s cursor', async (pattern) => {
  await fc.assert(fc.asyncProperty(fc.constantFrom(1, 2, 3, 7, 50), fc.constantFrom(undefined, 'asc', 'desc'), fc.boolean(), async (limit, order, swap) => {
    let cursor: string | undefined;
    let pages = 0;
    do {
      const options = { limit, order, cursor };
      const viaFull = await query(full, pattern as never, INPUTS[pattern] as never, options as never);
      const viaAccess = await queryOf(pattern)(INPUTS[pattern], options);
      expect(viaAccess).toEqual(viaFull);
      // Either side's cursor moves both on: they are the same cursor.
      cursor = swap && pages % 2 ? viaFull.cursor : viaAccess.cursor;
      pages++;
    } while (cursor !== undefined && pages < 60);
    expect(cursor).toBeUndefined();
  }), { numRuns: propertyRuns(6) });
});

test('the pages hold every matching item once: fetched items are whole, keys-only items hold the values of their keys', async () => {
  const all = async (pattern: string) => {
    const items: { item: Record<string, unknown> }[] = [];
    let cursor: string | undefined;
    do {
      const page = await queryOf(pattern)(INPUTS[pattern], { limit: 4, cursor });
      items.push(...page.items as { item: Record<string, unknown> }[]);
      cursor = page.cursor;
    } while (cursor);
    return items.map((i) => i.item);
  };
  const open = await all('byStatus');
  expect(open).toHaveLength(32);
  expect(new Set(open.map((i) => i.orderId)).size).toBe(32);
  expect(open.find((i) => i.orderId === 'o1')).toEqual(expect.objectContaining({ total: 1, note: 'n1', tags: new Set(['t1']) }));
  expect(Object.keys((await all('byStatusKeys'))[0]).sort()).toEqual(['customerId', 'orderId', 'placedAt', 'status']);
  expect((await all('byRegion')).every((i) => i.region === 'eu')).toBe(true);
  expect(await all('byRegion')).toHaveLength(33);
});

test('a sharded pattern\'s cursor is refused by another pattern and by the same pattern with other input', async () => {
  const { cursor } = await queryOf('byAll')(INPUTS.byAll, { limit: 1 });
  await expect(queryOf('rush')(INPUTS.rush, { cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  await expect(queryOf('byAll')({ status: 'SHIPPED' }, { cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
});
