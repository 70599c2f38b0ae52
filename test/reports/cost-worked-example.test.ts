// Write-cost figures worked out by hand, exactly: a 3 KB item on GSIs of each projection, an update
// on a table with three GSIs, and the shards 2,000 writes/s of small items need.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { SingleTableManifest } from '../../lib/model/manifest';
import { costReport } from '../../lib/reports/cost';
import { entitySizes } from '../../lib/reports/cost-sizes';
import { IndexEffect, writeCost, WriteKind } from '../../lib/reports/cost-writes';

const design = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'order-ticket.json'), 'utf8')) as SingleTableManifest;
const model = compileManifest(design).model;
const sizes = (entity: string) => entitySizes(model).find((s) => s.entity === entity)!;

describe('worked example: a 3 KB item, GSIs projecting KEYS_ONLY, INCLUDE (1.5 KB) and ALL', () => {
  test('the projected entries are about 200 B, 1.5 KB and 3 KB', () => {
    const order = sizes('Order');
    expect(order.itemBytes).toBe(3072);
    expect(order.entryBytes.ByCustomer).toBeLessThanOrEqual(200);
    expect(order.entryBytes.ByStatus).toBeGreaterThan(1024);
    expect(order.entryBytes.ByStatus).toBeLessThanOrEqual(1600);
    expect(order.entryBytes.ByRep).toBe(3072);
  });

  test('a new item costs 3 + 1 + 2 + 3 = 9 write units', () => {
    const put = writeCost(model, sizes('Order'), WriteKind.PUT);
    expect(put.tableUnits).toBe(3);
    expect(put.indexes.map((i) => [i.index, i.effect, i.units])).toEqual([
      ['ByCustomer', IndexEffect.INSERT, 1],
      ['ByStatus', IndexEffect.INSERT, 2],
      ['ByRep', IndexEffect.INSERT, 3],
    ]);
    expect(put.totalUnits).toBe(9);
  });
});

describe('a table with 3 GSIs, every item has the three GSI keys', () => {
  test('PutItem: 1 + 3 = 4 writes', () => {
    expect(writeCost(model, sizes('Ticket'), WriteKind.PUT).totalUnits).toBe(4);
  });

  test('UpdateItem changing the keys of the three GSIs: 1 + 3 x 2 = 7 writes', () => {
    const update = writeCost(model, sizes('Ticket'), WriteKind.UPDATE, ['customerId', 'status', 'repId']);
    expect(update.tableUnits).toBe(1);
    expect(update.indexes.map((i) => i.writes)).toEqual([2, 2, 2]);
    expect(update.totalUnits).toBe(7);
    // One attribute in all three sort keys moves the item in all three indexes too.
    expect(writeCost(model, sizes('Ticket'), WriteKind.UPDATE, ['openedAt']).totalUnits).toBe(7);
  });
});

describe('2,000 writes/s of small items on a status GSI', () => {
  test('needs ceil(2000 / 800) = 3 shards', () => {
    const [live] = costReport(model).shards;
    expect(live).toMatchObject({ index: 'LiveEvents', peakWritesPerSecond: 2000, unitsPerWrite: 1, peakUnitsPerSecond: 2000, shardsNeeded: 3, writeShards: 3 });
  });

  test("the example app's sharded GSI2 gets the same 3 shards", () => {
    const [gsi2] = costReport(compileManifest(example).model).shards;
    expect(gsi2).toMatchObject({ index: 'GSI2', peakWritesPerSecond: 2000, shardsNeeded: 3, writeShards: 3, readShards: 3 });
  });
});
