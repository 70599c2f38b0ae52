// The item builder a generated access module writes for each entity's put (straight-line code)
// against the runtime's own (buildPut, what putItem sends): for arbitrary entities (attributes of every
// kind, required or optional; table, overloaded, sparse, sharded and LSI keys) and arbitrary items,
// the same stored item or the same error.
import { transformSync } from 'esbuild';
import fc from 'fast-check';
import { accessModule } from '../../lib/generate/access-module';
import { ALLOWED_DELIMITERS } from '../../lib/keys/encoding';
import { checkManifest } from '../../lib/manifest/compile';
import type { SingleTableManifest } from '../../lib/model/manifest';
import type { TableModel } from '../../lib/model/model';
import * as runtime from '../../lib/runtime';
import * as access from '../../lib/runtime/access';
import { buildPut } from '../../lib/runtime/items/requests';
import { propertyRuns } from '../support/property-runs';

const KINDS = ['STRING', 'NUMBER', 'DATE', 'BOOLEAN'] as const;
const OTHER_KINDS = ['LIST', 'MAP', 'STRING_SET', 'NUMBER_SET'] as const;

/** Evaluates a generated module (TypeScript) against the runtime's sources. */
function evaluate(text: string): Record<string, any> {
  const { code } = transformSync(text, { loader: 'ts', format: 'cjs' });
  const module = { exports: {} as Record<string, any> };
  // A module of entities without maintained attributes imports the runtime and its `/access` helpers only.
  const load = (id: string) => {
    if (id === 'cdk-single-table/runtime') return runtime;
    if (id === 'cdk-single-table/runtime/access') return access;
    throw new Error(`unexpected import ${id}`);
  };
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  return module.exports;
}

/** Text rich in what keys escape or refuse: characters up to '$' or '+', surrogates (paired or lone). */
const text = fc.string({
  minLength: 1,
  unit: fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x2b }) },
    { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }) },
    { weight: 30, arbitrary: fc.integer({ min: 0x2c, max: 0x7e }) },
  ).map((c) => String.fromCharCode(c)),
  maxLength: 5,
});

/** A value of a kind, mostly valid, sometimes absent, empty, false or of another kind. */
function valueOf(kind: string): fc.Arbitrary<unknown> {
  const valid: Record<string, fc.Arbitrary<unknown>> = {
    // Long text crosses the key size limits: 1,200 bytes of UTF-8 in 400 characters fits a partition key, not a sort key.
    STRING: fc.oneof({ weight: 12, arbitrary: text }, { weight: 2, arbitrary: fc.constant('') }, fc.constantFrom('\u4e2d'.repeat(400), 'x'.repeat(700), 'x'.repeat(2100))),
    NUMBER: fc.oneof({ weight: 4, arbitrary: fc.integer() }, fc.double(), fc.constantFrom(0, -0, 1e-131, 1e126, 1.5e125)),
    DATE: fc.oneof(
      { weight: 4, arbitrary: fc.date({ min: new Date(-1e12), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()) },
      fc.date({ noInvalidDate: false }),
      fc.constantFrom('2024-02-30', '2024-01-01', '2024-01-01T10:00+02:00', 'yesterday'),
    ),
    BOOLEAN: fc.boolean(),
    LIST: fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer(), fc.constant(undefined)), { maxLength: 2 }),
    MAP: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.string({ maxLength: 2 }), fc.integer())),
    STRING_SET: fc.constantFrom(new Set(['a']), new Set(), new Set([1]), ['a']),
    NUMBER_SET: fc.constantFrom(new Set([1, 2.5]), new Set(), new Set(['a']), new Set([Infinity])),
  };
  return fc.oneof(
    { weight: 30, arbitrary: valid[kind] },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, '', 0, false, 'x', [], {}) },
  );
}

interface Drawn {
  readonly manifest: SingleTableManifest;
  readonly kinds: Record<string, string>;
}

