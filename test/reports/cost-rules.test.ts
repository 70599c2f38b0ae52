// Each write, read and storage rule of the cost model, on a small manifest built for it.
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, ShardStrategy, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import { costReport } from '../../lib/reports/cost';
import { costMarkdown } from '../../lib/reports/cost-markdown';
import { patternReadCosts } from '../../lib/reports/cost-reads';
import { entitySizes } from '../../lib/reports/cost-sizes';
import { storageCosts } from '../../lib/reports/cost-storage';
import { IndexEffect, writeCost, WriteKind } from '../../lib/reports/cost-writes';

const S = AttributeKind.STRING;

function docs(bodyBytes = 20): SingleTableManifest {
  return {
    entities: {
      Doc: {
        attributes: {
          id: { type: S, required: true },
          owner: { type: S, required: true },
          tag: { type: S },
          note: { type: S },
          secret: { type: S },
          body: { type: S, typicalSizeBytes: bodyBytes },
        },
        pk: 'DOC#{id}',
        sk: 'DOC#{id}',
        indexes: {
          ByOwner: { pk: 'OWNER#{owner}', sk: 'DOC#{id}' },
          ByTag: { pk: 'TAG#{tag}', sk: 'DOC#{id}' },
          Everything: { pk: 'ALL#{owner}', sk: 'DOC#{id}' },
        },
      },
    },
    globalIndexes: {
      ByOwner: { projection: ProjectionKind.INCLUDE, include: ['note'] },
      ByTag: { projection: ProjectionKind.KEYS_ONLY },
      Everything: { projection: ProjectionKind.ALL },
    },
    localIndexes: { enabled: false },
    accessPatterns: {
      docsOfOwner: { entities: ['Doc'], index: 'ByOwner' },
      doc: { entities: ['Doc'], sortKeyCondition: SortKeyCondition.EQUALS, consistentRead: true, readsPerSecond: 10 },
      docEventually: { entities: ['Doc'], sortKeyCondition: SortKeyCondition.EQUALS },
    },
  };
}

const small = compileManifest(docs()).model;
const smallSizes = entitySizes(small)[0];
const cost = (kind: WriteKind, attrs: string[] = []) => writeCost(small, smallSizes, kind, attrs);
const effects = (kind: WriteKind, attrs: string[] = []) => Object.fromEntries(cost(kind, attrs).indexes.map((i) => [i.index, [i.effect, i.writes]]));

