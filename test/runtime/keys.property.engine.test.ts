// Property tests of the key rules (fast-check), on the embedded engine, where the engine's comparison is what
// counts: distinct items never share a key on any index; a begins_with prefix never crosses a
// delimiter boundary; numbers, dates and strings come back in value order.
import fc from 'fast-check';
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { TABLE_INDEX } from '../../lib/model/model';
import { AttributeKind, createClient, defineManifest, SortKeyCondition } from '../../lib/runtime';
import { itemToWrite } from '../../lib/runtime/items/requests';
import { compileModelFile } from '../../lib/testing';
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
/**
 * Numbers whose encodings part late, on purpose: one digit string shifted by powers of ten, extended
 * by a digit, of both signs (-12 and -120, -1 and -1.5, 12 and 12.5): equal exponents with one
 * mantissa a prefix of another, where a negative's terminator decides the order.
 */
const nearNumbers = fc.integer({ min: 1, max: 999 }).chain((m) => fc.shuffledSubarray(
  [m, m * 10, m / 10, m / 100, m + 0.5, m * 10 + 1, m * 10 + 9].flatMap((n) => [n, -n]),
  { minLength: 2 },
));

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let run = 0;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
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

  /** A value next to `v` in its kind: the same, or one whose encoding differs in a delimiter, an escape, a sign or a digit. */
  const near = (kind: string, v: unknown): fc.Arbitrary<unknown> => {
    switch (kind) {
      case 'STRING': return fc.constantFrom(v, `${v}#`, `${v}$`, `${v}#x`, `${v} `, String(v).replace(/#/g, '$d'), String(v).replace(/\$d/g, '#'), `#${v}`, [...String(v)].slice(1).join('') || 'a');
      case 'NUMBER': return fc.constantFrom(v, -(v as number), (v as number) * 10, (v as number) / 10, (v as number) + 0.5);
      case 'DATE': return fc.constantFrom(v, new Date(Date.parse(v as string) + 1).toISOString());
      case 'BOOLEAN': return fc.constantFrom(v, !v);
      default: return fc.constant(v);
    }
  };
  /** Key inputs of an index slot: what its templates compose the key from. */
  const inputsOf = (entity: typeof model.entities[string], index: string): string[] => {
    const slot = entity.keys[index];
    return index === TABLE_INDEX || model.indexes[index].type === 'GSI'
      ? [...slot.pk.attributes, ...(slot.sk?.attributes ?? [])] : [...entity.keys.table.pk.attributes, ...slot.sk!.attributes];
  };
  /** What a sharded index's shard comes from: the shard attribute, or (RANDOM) the table key. */
  const shardInputsOf = (entity: typeof model.entities[string], index: string): string[] => {
    const shards = model.indexes[index].shards;
    return !shards ? [] : shards.attribute ? [shards.attribute] : inputsOf(entity, TABLE_INDEX);
  };
  /**
   * A second item made to collide with the first if anything can: its values with some moved next to
   * them, on its own entity or on another that has attributes of the same names (its key inputs
   * copied over); or any item.
   */
  const second = (x: { entity: typeof model.entities[string]; values: Record<string, unknown> }) => fc.oneof(
    fc.tuple(fc.constantFrom(...Object.values(model.entities)), fc.boolean()).chain(([entity, sameEntity]) => {
      const target = sameEntity ? x.entity : entity;
      const names = Object.keys(target.attributes).filter((n) => value(target.attributes[n].type));
      return fc.tuple(...names.map((n) => {
        const own = kinds[target.attributes[n].type];
        const kind = target.attributes[n].type;
        const copied = x.values[n] !== undefined && x.entity.attributes[n]?.type === kind ? near(kind, x.values[n]) : own;
        return fc.oneof({ weight: 4, arbitrary: copied }, { weight: 1, arbitrary: own });
      })).map((vs) => ({ entity: target, values: Object.fromEntries(names.map((n, i) => [n, vs[i]])) }));
    }),
    item,
  );

  test('two items share a key on an index only when they are of one entity with the same key inputs there, and always then', () => {
    fc.assert(fc.property(item.chain((x) => fc.tuple(fc.constant(x), second(x))), ([x, y]) => {
      const wx = itemToWrite(model, x.entity, x.values);
      const wy = itemToWrite(model, y.entity, y.values);
      for (const index of Object.values(model.indexes)) {
        const keyOf = (w: typeof wx) => [w[index.partitionKey]?.S, index.sortKey === undefined ? '' : w[index.sortKey]?.S];
        // Both items must be in the index (a sparse index leaves one out).
        if (!x.entity.keys[index.name] || !y.entity.keys[index.name] || [...keyOf(wx), ...keyOf(wy)].includes(undefined)) continue;
        const equal = (names: string[]) => names.every((n) => JSON.stringify(y.values[n]) === JSON.stringify(x.values[n]));
        const sameInputs = y.entity.name === x.entity.name && equal(inputsOf(x.entity, index.name));
        const sameKey = JSON.stringify(keyOf(wx)) === JSON.stringify(keyOf(wy));
        // Two RANDOM-sharded items of different table keys may share a shard, so only the first rule is strict there.
        const sameInputsSameKey = !sameInputs || !equal(shardInputsOf(x.entity, index.name)) || sameKey;
        expect({ index: index.name, keyOnlyFromSameInputs: !sameKey || sameInputs, sameInputsSameKey })
          .toEqual({ index: index.name, keyOnlyFromSameInputs: true, sameInputsSameKey: true });
      }
    }), { numRuns: propertyRuns(300) });
  });

  test('on the engine: distinct readings stay distinct items', async () => {
    await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.tuple(number, tricky), { minLength: 1, maxLength: 25, selector: ([n, id]) => `${Object.is(n, -0) ? 0 : n}|${id}` }), async (pairs) => {
      const series = `c${run++}`;
      await db.batchWrite(pairs.map(([n, id]) => ({ type: 'put' as const, entity: 'Reading' as const, item: { series, n, id } })));
      const { items } = await allPages((cursor) => db.query('readings', { series, between: [{}, {}] }, { cursor }));
      expect(items).toHaveLength(pairs.length);
    }), { numRuns: propertyRuns(20) });
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
    const found = await Promise.all(all.map((a) => allPages((cursor) => db.query('eventsByA', { tenant, a }, { cursor, limit: 2 }))));
    all.forEach((a, i) => expect(found[i].items.map((r) => r.item.a)).toEqual(Array(perValue).fill(a)));
  }), { numRuns: propertyRuns(15) });
});