/** An entity E of 2 to 5 attributes a0.. (a0, a1 keyable and often required) and its keys. */
export const entity: fc.Arbitrary<Drawn> = fc.record({
  delimiter: fc.constantFrom(...ALLOWED_DELIMITERS),
  kinds: fc.array(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...KINDS) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_KINDS) }),
    { minLength: 2, maxLength: 5 },
  ),
  required: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  templates: fc.array(fc.tuple(fc.constantFrom('', 'X', 'AB C'), fc.array(fc.nat(4), { minLength: 0, maxLength: 2 })), { minLength: 6, maxLength: 6 }),
  gsis: fc.nat(2),
  lsi: fc.boolean(),
  shard: fc.constantFrom('none', 'RANDOM', 'ATTRIBUTE'),
}).map(({ delimiter, kinds, required, templates, gsis, lsi, shard }) => {
  // a0 and a1 hold the table key: required, and of a kind that always gives a key.
  const all = kinds.map((k, i) => (i < 2 && !['STRING', 'NUMBER', 'DATE'].includes(k) ? 'STRING' : k));
  const keyable = all.map((k, i) => [k, i] as const).filter(([k]) => (KINDS as readonly string[]).includes(k)).map(([, i]) => `a${i}`);
  // A template: a literal, then up to two keyable attributes; one with none reads a0.
  const template = ([literal, picks]: [string, number[]], fallback: string, table = false) => {
    const names = [...new Set(picks.map((p) => (table ? ['a0', 'a1'][p % 2] : keyable[p % keyable.length])))];
    const parts = [...(literal ? [literal.replace(' ', delimiter)] : []), ...(names.length ? names : [fallback]).map((n) => `{${n}}`)];
    return parts.join(delimiter);
  };
  const attributes = Object.fromEntries(all.map((k, i) => [`a${i}`, { type: k, required: i < 2 || required[i] }]));
  const indexes: Record<string, { pk?: string; sk?: string }> = {};
  for (let g = 1; g <= gsis; g++) indexes[`GSI${g}`] = { pk: template(templates[g + 1], 'a1'), sk: template(templates[g + 3], 'a0') };
  if (lsi) indexes.LSI1 = { sk: template(templates[5], 'a1') };
  const globalIndexes: Record<string, object> = {};
  for (let g = 1; g <= gsis; g++) globalIndexes[`GSI${g}`] = {};
  if (gsis && shard !== 'none') {
    globalIndexes.GSI1 = shard === 'RANDOM' ? { sharding: { shardCount: 3 } } : { sharding: { shardCount: 4, strategy: 'ATTRIBUTE', shardAttribute: 'a1' } };
  }
  const manifest = {
    delimiter,
    entities: { E: { attributes, pk: template(templates[0], 'a0', true), sk: template(templates[1], 'a1', true), indexes, maxItemsPerPartition: 1000, writesPerSecond: 1 } },
    globalIndexes,
    localIndexes: { enabled: lsi },
  } as unknown as SingleTableManifest;
  return { manifest, kinds: Object.fromEntries(all.map((k, i) => [`a${i}`, k])) };
});

/** The outcome of a build: the stored item, or the error's code, message and context. */
function outcome(build: () => unknown): unknown {
  try {
    return { item: build() };
  } catch (e) {
    const err = e as { code?: string; message: string; entity?: string; attribute?: string };
    return { code: err.code, message: err.message, entity: err.entity, attribute: err.attribute };
  }
}

const modules = new Map<string, { model: TableModel; module: Record<string, any> } | undefined>();

/** The model of a manifest and its generated module (undefined where the manifest is refused). */
function generated(manifest: SingleTableManifest) {
  const key = JSON.stringify(manifest);
  if (!modules.has(key)) {
    const { model } = checkManifest(manifest);
    const options = { file: '/app/m.access.ts', manifestFile: '/app/m.ts' };
    modules.set(key, model && { model, module: evaluate(accessModule(model, options)) });
  }
  return modules.get(key);
}

