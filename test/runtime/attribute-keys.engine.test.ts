// GSIs keyed on the items' own attributes (multi-attribute keys) on DynamoDB Local, with the table
// created from the synthesized template: writes carry no composed key for them, items lacking a key
// attribute stay out, every query shape DynamoDB allows returns what it should in number and string
// order, and the shapes it refuses are refused before any request, naming the rule and the fix.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { allPages, countRequests } from '../support/requests';

const manifest = attributeKeyedManifest();
let engine: Engine;
let db: ReturnType<typeof createClient>;
let tableName: string;

const day = (d: number) => `2026-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;
/** Acme's open invoices: amounts that sort differently as strings (-1.5, 1e6, 100 before 9). */
const AMOUNTS: [string, number, number][] = [['i1', 10, 4], ['i2', 9, 2], ['i3', 100, 3], ['i4', 10, 1], ['i5', -1.5, 5], ['i6', 0, 6], ['i7', 1e6, 7]];
const byAmountThenDate = [...AMOUNTS].sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(([id]) => id);

const ids = (items: { entity: string; item: Record<string, unknown> }[]) => items.map(({ item }) => (item.invoiceId ?? item.noteId) as string);

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  tableName = await engine.createTable();
  db = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName });
  const invoice = (invoiceId: string, amount: number, d: number, extra: Record<string, unknown> = {}) =>
    ({ type: 'put' as const, entity: 'Invoice', item: { tenantId: 'acme', invoiceId, status: 'OPEN', amount, issuedAt: day(d), ...extra } });
  await db.batchWrite([
    ...AMOUNTS.map(([id, amount, d]) => invoice(id, amount, d, d % 2 ? { region: 'eu' } : {})),
    invoice('p1', 50, 8, { status: 'PAID', region: 'eu' }),
    { type: 'put' as const, entity: 'Invoice', item: { tenantId: 'other', invoiceId: 'x1', status: 'OPEN', amount: 5, issuedAt: day(9) } },
    { type: 'put' as const, entity: 'CreditNote', item: { tenantId: 'acme', noteId: 'c1', status: 'OPEN', amount: 9.5, issuedAt: day(10), region: 'eu' } },
    { type: 'put' as const, entity: 'Customer', item: { tenantId: 'acme', customerId: 'u1', region: 'eu' } },
  ]);
});
afterAll(() => engine.stop());

test('a write stores the item as declared: no composed key for the multi-attribute indexes, numbers as numbers', async () => {
  const stored = (await engine.client.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: 'TENANT#acme' }, SK: { S: 'INVOICE#i1' } } }))).Item!;
  expect(Object.keys(stored).sort()).toEqual(['GSI1PK', 'GSI1SK', 'PK', 'SK', 'Type', 'amount', 'invoiceId', 'issuedAt', 'status', 'tenantId']);
  expect(stored.amount).toEqual({ N: '10' });
  expect(stored.issuedAt).toEqual({ S: day(4) });
});

test('every partition attribute selects the partition; results sort by number, then by date', async () => {
  const page = await db.query('invoicesByStatus', { tenantId: 'acme', status: 'OPEN' });
  expect(ids(page.items)).toEqual(byAmountThenDate);
  expect(page.items[0]).toEqual({ entity: 'Invoice', item: { tenantId: 'acme', invoiceId: 'i5', status: 'OPEN', amount: -1.5, issuedAt: day(5), region: 'eu' } });
  expect(ids((await db.query('invoicesByStatus', { tenantId: 'acme', status: 'PAID' })).items)).toEqual(['p1']);
  expect(ids((await db.query('invoicesByStatus', { tenantId: 'other', status: 'OPEN' })).items)).toEqual(['x1']);
});

test('a pattern over several entities returns them in index order; one over one entity leaves the other out', async () => {
  const both = await db.query('documentsByStatus', { tenantId: 'acme', status: 'OPEN' });
  expect(both.items.map(({ entity, item }) => `${entity}:${(item.invoiceId ?? item.noteId) as string}`))
    .toEqual([...byAmountThenDate.slice(0, 3).map((id) => `Invoice:${id}`), 'CreditNote:c1', ...byAmountThenDate.slice(3).map((id) => `Invoice:${id}`)].reverse());
  expect(ids((await db.query('invoicesByStatus', { tenantId: 'acme', status: 'OPEN' })).items)).not.toContain('c1');
});

test('an item without a key attribute is not in the index (sparse), and strings sort as UTF-8', async () => {
  const page = await db.query('documentsByRegion', { region: 'eu', between: [{ issuedAt: day(1) }, { issuedAt: day(31) }] });
  // Odd days carry a region; the customer has one but no issuedAt, and the pattern does not return it anyway.
  expect(ids(page.items)).toEqual(['i4', 'i3', 'i5', 'i7', 'p1', 'c1']);
});

describe('sort conditions: leading sort attributes by equality, the condition on the last one given', () => {
  const acme = { tenantId: 'acme', status: 'OPEN' } as const;
  test.each([
    ['invoicesByStatusEqual', { amount: 10 }, ['i4', 'i1']],
    ['invoicesByStatusEqual', { amount: 10, issuedAt: day(4) }, ['i1']],
    ['invoicesByStatusEqual', {}, byAmountThenDate],
    ['invoicesByStatusPrefix', { amount: 10, issuedAt: '2026-01-0' }, ['i4', 'i1']],
    ['invoicesByStatusFrom', { amount: 10 }, ['i4', 'i1', 'i3', 'i7']],
    ['invoicesByStatusFrom', { amount: 10, issuedAt: day(2) }, ['i1']],
    ['invoicesByStatusAbove', { amount: 9 }, ['i4', 'i1', 'i3', 'i7']],
    ['invoicesByStatusAbove', { amount: 10, issuedAt: day(1) }, ['i1']],
    ['invoicesByStatusBelow', { amount: 10 }, ['i2', 'i6', 'i5']],
    ['invoicesByStatusUpTo', { amount: 10 }, ['i5', 'i6', 'i2', 'i4', 'i1']],
    ['invoicesByStatusBetween', { between: [{ amount: 0 }, { amount: 10 }] }, ['i6', 'i2', 'i4', 'i1']],
    ['invoicesByStatusBetween', { between: [{ amount: 10, issuedAt: day(2) }, { amount: 10, issuedAt: day(9) }] }, ['i1']],
  ])('%s %j', async (pattern, sort, expected) => {
    expect(ids((await db.query(pattern as never, { ...acme, ...sort } as never)).items)).toEqual(expected);
  });
});

test('pages of any size concatenate to the whole result; a cursor is bound to its input', async () => {
  const input = { tenantId: 'acme', status: 'OPEN' };
  for (const limit of [1, 2, 3, 7]) {
    const paged = await allPages((cursor) => db.query('invoicesByStatus', input, { limit, cursor }));
    expect(ids(paged.items)).toEqual(byAmountThenDate);
  }
  const { cursor } = await db.query('invoicesByStatus', input, { limit: 2 });
  await expect(db.query('invoicesByStatus', { tenantId: 'acme', status: 'PAID' }, { cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
});

test('an update of a key attribute moves the item in the index; nothing else is written for it', async () => {
  await db.updateItem('Invoice', { tenantId: 'acme', invoiceId: 'p1', status: 'VOID' });
  expect(ids((await db.query('invoicesByStatus', { tenantId: 'acme', status: 'VOID' })).items)).toEqual(['p1']);
  expect((await db.query('invoicesByStatus', { tenantId: 'acme', status: 'PAID' })).items).toEqual([]);
});

describe('refused before any request, naming the pattern or entity, the attribute, the rule and the fix', () => {
  let requests: ReturnType<typeof countRequests>;
  beforeAll(() => {
    requests = countRequests(db.table.dynamodb);
  });
  afterEach(() => expect(requests.total()).toBe(0));

  test.each([
    ['a partition attribute left out', 'invoicesByStatus', { tenantId: 'acme' }, 'MISSING_ATTRIBUTE', /pattern invoicesByStatus, attribute status: .*every partition attribute of ByStatus \(tenantId, status\)/],
    ['a sort attribute skipped', 'invoicesByStatusFrom', { tenantId: 'acme', status: 'OPEN', issuedAt: day(1) }, 'INVALID_QUERY_INPUT', /attribute issuedAt: .*without amount before it.*left to right.*give amount too, or leave issuedAt out/],
    ['an attribute the index does not key on', 'invoicesByStatusFrom', { tenantId: 'acme', status: 'OPEN', note: 'x' }, 'INVALID_QUERY_INPUT', /input 'note' is not used by this pattern/],
    ['sort attributes on a pattern without a condition', 'invoicesByStatus', { tenantId: 'acme', status: 'OPEN', amount: 1 }, 'INVALID_QUERY_INPUT', /input 'amount' is not used by this pattern/],
    ['BETWEEN bounds that differ before the last attribute', 'invoicesByStatusBetween', { tenantId: 'acme', status: 'OPEN', between: [{ amount: 1, issuedAt: day(1) }, { amount: 2, issuedAt: day(2) }] }, 'INVALID_QUERY_INPUT', /amount is 1 in the low bound and 2 in the high bound/],
    ['BETWEEN bounds naming different attributes', 'invoicesByStatusBetween', { tenantId: 'acme', status: 'OPEN', between: [{ amount: 1 }, { amount: 1, issuedAt: day(2) }] }, 'INVALID_QUERY_INPUT', /both bounds name the same sort attributes/],
    ['an inverted BETWEEN', 'invoicesByStatusBetween', { tenantId: 'acme', status: 'OPEN', between: [{ amount: 10 }, { amount: 9 }] }, 'INVALID_QUERY_INPUT', /low bound 10 is above the high bound 9/],
    ['a value of another kind', 'invoicesByStatusFrom', { tenantId: 'acme', status: 'OPEN', amount: 'ten' }, 'INVALID_VALUE', /attribute amount/],
    ['an empty string', 'invoicesByStatus', { tenantId: 'acme', status: '' }, 'INVALID_VALUE', /attribute status: .*empty string/],
    ['a partition value over 2048 bytes', 'invoicesByStatus', { tenantId: 'acme', status: 'é'.repeat(1025) }, 'KEY_TOO_LARGE', /attribute status: .*2050 bytes.*2048/],
  ])('%s', async (_what, pattern, input, code, message) => {
    const query = db.query(pattern as never, input as never);
    await expect(query).rejects.toMatchObject({ code });
    await expect(db.query(pattern as never, input as never)).rejects.toThrow(message);
  });

  test.each([
    ['an empty string in a key attribute', { status: '' }, 'INVALID_VALUE', /entity Invoice, attribute status: .*key attribute of ByStatus.*empty string.*leave the attribute out/],
    ['a partition attribute value over 2048 bytes', { status: 'x'.repeat(2049) }, 'KEY_TOO_LARGE', /entity Invoice, attribute status: .*2049 bytes.*2048/],
  ])('a write with %s', async (_what, change, code, message) => {
    const item = Object.assign({ tenantId: 'acme', invoiceId: 'bad', status: 'OPEN', amount: 1, issuedAt: day(1) }, change);
    await expect(db.putItem('Invoice', item as never)).rejects.toMatchObject({ code });
    await expect(db.putItem('Invoice', item as never)).rejects.toThrow(message);
    await expect(db.updateItem('Invoice', { tenantId: 'acme', invoiceId: 'i1', ...change } as never)).rejects.toMatchObject({ code });
  });
});
