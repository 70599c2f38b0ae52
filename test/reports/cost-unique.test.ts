// Unique attributes in the reports: the cost of the transactions their writes are (guards and the
// read before included), the guard's estimated size against the item the runtime writes, and the
// guard rows of the entity chart.
import { GUARD_OWNER_ATTRIBUTE } from '../../lib/keys/unique-guard';
import { resolveModel } from '../../lib/manifest/resolve';
import { costReport } from '../../lib/reports/cost';
import { costMarkdown } from '../../lib/reports/cost-markdown';
import { entitySizes } from '../../lib/reports/cost-sizes';
import { guardItemBytes } from '../../lib/reports/cost-unique';
import { writeCost, WriteKind } from '../../lib/reports/cost-writes';
import { entityChart } from '../../lib/reports/entity-chart';
import { attributeBytes } from '../../lib/reports/item-size';
import { keyAttributes, tableKey } from '../../lib/runtime/attributes/item-keys';
import { fromItem } from '../../lib/runtime/attributes/marshall';
import { guardItem, guardWrites } from '../../lib/runtime/items/unique';
import { uniqueManifest } from '../fixtures/unique-manifest';

const model = resolveModel(uniqueManifest);
const customer = model.entities.Customer;

test('the guard size estimate is the size of the guard item the runtime writes for values of typical size', () => {
  const text = (bytes: number) => 'x'.repeat(bytes);
  const values = { username: text(customer.attributes.username.typicalSizeBytes), email: text(customer.attributes.email.typicalSizeBytes) };
  const owner = keyAttributes(model, tableKey(model, customer, values));
  const [claim] = guardWrites(model, customer, owner, values, undefined, values, ['email']);
  const item = fromItem(guardItem(model, claim.guardKey, claim.owner));
  const { partitionKey, sortKey } = model.indexes.table;
  expect(Object.keys(item).sort()).toEqual([partitionKey, sortKey, model.typeAttribute, GUARD_OWNER_ATTRIBUTE].sort());
  const exact = Object.entries(item).reduce((sum, [name, value]) => sum + attributeBytes(name, value)!, 0);
  expect(guardItemBytes(model, customer, 'email')).toBe(exact);
});

test('each write of a unique entity is priced as its transaction: the read before, the item twice on the table, each guard write twice', () => {
  const report = costReport(model);
  const sizes = entitySizes(model).find((s) => s.entity === 'Customer')!;
  const put = writeCost(model, sizes, WriteKind.PUT);
  // The item's transaction price: its table units twice, index units once.
  expect(put.transactionUnits).toBe(put.totalUnits + put.tableUnits);
  const rows = Object.fromEntries(report.unique.map((u) => [u.write, u]));
  expect(report.unique.every((u) => u.entity === 'Customer')).toBe(true);
  expect(rows.create).toEqual({ entity: 'Customer', write: 'create', readUnits: 0, itemUnits: put.transactionUnits, guardWrites: 1, guardUnits: 2, totalWriteUnits: put.transactionUnits + 2 });
  expect(rows['put (upsert or replace)']).toMatchObject({ readUnits: 1, guardWrites: 2, guardUnits: 4, totalWriteUnits: put.transactionUnits + 4 });
  expect(rows['update email']).toMatchObject({ readUnits: 1, itemUnits: writeCost(model, sizes, WriteKind.UPDATE, ['email']).transactionUnits, guardWrites: 2, guardUnits: 4 });
  const deleteUnits = writeCost(model, sizes, WriteKind.DELETE).transactionUnits;
  expect(rows.delete).toMatchObject({ readUnits: 1, itemUnits: deleteUnits, guardWrites: 1, guardUnits: 2 });
  expect(Object.keys(rows)).toEqual(['create', 'put (upsert or replace)', 'update email', 'delete']);
  // A larger item makes the read before the write cost more.
  const big = costReport(model, { sampleItems: { Customer: { username: 'u', joinedAt: '2024-01-01T00:00:00.000Z', name: 'x'.repeat(5000) } } });
  expect(big.unique.find((u) => u.write === 'delete')!.readUnits).toBe(2);
});

test('the markdown lists the unique values table only for a manifest that has unique attributes', () => {
  const markdown = costMarkdown(model, costReport(model));
  expect(markdown).toContain('## Unique values');
  expect(markdown).toMatch(/\| Customer \| update email \| 1 \| \d+ \| 2 \| 4 \| \d+ \|/);
  const { entities } = uniqueManifest;
  const plain = resolveModel({ ...uniqueManifest, entities: { ...entities, Customer: { ...entities.Customer, unique: undefined } } });
  expect(costReport(plain).unique).toEqual([]);
  expect(costMarkdown(plain, costReport(plain))).not.toContain('Unique values');
});

test('the entity chart shows each unique attribute\'s guard items with their key shape', () => {
  const chart = entityChart(model);
  expect(chart.rows.find((r) => r[0] === 'Customer email guard')).toEqual([
    'Customer email guard', '$unique#Customer#email#{email}', '$unique', '-', '-',
    "one item per email value held by an item of Customer (type `$unique`); written and deleted in the item's transactions",
  ]);
  expect(chart.rows).toHaveLength(3);
});