test('a put\'s item builder stores what the runtime\'s put stores, or throws the same error, for any entity and any item', () => {
  let stored = 0;
  let runs = 0;
  let refused = 0;
  fc.assert(
    fc.property(entity.chain((drawn) => {
      const values = Object.fromEntries(Object.entries(drawn.kinds).map(([n, k]) => [n, valueOf(k)]));
      return fc.tuple(fc.constant(drawn), fc.oneof(
        { weight: 12, arbitrary: fc.record(values) },
        { weight: 2, arbitrary: fc.record(values, { requiredKeys: [] }) },
        // A name the entity does not declare: refused where it holds a value, ignored where it is undefined.
        { weight: 2, arbitrary: fc.record({ ...values, extra: fc.constantFrom(1, undefined) }) },
        { weight: 1, arbitrary: fc.constantFrom(null, 'text', 1, [], undefined) },
      ));
    }), ([drawn, item]) => {
      const built = generated(drawn.manifest);
      refused += built === undefined ? 1 : 0;
      fc.pre(built !== undefined);
      const { model, module } = built!;
      const expected = outcome(() => buildPut(model, 't', 'E', item as never).Item);
      expect(outcome(() => module.EPut.item(item))).toEqual(expected);
      runs++;
      if ('item' in (expected as object)) stored++;
    }),
    { numRuns: propertyRuns(100) },
  );
  // Every drawn manifest is one the compiler accepts, and a good share of the items are stored: the
  // property covers the builder's own path, not only its errors. The share is about 0.38 (0.27 to
  // 0.47 over 40 seeds); the bound is far enough below it that no seed fails by chance.
  expect(refused).toBe(0);
  expect(stored / runs).toBeGreaterThan(0.15);
});

