// Property tests of the key rules (fast-check), on the embedded engine, where the engine's comparison is what
// counts: distinct items never share a key on any index; a begins_with prefix never crosses a
// delimiter boundary; numbers, dates and strings come back in value order.
import fc from 'fast-check';
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { TABLE_INDEX } from '../../lib/manifest/model';
import { AttributeKind, createClient, defineManifest, SortKeyCondition } from '../../lib/runtime';
import { itemToWrite } from '../../lib/runtime/items/requests';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages } from '../support/requests';

const manifest = defineManifest({
  entities: {
    Reading: {
      attributes: {
        series: { type: AttributeKind.STRING, required: true },
        n: { type: AttributeKind.NUMBER, required: true },
        id: { type: AttributeKind.STRING, required: true },
      },
      pk: 'NUM#{series}',
      sk: '{n}#{id}',
    },
    Event: {
      attributes: {
        tenant: { type: AttributeKind.STRING, required: true },
        a: { type: AttributeKind.STRING, required: true },
        at: { type: AttributeKind.DATE, required: true },
        id: { type: AttributeKind.STRING, required: true },
      },
      pk: 'TENANT#{tenant}',
      sk: 'E#{a}#{id}',
      indexes: { LSI1: { sk: 'AT#{at}#{id}' } },
    },
  },
  accessPatterns: {
    readings: { entities: ['Reading'], sortKeyCondition: SortKeyCondition.BETWEEN },
    eventsByA: { entities: ['Event'], sortKeyCondition: SortKeyCondition.BEGINS_WITH },
    eventsByTime: { entities: ['Event'], index: 'LSI1', sortKeyCondition: SortKeyCondition.GREATER_THAN_OR_EQUAL },
  },
});

const utf8Compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
// Strings with the characters that need care: delimiters, escapes, spaces, non-ASCII.
const tricky = fc.string({ unit: fc.constantFrom('a', 'b', '#', '$', ' ', '!', '%', 'é', '😀', '\u0000'), minLength: 1, maxLength: 6 });
// Doubles DynamoDB can store: 0 or a magnitude of at least 1e-130 (input-errors tests the others).
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).filter((n) => n === 0 || Math.abs(n) >= 1e-130),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0, 99.99, 100, -1.5, 1e-7),
);
const date = fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true });

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let run = 0;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: manifest, client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

describe('no collisions', () => {
  const model = compileManifest(example).model;
  const kinds: Record<string, fc.Arbitrary<unknown>> = {
    STRING: tricky, NUMBER: number, DATE: date.map((d) => d.toISOString()), BOOLEAN: fc.boolean(),
  };
  const value = (kind: string) => kinds[kind];
  const item = fc.constantFrom(...Object.values(model.entities)).chain((entity) => fc.record(Object.fromEntries(
    Object.values(entity.attributes).filter((a) => value(a.type)).map((a) => [a.name, value(a.type)]),
  )).map((values) => ({ entity, values })));

  test('two items of any entities with the same key on an index have the same entity and the same key inputs', () => {
    fc.assert(fc.property(item, item, (x, y) => {
      const wx = itemToWrite(model, x.entity, x.values);
      const wy = itemToWrite(model, y.entity, y.values);
      for (const index of Object.values(model.indexes)) {
        const slot = x.entity.keys[index.name];
        const keyOf = (w: typeof wx) => [w[index.partitionKey]?.S, index.sortKey && w[index.sortKey]?.S];
        const [kx, ky] = [keyOf(wx), keyOf(wy)];
        if (!slot || kx.includes(undefined) || JSON.stringify(kx) !== JSON.stringify(ky)) continue;
        expect(y.entity.name).toBe(x.entity.name);
        const inputs = index.name === TABLE_INDEX || index.type === 'GSI' ? [...slot.pk.attributes, ...(slot.sk?.attributes ?? [])] : [...x.entity.keys.table.pk.attributes, ...slot.sk!.attributes];
        for (const name of inputs) expect(y.values[name]).toEqual(x.values[name]);
      }
    }), { numRuns: propertyRuns(300) });
  });

  test('on the engine: distinct readings stay distinct items', async () => {
    await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.tuple(number, tricky), { minLength: 1, maxLength: 25, selector: ([n, id]) => `${Object.is(n, -0) ? 0 : n}|${id}` }), async (pairs) => {
      const series = `c${run++}`;
      await db.batchWrite(pairs.map(([n, id]) => ({ type: 'put' as const, entity: 'Reading' as const, item: { series, n, id } })));
      const { items } = await allPages((cursor) => db.query('readings', { series, between: [{}, {}] }, { cursor }));
      expect(items).toHaveLength(pairs.length);
    }), { numRuns: propertyRuns(15) });
  });
});

