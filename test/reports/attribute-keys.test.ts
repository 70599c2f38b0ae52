// Reports on a GSI keyed on the items' own attributes: the charts show the attributes it keys on,
// the cost report prices writes into it (a write that changes a key attribute moves the entry), and
// the pattern table shows the key condition DynamoDB receives.
import { compileManifest } from '../../lib/manifest/compile';
import { costReport } from '../../lib/reports/cost';
import { IndexEffect, WriteKind } from '../../lib/reports/cost-writes';
import { designMarkdown } from '../../lib/reports/design-doc';
import { entityChart } from '../../lib/reports/entity-chart';
import { renderHtmlView } from '../../lib/reports/html/index';
import { indexCharts } from '../../lib/reports/index-charts';
import { designJson } from '../../lib/reports/json';
import { keyCondition } from '../../lib/reports/pattern-table';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';

const { model } = compileManifest(attributeKeyedManifest());

test('the entity chart lists the index on each entity that declares its attributes, with the sparse condition', () => {
  const rows = entityChart(model).rows;
  const [invoice, , customer] = rows;
  expect(invoice[3]).toContain('ByStatus: [tenantId, status] / [amount, issuedAt]');
  expect(invoice[5]).toBe('in ByRegion only when region is set');
  expect(customer[3]).toBe('-');
});

test('each multi-attribute index gets a chart naming its attributes, and is not listed as empty', () => {
  const chart = indexCharts(model).find((c) => c.heading === 'ByStatus')!;
  expect(chart.intro).toBe("GSI on the items' own attributes: partition [tenantId, status], sort [amount, issuedAt]; projection ALL; eventually consistent.");
  expect(chart.rows.map((r) => r[0])).toEqual(['Invoice', 'CreditNote']);
  expect(designMarkdown(model)).not.toMatch(/no entity populates yet: [^\n]*ByStatus/);
});

test('the cost report prices writes into the index: a put inserts, a key attribute change moves, others update the projection', () => {
  const writes = costReport(model).writes;
  const on = (entity: string, kind: WriteKind, attribute?: string) => writes
    .find((w) => w.entity === entity && w.kind === kind && (attribute === undefined || w.attributes.includes(attribute)))!
    .indexes.find((i) => i.index === 'ByStatus')?.effect;
  expect(on('Invoice', WriteKind.PUT)).toBe(IndexEffect.INSERT);
  expect(on('CreditNote', WriteKind.PUT)).toBe(IndexEffect.INSERT);
  expect(on('Invoice', WriteKind.UPDATE, 'status')).toBe(IndexEffect.KEY_CHANGE);
  expect(on('Invoice', WriteKind.UPDATE, 'note')).toBe(IndexEffect.PROJECTED_UPDATE);
  expect(on('Customer', WriteKind.PUT)).toBeUndefined();
});

test('the pattern table shows equality on every partition attribute and the condition on the last sort attribute', () => {
  const text = (name: string) => keyCondition(model, model.patterns[name], model.indexes[model.patterns[name].index]);
  expect(text('invoicesByStatus')).toBe('tenantId = {tenantId} AND status = {status}');
  expect(text('invoicesByStatusAbove')).toBe('tenantId = {tenantId} AND status = {status} AND amount = {amount} AND issuedAt > {issuedAt}');
  expect(text('documentsByRegion')).toBe('region = {region} AND issuedAt BETWEEN {low} AND {high}');
});

test('the JSON design and the HTML view carry the attributes', () => {
  const index = designJson(model).indexes.find((i) => i.name === 'ByStatus')!;
  expect(index).toMatchObject({ partitionAttributes: ['tenantId', 'status'], sortAttributes: ['amount', 'issuedAt'], entities: ['Invoice', 'CreditNote'] });
  expect(renderHtmlView(model)).toContain('[tenantId, status] / [amount, issuedAt]');
});
