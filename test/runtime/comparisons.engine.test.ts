// Sort-key comparisons on the embedded engine, in a partition shared with entities whose keys sort below
// and above: every comparison stays inside its entity's keys (bounded by the template's leading
// literals), strict and inclusive bounds are exact, and prefixes of multi-segment keys compare as
// whole groups.
import fc from 'fast-check';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { manifest } from '../fixtures/comparisons-manifest';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages } from '../support/requests';

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let run = 0;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

const ops = {
  lt: (a: number, b: number) => a < b,
  lte: (a: number, b: number) => a <= b,
  gt: (a: number, b: number) => a > b,
  gte: (a: number, b: number) => a >= b,
} as const;

test('each comparison returns exactly the readings on its side of the bound, none of the neighbours', async () => {
  const values = fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 12 });
  await fc.assert(fc.asyncProperty(values, fc.integer({ min: -6, max: 6 }), async (ns, bound) => {
    const s = `p${run++}`;
    await db.batchWrite([
      ...ns.map((n, i) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n, id: `i${i}` } })),
      { type: 'put', entity: 'Below', item: { s, x: 'b' } },
      { type: 'put', entity: 'Above', item: { s, x: 'a' } },
    ]);
    const readings = ns.map((n, i) => ({ n, id: `i${i}` })).sort((a, b) => a.n - b.n || (a.id < b.id ? -1 : 1));
    for (const op of Object.keys(ops) as (keyof typeof ops)[]) {
      const { items } = await allPages((cursor) => db.query(op, { s, n: bound }, { cursor, limit: 3 }));
      expect(items.map((r) => [r.entity, r.item.n, r.item.id])).toEqual(readings.filter((r) => ops[op](r.n, bound)).map((r) => ['Reading', r.n, r.id]));
    }
    // A bound on the leading attribute only covers its whole group of keys.
    const group = readings.filter((r) => r.n === bound).map((r) => r.id);
    const lte = await db.query('lte', { s, n: bound });
    expect(lte.items.filter((r) => r.item.n === bound).map((r) => r.item.id)).toEqual(group);
    const gt = await db.query('gt', { s, n: bound });
    expect(gt.items.some((r) => r.item.n === bound)).toBe(false);
  }), { numRuns: propertyRuns(12) });
});

test('a full key bound (every sort-key attribute) is exact, strict or inclusive', async () => {
  const s = `full${run++}`;
  await db.batchWrite(['a', 'b', 'c'].map((id) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n: 1, id } })));
  const ids = async (op: keyof typeof ops) => (await db.query(op, { s, n: 1, id: 'b' })).items.map((r) => r.item.id);
  expect(await ids('lt')).toEqual(['a']);
  expect(await ids('lte')).toEqual(['a', 'b']);
  expect(await ids('gt')).toEqual(['c']);
  expect(await ids('gte')).toEqual(['b', 'c']);
});

test('a comparison without a sort-key attribute is open: every reading, none of the neighbours', async () => {
  // The input type leaves every sort-key attribute optional. Without a literal floor the query
  // reads the whole partition; with one ('R#') it must read the whole entity range, for < and >
  // as for <= and >=, never an inverted BETWEEN (a ValidationException) or nothing.
  const s = `open${run++}`;
  await db.batchWrite([
    ...[-1, 0, 2].map((n, i) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n, id: `i${i}` } })),
    { type: 'put', entity: 'Below', item: { s, x: 'b' } },
    { type: 'put', entity: 'Above', item: { s, x: 'a' } },
  ]);
  for (const op of Object.keys(ops) as (keyof typeof ops)[]) {
    const { items } = await db.query(op, { s });
    expect([op, items.map((r) => [r.entity, r.item.n])]).toEqual([op, [['Reading', -1], ['Reading', 0], ['Reading', 2]]]);
  }
});

test('a comparison on a sort key of literals only, without input, reads the entity\'s one key', async () => {
  const s = `pin${run++}`;
  await db.batchWrite([
    { type: 'put', entity: 'Pinned', item: { s } },
    { type: 'put', entity: 'Reading', item: { s, n: 1, id: 'a' } },
    { type: 'put', entity: 'Below', item: { s, x: 'b' } },
  ]);
  for (const op of ['pinLt', 'pinLte', 'pinGt', 'pinGte'] as const) {
    const { items } = await db.query(op, { s });
    expect([op, items.map((r) => r.entity)]).toEqual([op, ['Pinned']]);
  }
});

test('a group bound holds values that start with the highest code point, U+10FFFF', async () => {
  // Group bounds were the prefix + U+10FFFF: a value starting with that character sorted above its
  // own group's top, so <= left it out and > let it in.
  const s = `top${run++}`;
  await db.batchWrite(['a', '\u{10FFFF}z'].map((id) => ({ type: 'put' as const, entity: 'Reading' as const, item: { s, n: 1, id } })));
  await db.putItem('Above', { s, x: '\u{10FFFF}' });
  const ids = async (op: keyof typeof ops, n: number) => (await db.query(op, { s, n })).items.map((r) => r.item.id);
  expect(await ids('lte', 1)).toEqual(['a', '\u{10FFFF}z']);
  expect(await ids('gte', 1)).toEqual(['a', '\u{10FFFF}z']);
  expect(await ids('gt', 1)).toEqual([]);
  expect(await ids('gt', 0)).toEqual(['a', '\u{10FFFF}z']);
  expect(await ids('lt', 2)).toEqual(['a', '\u{10FFFF}z']);
});