test('the builder keeps an item out of a sparse index when a key attribute is absent, empty or false, as the runtime does', () => {
  const { module } = generated({
    entities: {
      E: {
        attributes: { id: { type: 'STRING', required: true }, on: { type: 'BOOLEAN' }, at: { type: 'DATE' }, tag: { type: 'STRING' } },
        pk: 'E#{id}',
        sk: 'E#{id}',
        indexes: { GSI1: { pk: 'ON#{on}', sk: '{at}' }, GSI2: { pk: 'TAG#{tag}', sk: 'E#{id}' } },
      },
    },
    globalIndexes: { GSI1: {}, GSI2: {} },
  } as unknown as SingleTableManifest)!;
  const at = '2024-01-01T00:00:00.000Z';
  const keysOf = (item: object) => Object.keys(module.EPut.item(item)).filter((k) => k.startsWith('GSI')).sort();
  expect(keysOf({ id: 'a', on: true, at, tag: 'x' })).toEqual(['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK']);
  expect(keysOf({ id: 'a', on: false, at, tag: '' })).toEqual([]);
  expect(keysOf({ id: 'a', on: true, tag: 'x' })).toEqual(['GSI2PK', 'GSI2SK']);
  expect(() => module.EPut.item({ id: 'a', tag: 'x\ud800' })).toThrow(/\[INVALID_VALUE\] entity E, attribute tag: holds an unpaired UTF-16 surrogate.* \(key template TAG#\{tag\}\)/);
});

/** The same outcome from the builder and the runtime's put, for a manifest and an item. */
function same(manifest: object, item: unknown): unknown {
  const { model, module } = generated(manifest as SingleTableManifest)!;
  const expected = outcome(() => buildPut(model, 't', 'E', item as never).Item);
  expect(outcome(() => module.EPut.item(item))).toEqual(expected);
  return expected;
}

test('a key checked inside one index slot is checked again in a later one, which runs whether or not the first did', () => {
  // GSI1's sort key and LSI1's share the table partition key's template; the item is not in GSI1.
  const manifest = {
    entities: {
      E: {
        attributes: { t: { type: 'STRING', required: true }, id: { type: 'STRING', required: true }, s: { type: 'STRING' } },
        pk: 'T#{t}',
        sk: 'E#{id}',
        maxItemsPerPartition: 10,
        indexes: { GSI1: { pk: 'S#{s}', sk: 'T#{t}' }, LSI1: { sk: 'T#{t}' } },
      },
    },
    globalIndexes: { GSI1: {} },
    localIndexes: { enabled: true },
  };
  expect(same(manifest, { t: 'a'.repeat(1500), id: 'i' })).toMatchObject({ code: 'KEY_TOO_LARGE', attribute: 'LSI1SK' });
  expect(same(manifest, { t: 'a'.repeat(1500), id: 'i', s: 'x' })).toMatchObject({ code: 'KEY_TOO_LARGE', attribute: 'GSI1SK' });
});

test('attributes are read and checked in declaration order, and undeclared names found as the runtime finds them', () => {
  const manifest = {
    entities: {
      E: {
        attributes: { a: { type: 'STRING', required: true }, b: { type: 'STRING' }, l: { type: 'LIST' } },
        pk: 'E#{a}',
        sk: 'E',
      },
    },
  };
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  // The first fault is a's; neither a throwing getter nor a list that cannot be converted after it is reached.
  expect(same(manifest, { a: 1, l: cyclic })).toMatchObject({ code: 'INVALID_VALUE', attribute: 'a' });
  expect(same(manifest, { a: 1, get b() { throw new Error('read'); } })).toMatchObject({ code: 'INVALID_VALUE', attribute: 'a' });
  // An inherited name the runtime does not look for, as it counts the item's own names first.
  expect(same(manifest, Object.assign(Object.create({ extra: 1 }), { a: 'x' }))).toHaveProperty('item');
  expect(same(manifest, Object.assign(Object.create({ extra: 1 }), { a: 'x', b: undefined }))).toMatchObject({ code: 'UNKNOWN_ATTRIBUTE', attribute: 'extra' });
});

test('the builder\'s locals are named for what they hold, and hide no runtime name, global or each other, whatever the attributes are called', () => {
  // `text` and `checkSize` are runtime helpers the builder calls, `class` a reserved word, `String`
  // a global it calls, `item` and `stored` its own names, `a-b` no identifier and `a_b` what it becomes.
  const manifest = {
    entities: {
      E: {
        attributes: {
          'text': { type: 'STRING', required: true },
          'class': { type: 'STRING', required: true },
          'item': { type: 'NUMBER', required: true },
          'stored': { type: 'BOOLEAN' },
          'String': { type: 'NUMBER' },
          'a-b': { type: 'STRING' },
          'a_b': { type: 'DATE' },
          'checkSize': { type: 'STRING' },
        },
        pk: 'E#{text}#{class}',
        sk: '{item}',
        indexes: { GSI1: { pk: 'A#{a-b}', sk: '{a_b}#{checkSize}' }, GSI2: { pk: 'S#{stored}', sk: '{String}' } },
      },
    },
    globalIndexes: { GSI1: { sharding: { shardCount: 4, strategy: 'ATTRIBUTE', shardAttribute: 'text' } }, GSI2: {} },
  };
  const { model } = checkManifest(manifest as unknown as SingleTableManifest);
  const source = accessModule(model!, { file: '/app/m.access.ts', manifestFile: '/app/m.ts' });
  expect(source).toContain('let text: any, class2: any, item2: any, stored2: any, String2: any, a_b: any, a_b2: any, checkSize2: any, a_bIso: string | undefined;');
  expect(source).toContain('const textSegment2 = textSegment(text, "$");');
  expect(source).toContain('const checkSizeSegment = textSegment(checkSize2, "$");');
  expect(source).toContain('checkSize(EPut, "PK", PK, 2048);');
  expect(source).toContain('if (String2 !== undefined) stored["String"] = { N: String(String2) };');
  const date = '2024-01-01T00:00:00.000Z';
  const full = { 'text': 't', 'class': 'c', 'item': 1, 'stored': true, 'String': 2, 'a-b': 'x', 'a_b': date, 'checkSize': 'k' };
  expect(same(manifest, full)).toHaveProperty('item.GSI1PK');
  expect(same(manifest, full)).toHaveProperty('item.GSI2SK');
  expect(same(manifest, { ...full, 'stored': false, 'a-b': undefined })).toHaveProperty('item');
  expect(same(manifest, { ...full, String: 'two' })).toMatchObject({ code: 'INVALID_VALUE', attribute: 'String' });
  expect(same(manifest, { ...full, checkSize: 'k\ud800' })).toMatchObject({ code: 'INVALID_VALUE', attribute: 'checkSize' });
});