describe('index writes per operation (a table with GSIs of each projection)', () => {
  test('new item: +1 in every index it appears in', () => {
    expect(effects(WriteKind.PUT)).toEqual({ ByOwner: [IndexEffect.INSERT, 1], ByTag: [IndexEffect.INSERT, 1], Everything: [IndexEffect.INSERT, 1] });
    expect(cost(WriteKind.PUT).totalUnits).toBe(4);
  });

  test('update that changes an index key: +2 (old entry deleted, new one written)', () => {
    expect(effects(WriteKind.UPDATE, ['owner'])).toEqual({
      ByOwner: [IndexEffect.KEY_CHANGE, 2], ByTag: [IndexEffect.UNTOUCHED, 0], Everything: [IndexEffect.KEY_CHANGE, 2],
    });
  });

  test('update that removes an index key: +1; setting it again: +1', () => {
    expect(effects(WriteKind.REMOVE, ['tag']).ByTag).toEqual([IndexEffect.REMOVE, 1]);
    expect(effects(WriteKind.ENTER, ['tag']).ByTag).toEqual([IndexEffect.INSERT, 1]);
  });

  test('update of a projected non-key attribute: +1 where projected, 0 where not', () => {
    expect(effects(WriteKind.UPDATE, ['note'])).toEqual({
      ByOwner: [IndexEffect.PROJECTED_UPDATE, 1], ByTag: [IndexEffect.UNTOUCHED, 0], Everything: [IndexEffect.PROJECTED_UPDATE, 1],
    });
    expect(effects(WriteKind.UPDATE, ['secret'])).toEqual({
      ByOwner: [IndexEffect.UNTOUCHED, 0], ByTag: [IndexEffect.UNTOUCHED, 0], Everything: [IndexEffect.PROJECTED_UPDATE, 1],
    });
    expect(cost(WriteKind.UPDATE, ['secret']).totalUnits).toBe(2);
  });

  test('delete: the table and one write per index', () => {
    expect(Object.values(effects(WriteKind.DELETE))).toEqual([[IndexEffect.REMOVE, 1], [IndexEffect.REMOVE, 1], [IndexEffect.REMOVE, 1]]);
    expect(cost(WriteKind.DELETE).totalUnits).toBe(4);
  });

  test('transactions cost twice on the table; index writes cost as usual', () => {
    const w = cost(WriteKind.UPDATE, ['owner']);
    expect(w.indexes.some((i) => i.units > 0)).toBe(true);
    expect(w.transactionUnits).toBe(2 * w.tableUnits + w.indexes.reduce((sum, i) => sum + i.units, 0));
  });

  test('a table key attribute cannot be updated; unknown attributes are refused', () => {
    expect(() => cost(WriteKind.UPDATE, ['id'])).toThrow(/part of Doc's table key; changing it is a delete and a put/);
    expect(() => cost(WriteKind.UPDATE, ['nope'])).toThrow(/no attribute 'nope'/);
  });
});

describe('units per write follow the projected entry, rounded up per KB', () => {
  const big = compileManifest(docs(2000)).model;
  const sizes = entitySizes(big)[0];

  test('a ~2.2 KB item: 3 units on the table and the ALL index, 1 on INCLUDE and KEYS_ONLY entries', () => {
    expect(sizes.itemBytes).toBeGreaterThan(2048);
    expect(sizes.itemBytes).toBeLessThanOrEqual(3072);
    const put = writeCost(big, sizes, WriteKind.PUT);
    expect(put.tableUnits).toBe(3);
    expect(put.indexes.map((i) => i.units)).toEqual([1, 1, 3]);
  });

  test('a key change on the ALL index costs 2 x 3 units', () => {
    const update = writeCost(big, sizes, WriteKind.UPDATE, ['owner']);
    expect(update.indexes.find((i) => i.index === 'Everything')!.units).toBe(6);
  });
});

describe('storage and reads', () => {
  test('storage: the item and each index entry with 100 bytes of overhead', () => {
    const [storage] = storageCosts([smallSizes]);
    expect(storage.tableBytes).toBe(smallSizes.itemBytes + 100);
    for (const [index, bytes] of Object.entries(smallSizes.entryBytes)) expect(storage.indexBytes[index]).toBe(bytes + 100);
    expect(storage.totalBytes).toBe(smallSizes.itemBytes + Object.values(smallSizes.entryBytes).reduce((a, b) => a + b, 0) + 4 * 100);
  });

  test('reads: 4 KB rounding of what a query returns, eventually consistent at half', () => {
    const model = compileManifest(docs(5000)).model;
    const reads = patternReadCosts(model, entitySizes(model), 10);
    const doc = reads.find((r) => r.pattern === 'doc')!;
    const itemBytes = entitySizes(model)[0].itemBytes;
    expect(doc.entryBytes).toBe(itemBytes);
    expect(doc.unitsForOneItem).toBe(2);
    expect(doc.unitsForManyItems).toBe(Math.ceil((10 * itemBytes) / 4096));
    expect(doc.unitsPerSecond).toBe(20);
    const eventual = reads.find((r) => r.pattern === 'docEventually')!;
    expect(eventual.unitsForOneItem).toBe(1);
    expect(eventual.unitsForManyItems).toBe(Math.ceil((10 * itemBytes) / 4096) / 2);
    // The INCLUDE entry leaves the 5 KB body out: half a unit.
    expect(reads.find((r) => r.pattern === 'docsOfOwner')!.unitsForOneItem).toBe(0.5);
  });

  test('a read on a write-sharded GSI is one query per shard, each at least half a unit', () => {
    const m = docs(5000);
    const sharded: SingleTableManifest = {
      ...m,
      globalIndexes: { ...m.globalIndexes, Everything: { projection: ProjectionKind.ALL, sharding: { shardCount: 4 } } },
      accessPatterns: {
        everything: { entities: ['Doc'], index: 'Everything', readsPerSecond: 10 },
        everythingStrong: { entities: ['Doc'], index: 'ByOwner' },
      },
    };
    const model = compileManifest(sharded).model;
    const itemBytes = entitySizes(model)[0].itemBytes;
    const [everything, unsharded] = patternReadCosts(model, entitySizes(model), 10);
    expect(everything.queriesPerRead).toBe(4);
    // one shard returns the ~5 KB item (1 unit eventually consistent), three return nothing but cost 0.5 each
    expect(everything.unitsForOneItem).toBe(1 + 3 * 0.5);
    // 10 items over 4 shards: two shards return 3, two return 2
    expect(everything.unitsForManyItems).toBe((2 * Math.ceil((3 * itemBytes) / 4096) + 2 * Math.ceil((2 * itemBytes) / 4096)) / 2);
    expect(everything.unitsPerSecond).toBe(10 * 2.5);
    expect(unsharded.queriesPerRead).toBe(1);
    expect(unsharded.unitsForOneItem).toBe(0.5);
  });

  test('follow-up fetches read whole items: BatchGetItem after a KEYS_ONLY GSI, the LSI fetch', () => {
    const model = compileManifest(example).model;
    const reads = costReport(model).reads;
    expect(reads.find((r) => r.pattern === 'runningTasks')!.fetchUnitsPerItem).toBe(0.5);
    expect(reads.find((r) => r.pattern === 'ordersForCustomerByAmount')!.fetchUnitsPerItem).toBe(0.5);
    expect(reads.find((r) => r.pattern === 'orderById')!.fetchUnitsPerItem).toBe(0);
  });

  test('GetItem: strong, eventual at half, twice strong in a transaction', () => {
    const [get] = costReport(compileManifest(docs(5000)).model).gets;
    expect(get).toEqual({ entity: 'Doc', strongUnits: 2, eventualUnits: 1, transactionUnits: 4 });
  });
});

describe('LSIs and shard attributes', () => {
  const model = compileManifest(example).model;
  const order = entitySizes(model).find((s) => s.entity === 'Order')!;

  test('LSI entries are written like index entries; a KEYS_ONLY LSI ignores non-key updates', () => {
    const update = writeCost(model, order, WriteKind.UPDATE, ['createdAt']);
    const byIndex = Object.fromEntries(update.indexes.map((i) => [i.index, i.effect]));
    expect(byIndex).toEqual({
      GSI1: IndexEffect.PROJECTED_UPDATE, GSI2: IndexEffect.KEY_CHANGE, LSI1: IndexEffect.KEY_CHANGE, LSI2: IndexEffect.UNTOUCHED,
    });
  });

  test('with the ATTRIBUTE strategy, changing the shard attribute moves the item to another partition', () => {
    const m = docs();
    const sharded: SingleTableManifest = {
      ...m,
      entities: { Doc: { ...m.entities.Doc, attributes: { ...m.entities.Doc.attributes, region: { type: S, required: true } } } },
      globalIndexes: {
        ...m.globalIndexes,
        ByTag: { projection: ProjectionKind.KEYS_ONLY, sharding: { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'region' } },
      },
    };
    const model2 = compileManifest(sharded).model;
    const update = writeCost(model2, entitySizes(model2)[0], WriteKind.UPDATE, ['region']);
    expect(update.indexes.find((i) => i.index === 'ByTag')!.effect).toBe(IndexEffect.KEY_CHANGE);
  });
});

describe('the writes the report lists', () => {
  const report = costReport(compileManifest(example).model);
  const writes = (entity: string) => report.writes.filter((w) => w.entity === entity).map((w) => `${w.kind} ${w.attributes.join(',')}`.trim());

  test('put, an update per attribute outside the table key, enter/leave for sparse keys, delete', () => {
    expect(writes('Task')).toEqual([
      'PUT', 'UPDATE name', 'ENTER running', 'REMOVE running', 'UPDATE startedAt', 'ENTER startedAt', 'REMOVE startedAt', 'DELETE',
    ]);
    expect(writes('Membership')).toEqual(['PUT', 'UPDATE joinedAt', 'DELETE']);
  });
});

test('names that are built-in object properties: an index named constructor, an entity named toString', () => {
  const m = docs();
  const manifest: SingleTableManifest = {
    ...m,
    entities: {
      ...m.entities,
      toString: { attributes: { valueOf: { type: S, required: true } }, pk: 'T#{valueOf}', sk: 'T#{valueOf}', indexes: { constructor: { pk: 'C#{valueOf}', sk: 'C#{valueOf}' } } },
    },
    globalIndexes: { ...m.globalIndexes, constructor: { projection: ProjectionKind.KEYS_ONLY } },
  };
  const model = compileManifest(manifest).model;
  // Doc is not on `constructor`, and no sample is given for `toString`: neither may find Object.prototype's.
  const report = costReport(model, { sampleItems: { Doc: { id: 'd', owner: 'o', body: 'b' } } });
  expect(report.sizes.map((s) => [s.entity, s.source, s.entryBytes.constructor === undefined])).toEqual([['Doc', 'sample', true], ['toString', 'typical', false]]);
  const docRow = costMarkdown(model, report).split('\n').find((line) => line.startsWith('| Doc | sample |'))!;
  expect(docRow).not.toContain('function');
  expect(docRow.split(' | ')).toContain('-');
});
