// A generated access module of a manifest with GSIs keyed on the items' own attributes: its
// putItem writes the entities on them (nothing composed for those indexes), its query runs the
// patterns on them with the runtime's query over the whole model, the other patterns with their
// own parts, and both give the runtime's pages. The module is generated and loaded as users load theirs.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { accessModule } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { openTable as openRuntimeTable, putItem as runtimePutItem, query as runtimeQuery } from '../../lib/runtime';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

type Loose = (...args: unknown[]) => Promise<unknown>;
type Page = { items: unknown[]; cursor?: string };

const manifest = attributeKeyedManifest();
const model = resolveModel(manifest);
let engine: Engine;
let dir: string;
let source: string;
let access: Record<'putItem' | 'getItem', Loose> & { query: (...args: unknown[]) => Promise<Page>; openTable(options: object): { tableName: string } };

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  dir = mkdtempSync(path.join(tmpdir(), 'access-attribute-keys-'));
  const file = path.join(dir, 'manifest.access.ts');
  source = accessModule(model, { file, manifestFile: path.join(__dirname, '..', 'fixtures', 'attribute-keyed.ts'), runtime: path.join(__dirname, '../../lib/runtime') });
  writeFileSync(file, source);
  // Loaded through jest's own module system, which transpiles the generated TypeScript as it does the tests.
  access = jest.requireActual(file);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await engine.stop();
});

const invoices = [
  { tenantId: 't1', invoiceId: 'i1', status: 'OPEN', amount: 9, issuedAt: '2026-01-03T00:00:00.000Z', region: 'eu' },
  { tenantId: 't1', invoiceId: 'i2', status: 'OPEN', amount: 10, issuedAt: '2026-01-01T00:00:00.000Z' },
  { tenantId: 't1', invoiceId: 'i3', status: 'OPEN', amount: 100, issuedAt: '2026-01-02T00:00:00.000Z', region: 'eu' },
  { tenantId: 't1', invoiceId: 'i4', status: 'PAID', amount: 5, issuedAt: '2026-01-04T00:00:00.000Z', region: 'us' },
  { tenantId: 't2', invoiceId: 'i5', status: 'OPEN', amount: 7, issuedAt: '2026-01-05T00:00:00.000Z', region: 'eu' },
];

test('the module writes what the runtime writes, and reads every pattern as the runtime does, page by page', async () => {
  const tableName = await engine.createTable();
  const table = access.openTable({ client: engine.client, tableName, model: modelDocument(model) });
  const runtime = openRuntimeTable<typeof manifest>({ client: engine.client, tableName, model: modelDocument(model) });
  for (const invoice of invoices) await access.putItem(table, 'Invoice', invoice);
  await runtimePutItem(runtime, 'CreditNote', { tenantId: 't1', noteId: 'n1', status: 'OPEN', amount: 10, issuedAt: '2026-01-06T00:00:00.000Z', region: 'eu' });
  const inputs: Array<[string, Record<string, unknown>]> = [
    ['invoiceById', { invoiceId: 'i3' }],
    ['invoicesByStatus', { tenantId: 't1', status: 'OPEN' }],
    ['invoicesByStatusFrom', { tenantId: 't1', status: 'OPEN', amount: 10 }],
    ['invoicesByStatusBelow', { tenantId: 't1', status: 'OPEN', amount: 100 }],
    ['invoicesByStatusBetween', { tenantId: 't1', status: 'OPEN', between: [{ amount: 9 }, { amount: 10 }] }],
    ['documentsByStatus', { tenantId: 't1', status: 'OPEN' }],
    ['documentsByRegion', { region: 'eu', between: [{ issuedAt: '2026-01-02T00:00:00.000Z' }, { issuedAt: '2026-01-06T00:00:00.000Z' }] }],
  ];
  for (const [pattern, input] of inputs) {
    const expected = await runtimeQuery(runtime, pattern as never, input as never, { pages: 'all' });
    expect(expected.items.length).toBeGreaterThan(0);
    expect(await access.query(table, pattern, input, { pages: 'all' })).toEqual(expected);
    // A cursor of the module's page continues as the runtime's does.
    const first = await access.query(table, pattern, input, { limit: 1 });
    const next = await runtimeQuery(runtime, pattern as never, input as never, { limit: 1 });
    expect(first).toEqual(next);
  }
  // Nothing composed for the multi-attribute indexes: the module's items equal the runtime's, attribute for attribute.
  expect(await access.getItem(table, 'Invoice', { tenantId: 't1', invoiceId: 'i1' })).toEqual(invoices[0]);
});

test('the runtime\'s rules for such a pattern hold before any request, and an unknown pattern is named', async () => {
  const table = access.openTable({ client: engine.client, tableName: await engine.createTable(), model: modelDocument(model) });
  await expect(access.query(table, 'invoicesByStatus', { tenantId: 't1' })).rejects.toMatchObject({ code: 'MISSING_ATTRIBUTE', pattern: 'invoicesByStatus' });
  await expect(access.query(table, 'invoicesByStatu', { tenantId: 't1', status: 'OPEN' })).rejects.toThrow(/did you mean 'invoicesByStatus'\?/);
  // Only the patterns with composed keys carry parts of the model in the module.
  expect(source).toContain('invoiceByIdPattern');
  expect(source).not.toContain('invoicesByStatusPattern');
});
