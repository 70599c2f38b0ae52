// DynamoDB's item size rules, and the sizes the cost model takes from sample items.
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, SingleTableManifest } from '../../lib/model/manifest';
import { costReport } from '../../lib/reports/cost';
import { entitySizes } from '../../lib/reports/cost-sizes';
import { IndexEffect, writeCost, WriteKind } from '../../lib/reports/cost-writes';
import { attributeBytes, valueBytes } from '../../lib/reports/item-size';

describe('value sizes', () => {
  test.each([
    ['a string: its UTF-8 bytes', 'abc', 3],
    ['a string with a two-byte character', 'é', 2],
    ['a number: 1 byte per two significant digits, plus 1', 123456, 4],
    ['a number: leading and trailing zeros do not count', 1000000, 2],
    ['a decimal', 0.125, 3],
    ['zero', 0, 2],
    ['a boolean', true, 1],
    ['null', null, 1],
    ['an empty list: 3 bytes', [], 3],
    ['a list: 3 bytes, 1 per element, the elements', ['ab', 'c'], 3 + 2 + 3],
    ['a map: keys count like names', { ab: 1 }, 3 + 1 + 2 + 2],
    ['a set: the sum of its elements', new Set(['ab', 'c']), 3],
    ['a date: stored as 24 ISO characters', new Date('2024-01-15T10:30:00Z'), 24],
    ['binary: its raw bytes', new Uint8Array(5), 5],
  ])('%s', (_what, value, bytes) => {
    expect(valueBytes(value)).toBe(bytes);
  });

  test('values DynamoDB cannot store have no size', () => {
    expect(valueBytes(Number.NaN)).toBeUndefined();
    expect(valueBytes(() => 1)).toBeUndefined();
    expect(valueBytes([1, Symbol('x')])).toBeUndefined();
  });

  test('an attribute counts its name too', () => {
    expect(attributeBytes('title', 'hello')).toBe(10);
  });
});

describe('sizes from sample items', () => {
  const notes: SingleTableManifest = {
    entities: {
      Note: {
        attributes: { id: { type: AttributeKind.STRING, required: true }, text: { type: AttributeKind.STRING }, tag: { type: AttributeKind.STRING } },
        pk: 'NOTE#{id}',
        sk: 'NOTE',
        indexes: { ByTag: { pk: 'TAG#{tag}', sk: 'NOTE#{id}' } },
      },
    },
    globalIndexes: { ByTag: { projection: ProjectionKind.KEYS_ONLY, sharding: { shardCount: 12 } } },
    localIndexes: { enabled: false },
  };
  const model = compileManifest(notes).model;

  test('the stored item: attributes, type attribute, table keys and index keys as the runtime composes them', () => {
    const [sizes] = entitySizes(model, { Note: { id: 'n1', text: 'hello', tag: 'x' } });
    const type = 4 + 4; // Type: Note
    const data = 2 + 2 + (4 + 5) + (3 + 1); // id, text, tag
    const table = 2 + 'NOTE#n1'.length + 2 + 'NOTE'.length;
    const index = 'ByTagPK'.length + 'TAG#x#11'.length + 'ByTagSK'.length + 'NOTE#n1'.length; // widest shard: 11
    expect(sizes.source).toBe('sample');
    expect(sizes.itemBytes).toBe(type + data + table + index);
    expect(sizes.entryBytes.ByTag).toBe(table + index);
  });

  test('a sample without a sparse key: out of that index, so its put skips it; the entry stays estimated for entering later', () => {
    const [withTag] = entitySizes(model, { Note: { id: 'n1', text: 'hello', tag: 'x' } });
    const [without] = entitySizes(model, { Note: { id: 'n1', text: 'hello' } });
    expect(withTag.missingIndexes).toEqual([]);
    expect(without.missingIndexes).toEqual(['ByTag']);
    expect(without.itemBytes).toBe(withTag.itemBytes - (3 + 1) - ('ByTagPK'.length + 'TAG#x#11'.length + 'ByTagSK'.length + 'NOTE#n1'.length));
    expect(without.entryBytes.ByTag).toBeGreaterThan(0);
    expect(writeCost(model, without, WriteKind.PUT).indexes).toEqual([{ index: 'ByTag', effect: IndexEffect.UNTOUCHED, writes: 0, units: 0 }]);
    expect(writeCost(model, without, WriteKind.ENTER, ['tag']).indexes[0].effect).toBe(IndexEffect.INSERT);
  });

  test('bad samples are refused with the entity and attribute named', () => {
    expect(() => entitySizes(model, { Nope: {} })).toThrow(/sample item for 'Nope': no such entity/);
    expect(() => entitySizes(model, { Note: { id: 'n1', color: 'red' } })).toThrow(/attribute 'color' is not declared/);
    expect(() => entitySizes(model, { Note: { text: 'no id' } })).toThrow(/cannot compose its table key NOTE#\{id\}/);
    expect(() => entitySizes(model, { Note: { id: 'n1', tag: 7 } })).toThrow(/sample item for 'Note': attribute 'tag' must be a string, got number 7/);
  });

  test('a DATE counts as stored: ISO-8601 UTC with milliseconds, whatever form the sample uses', () => {
    const m = compileManifest(example).model;
    const size = (createdAt: unknown) => entitySizes(m, { Customer: { username: 'ann', email: 'a@b.c', name: 'Ann', createdAt } })[0].itemBytes;
    expect(size('2024-01-15')).toBe(size(new Date('2024-01-15T00:00:00Z')));
  });

  test('a large sample item raises the write units of the example Order', () => {
    const m = compileManifest(example).model;
    const lines = Array.from({ length: 40 }, (_, i) => ({ sku: `SKU-${i}`, qty: i + 1, note: 'x'.repeat(40) }));
    const sample = { username: 'ann', orderId: 'o-1', status: 'OPEN', createdAt: new Date('2024-01-15T00:00:00Z'), amount: 99.99, lines };
    const report = costReport(m, { sampleItems: { Order: sample } });
    const put = report.writes.find((w) => w.entity === 'Order' && w.kind === 'PUT')!;
    const bytes = report.sizes.find((s) => s.entity === 'Order')!.itemBytes;
    expect(bytes).toBeGreaterThan(2048);
    expect(put.tableUnits).toBe(Math.ceil(bytes / 1024));
    // GSI2 projects INCLUDE without `lines`: still one unit.
    expect(put.indexes.find((i) => i.index === 'GSI2')!.units).toBe(1);
  });
});