test('begins_with on a value returns that value\'s items only, never those of a longer value it prefixes', async () => {
  const valueSets = fc.uniqueArray(tricky, { minLength: 2, maxLength: 6 });
  await fc.assert(fc.asyncProperty(valueSets, fc.integer({ min: 1, max: 3 }), async (values, perValue) => {
    const tenant = `t${run++}`;
    // Add values that extend others (`a` and `ab`, `a#`, `a b`) to hit the boundary cases.
    const all = [...new Set([...values, ...values.map((v) => v + 'b'), ...values.map((v) => v + '#x')])];
    const at = '2024-01-01T00:00:00.000Z';
    await db.batchWrite(all.flatMap((a) => Array.from({ length: perValue }, (_, i) => ({ type: 'put' as const, entity: 'Event' as const, item: { tenant, a, at, id: `i${i}` } }))));
    for (const a of all) {
      const { items } = await allPages((cursor) => db.query('eventsByA', { tenant, a }, { cursor, limit: 2 }));
      expect(items.map((r) => r.item.a)).toEqual(Array(perValue).fill(a));
    }
  }), { numRuns: propertyRuns(10) });
});

test('numbers sort numerically on the engine (negatives, decimals, exponents), both orders', async () => {
  await fc.assert(fc.asyncProperty(fc.array(number, { minLength: 1, maxLength: 30 }), async (ns) => {
    const series = `n${run++}`;
    await db.batchWrite(ns.map((n, i) => ({ type: 'put' as const, entity: 'Reading' as const, item: { series, n, id: String(i).padStart(3, '0') } })));
    const expected = ns.map((n, i) => ({ n: n === 0 ? 0 : n, id: String(i).padStart(3, '0') })).sort((a, b) => a.n - b.n || (a.id < b.id ? -1 : 1));
    const asc = await allPages((cursor) => db.query('readings', { series, between: [{}, {}] }, { cursor, limit: 7 }));
    expect(asc.items.map((r) => [r.item.n === 0 ? 0 : r.item.n, r.item.id])).toEqual(expected.map((e) => [e.n, e.id]));
    const lo = expected[Math.floor(expected.length / 3)].n;
    const hi = expected[Math.floor((2 * expected.length) / 3)].n;
    const ranged = await db.query('readings', { series, between: [{ n: lo }, { n: hi }] }, { order: 'desc' });
    expect(ranged.items.map((r) => r.item.n)).toEqual(expected.filter((e) => e.n >= lo && e.n <= hi).map((e) => e.n).reverse());
  }), { numRuns: propertyRuns(15) });
});

test('dates (normalized to ISO UTC) and strings (UTF-8 order) sort as values on the engine', async () => {
  await fc.assert(fc.asyncProperty(fc.array(fc.tuple(date, tricky), { minLength: 1, maxLength: 20 }), async (rows) => {
    const tenant = `d${run++}`;
    await db.batchWrite(rows.map(([d, a], i) => ({ type: 'put' as const, entity: 'Event' as const, item: { tenant, a, at: d, id: String(i).padStart(3, '0') } })));
    const ids = rows.map((_, i) => String(i).padStart(3, '0'));
    const byTime = [...ids].sort((x, y) => rows[+x][0].getTime() - rows[+y][0].getTime() || (x < y ? -1 : 1));
    const from = rows[0][0];
    const timed = await allPages((cursor) => db.query('eventsByTime', { tenant, at: from }, { cursor, limit: 5 }));
    expect(timed.items.map((r) => r.item.id)).toEqual(byTime.filter((id) => rows[+id][0].getTime() >= from.getTime()));
    expect(timed.items.every((r) => r.item.at === rows[+(r.item.id as string)][0].toISOString())).toBe(true);
    const byA = [...ids].sort((x, y) => utf8Compare(rows[+x][1], rows[+y][1]) || (x < y ? -1 : 1));
    const all = await allPages((cursor) => db.query('eventsByA', { tenant }, { cursor, limit: 6 }));
    expect(all.items.map((r) => r.item.id)).toEqual(byA);
  }), { numRuns: propertyRuns(15) });
});