test('numbers sort numerically on the engine (negatives, decimals, exponents), both orders', async () => {
  const numbers = fc.oneof(
    fc.array(number, { minLength: 1, maxLength: 30 }),
    nearNumbers,
    fc.tuple(nearNumbers, fc.array(number, { maxLength: 10 })).map(([a, b]) => [...a, ...b]),
  );
  await fc.assert(fc.asyncProperty(numbers, async (ns) => {
    const series = `n${run++}`;
    await db.batchWrite(ns.map((n, i) => ({ type: 'put' as const, entity: 'Reading' as const, item: { series, n, id: String(i).padStart(3, '0') } })));
    const expected = ns.map((n, i) => ({ n: n === 0 ? 0 : n, id: String(i).padStart(3, '0') })).sort((a, b) => a.n - b.n || (a.id < b.id ? -1 : 1));
    const asc = await allPages((cursor) => db.query('readings', { series, between: [{}, {}] }, { cursor, limit: 7 }));
    expect(asc.items.map((r) => [r.item.n === 0 ? 0 : r.item.n, r.item.id])).toEqual(expected.map((e) => [e.n, e.id]));
    const lo = expected[Math.floor(expected.length / 3)].n;
    const hi = expected[Math.floor((2 * expected.length) / 3)].n;
    const ranged = await db.query('readings', { series, between: [{ n: lo }, { n: hi }] }, { order: 'desc' });
    expect(ranged.items.map((r) => r.item.n)).toEqual(expected.filter((e) => e.n >= lo && e.n <= hi).map((e) => e.n).reverse());
  }), { numRuns: propertyRuns(30) });
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
  }), { numRuns: propertyRuns(20) });
});
