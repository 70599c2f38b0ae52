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
import { shardedTournamentManifest, tournamentManifest } from '../fixtures/tournament';

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

test('the pattern table shows the key condition each number of given sort attributes sends', () => {
  const text = (name: string) => keyCondition(model, model.patterns[name], model.indexes[model.patterns[name].index]).split('\n');
  expect(text('invoicesByStatus')).toEqual(['tenantId = {tenantId} AND status = {status}']);
  expect(text('invoicesByStatusAbove')).toEqual([
    'tenantId = {tenantId} AND status = {status}',
    'tenantId = {tenantId} AND status = {status} AND amount > {amount}',
    'tenantId = {tenantId} AND status = {status} AND amount = {amount} AND issuedAt > {issuedAt}',
  ]);
  expect(text('documentsByRegion')).toEqual(['region = {region}', 'region = {region} AND issuedAt BETWEEN {low.issuedAt} AND {high.issuedAt}']);
  // BEGINS_WITH has no line for a NUMBER last (refused), a begins_with for a string or date.
  const { model: tournament } = compileManifest(tournamentManifest());
  expect(keyCondition(tournament, tournament.patterns.matchesByPrefix, tournament.indexes.TournamentRegionIndex).split('\n')).toEqual([
    'tournamentId = {tournamentId} AND region = {region}',
    'tournamentId = {tournamentId} AND region = {region} AND round = {round} AND begins_with(bracket, {bracket})',
    'tournamentId = {tournamentId} AND region = {region} AND round = {round} AND bracket = {bracket} AND begins_with(scheduledAt, {scheduledAt})',
  ]);
});

test('the JSON design gives every index its key attributes as lists; the markdown and HTML views a line per condition', () => {
  const indexes = designJson(model).indexes;
  expect(indexes.find((i) => i.name === 'ByStatus')).toEqual(expect.objectContaining({ partitionKey: ['tenantId', 'status'], sortKey: ['amount', 'issuedAt'], entities: ['Invoice', 'CreditNote'] }));
  expect(indexes.find((i) => i.name === 'GSI1')).toEqual(expect.objectContaining({ partitionKey: ['GSI1PK'], sortKey: ['GSI1SK'] }));
  expect(Object.keys(indexes.find((i) => i.name === 'ByStatus')!)).not.toContain('partitionAttributes');
  const html = renderHtmlView(model);
  expect(html).toContain('[tenantId, status] / [amount, issuedAt]');
  expect(html).toContain('<code>region = {region}</code><br><code>region = {region} AND issuedAt BETWEEN {low.issuedAt} AND {high.issuedAt}</code>');
  expect(designMarkdown(model)).toContain('`region = {region}`<br>`region = {region} AND issuedAt BETWEEN {low.issuedAt} AND {high.issuedAt}`');
});

test('a sharded index shows its shard attribute last in the partition key', () => {
  const { model: sharded } = compileManifest(shardedTournamentManifest({ shardCount: 4 }));
  expect(designJson(sharded).indexes.find((i) => i.name === 'ByStatus')).toEqual(expect.objectContaining({
    partitionKey: ['status', 'ByStatusShard'], sortKey: ['round', 'bracket'], shards: expect.objectContaining({ writeCount: 4, strategy: 'RANDOM' }),
  }));
  expect(renderHtmlView(sharded)).toContain('[status, ByStatusShard] / [round, bracket]');
});
