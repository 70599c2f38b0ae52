// GSIs keyed on the items' own attributes (multi-attribute keys): what the model says of them, and
// every rule that refuses a declaration DynamoDB would reject or the library could not serve.
import { compileManifest } from '../../lib/manifest/compile';
import { DiagnosticLevel } from '../../lib/manifest/diagnostics';
import { AttributeKind, ProjectionKind, ShardStrategy, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { findings, ManifestDraft, theFinding } from '../fixtures/valid-manifest';

const edited = (change: (m: ManifestDraft) => void): SingleTableManifest => {
  const m = attributeKeyedManifest() as ManifestDraft;
  change(m);
  return m;
};

test('the model keys the index on the attributes with their kinds, and lists the entities that declare them all', () => {
  const { model, diagnostics } = compileManifest(attributeKeyedManifest());
  expect(diagnostics).toEqual([]);
  expect(model.indexes.ByStatus).toMatchObject({
    partitionKey: 'tenantId',
    sortKey: 'amount',
    partitionAttributes: [{ name: 'tenantId', kind: AttributeKind.STRING }, { name: 'status', kind: AttributeKind.STRING }],
    sortAttributes: [{ name: 'amount', kind: AttributeKind.NUMBER }, { name: 'issuedAt', kind: AttributeKind.DATE }],
    // Customer declares tenantId but not status, amount or issuedAt.
    entities: ['Invoice', 'CreditNote'],
  });
  // Nothing is composed for it: no template on any entity, no key attribute the results strip.
  expect(Object.values(model.entities).some((e) => e.keys.ByStatus)).toBe(false);
  expect(model.keyAttributes).not.toEqual(expect.arrayContaining(['tenantId']));
  expect(model.keyAttributes).toContain('GSI1PK');
  expect(model.patterns.documentsByStatus.pk).toBeUndefined();
  expect(model.patterns.documentsByStatus.sk).toBeUndefined();
  expect(model.patterns.invoiceById.pk?.source).toBe('INVOICE#{invoiceId}');
});

test('a KEYS_ONLY index answers a pattern that needs only its key attributes without a fetch', () => {
  const m = edited((d) => {
    d.globalIndexes!.ByStatus.projection = ProjectionKind.KEYS_ONLY;
    d.accessPatterns!.amounts = { entities: ['Invoice'], index: 'ByStatus', attributes: ['tenantId', 'invoiceId', 'status', 'amount', 'issuedAt'] };
  });
  const { model } = compileManifest(m);
  expect(model.patterns.amounts.fetch).toBe('NONE');
  expect(model.patterns.invoicesByStatus.fetch).toBe('BATCH_GET');
});

test.each([
  ['no partition attribute', (d: ManifestDraft) => { d.globalIndexes!.ByStatus.partitionAttributes = []; }, 'has 0 partitionAttributes; DynamoDB takes 1 to 4'],
  ['five partition attributes', (d: ManifestDraft) => {
    d.globalIndexes!.ByStatus.partitionAttributes = ['tenantId', 'status', 'region', 'note', 'invoiceId'];
    d.globalIndexes!.ByStatus.sortAttributes = [];
  }, 'has 5 partitionAttributes; DynamoDB takes 1 to 4'],
  ['five sort attributes', (d: ManifestDraft) => {
    d.globalIndexes!.ByStatus.partitionAttributes = ['tenantId'];
    d.globalIndexes!.ByStatus.sortAttributes = ['status', 'amount', 'issuedAt', 'region', 'note'];
  }, 'has 5 sortAttributes; DynamoDB takes at most 4'],
])('ATTRIBUTE_KEYS_COUNT: %s', (_what, change, message) => {
  const d = theFinding(edited(change), 'ATTRIBUTE_KEYS_COUNT');
  expect(d.location).toBe('index ByStatus');
  expect(d.message).toBe(message);
});

test('four attributes on each side compile', () => {
  const m = edited((d) => {
    d.entities.Invoice.attributes.team = { type: AttributeKind.STRING };
    d.entities.Invoice.attributes.seq = { type: AttributeKind.NUMBER };
    d.globalIndexes!.Wide = { partitionAttributes: ['tenantId', 'status', 'region', 'team'], sortAttributes: ['amount', 'issuedAt', 'note', 'seq'] };
  });
  expect(compileManifest(m).model.indexes.Wide.entities).toEqual(['Invoice']);
});

test('ATTRIBUTE_KEYS_DUPLICATE: one attribute on both sides', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.ByStatus.sortAttributes = ['status']; }), 'ATTRIBUTE_KEYS_DUPLICATE');
  expect(d.message).toContain("names 'status' twice");
});

test.each([
  ['partitionKeyName', { partitionKeyName: 'ByStatusPK' }, 'remove partitionKeyName'],
  ['hasSortKey', { hasSortKey: false }, 'the sort key is sortAttributes'],
])('ATTRIBUTE_KEYS_MIXED: %s beside partitionAttributes', (prop, extra, fix) => {
  const m = edited((d) => { Object.assign(d.globalIndexes!.ByStatus, extra); });
  const d = theFinding(m, 'ATTRIBUTE_KEYS_MIXED');
  expect(d.message).toBe(`sets ${prop} beside partitionAttributes; ${prop} belongs to an index with a composed key`);
  expect(d.fix).toContain(fix);
});

test('a sharded multi-attribute index: the shard is a NUMBER attribute of its own, outside partitionAttributes and the key attributes', () => {
  const m = edited((d) => { d.globalIndexes!.ByStatus.sharding = { shardCount: 4, previousShardCounts: [2], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'issuedAt' }; });
  const { model, diagnostics } = compileManifest(m);
  expect(diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR)).toEqual([]);
  expect(model.indexes.ByStatus.shards).toEqual({
    writeCount: 4,
    readCount: 4,
    counts: [2, 4],
    strategy: ShardStrategy.ATTRIBUTE,
    attribute: 'issuedAt',
    strategies: ['ATTRIBUTE:issuedAt'],
    pinnedReads: true,
    peakWritesPerSecond: undefined,
    keyAttribute: 'ByStatusShard',
  });
  expect(model.indexes.ByStatus.partitionAttributes!.map((a) => a.name)).toEqual(['tenantId', 'status']);
  expect(model.keyAttributes).not.toContain('ByStatusShard');
  // A composed index's shards have no attribute of their own.
  const composed = compileManifest(edited((d) => { d.globalIndexes!.GSI1.sharding = { shardCount: 2 }; })).model;
  expect(composed.indexes.GSI1.shards!.keyAttribute).toBeUndefined();
});

test('ATTRIBUTE_KEYS_SHARD_SLOT: four partition attributes leave none for the shard', () => {
  const m = edited((d) => {
    d.globalIndexes!.ByStatus.partitionAttributes = ['tenantId', 'status', 'amount', 'issuedAt'];
    d.globalIndexes!.ByStatus.sortAttributes = [];
    d.globalIndexes!.ByStatus.sharding = { shardCount: 4 };
  });
  const d = theFinding(m, 'ATTRIBUTE_KEYS_SHARD_SLOT');
  expect(d.location).toBe('index ByStatus');
  expect(d.message).toBe('is sharded and has 4 partitionAttributes; the shard is a partition key attribute of its own (ByStatusShard, written last), and DynamoDB takes at most 4');
  expect(d.fix).toBe('keep at most 3 partitionAttributes (compare the others in sortAttributes or a filter), or remove sharding');
  // Three leave room for it.
  const three = edited((x) => { x.globalIndexes!.ByStatus.partitionAttributes = ['tenantId', 'status', 'amount']; x.globalIndexes!.ByStatus.sortAttributes = []; x.globalIndexes!.ByStatus.sharding = { shardCount: 4 }; });
  expect(findings(three).map((f) => f.code)).not.toContain('ATTRIBUTE_KEYS_SHARD_SLOT');
});

test('ATTRIBUTE_KEY_SHARD_CLASH: an entity declares the shard attribute the runtime writes', () => {
  const m = edited((d) => {
    d.globalIndexes!.ByStatus.sharding = { shardCount: 4 };
    d.entities.Invoice.attributes!.ByStatusShard = { type: AttributeKind.NUMBER };
  });
  const d = theFinding(m, 'ATTRIBUTE_KEY_SHARD_CLASH');
  expect(d.location).toBe('index ByStatus, entity Invoice');
  expect(d.message).toBe("declares attribute 'ByStatusShard', the NUMBER attribute the runtime writes the shard of ByStatus into on its items (and leaves out of every result)");
  expect(d.fix).toBe("rename 'ByStatusShard' on Invoice, or rename the index (its shard attribute is always '<index name>Shard')");
});

test('ATTRIBUTE_KEYS_WITHOUT_PARTITION: sort attributes on a composed index', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.GSI1.sortAttributes = ['amount']; }), 'ATTRIBUTE_KEYS_WITHOUT_PARTITION');
  expect(d.location).toBe('index GSI1');
});

test('ATTRIBUTE_KEY_UNDECLARED: a misspelled attribute gets the declared one', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.ByStatus.partitionAttributes = ['tenantID', 'status']; }), 'ATTRIBUTE_KEY_UNDECLARED');
  expect(d.message).toBe("keys on attribute 'tenantID', which no entity declares");
  expect(d.fix).toMatch(/^did you mean 'tenantId'\? declare 'tenantID'/);
});

test('ATTRIBUTE_KEY_UNDECLARED: the type attribute, which the library writes', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.ByRegion.partitionAttributes = ['Type']; }), 'ATTRIBUTE_KEY_UNDECLARED');
  expect(d.fix).toContain("the type attribute 'Type' is written by the library");
});

test('ATTRIBUTE_KEY_KIND: a BOOLEAN key attribute in one entity fails every write of it', () => {
  const d = theFinding(edited((m) => { m.entities.Customer.attributes.status = { type: AttributeKind.BOOLEAN }; }), 'ATTRIBUTE_KEY_KIND');
  expect(d.location).toBe('index ByStatus, entity Customer');
  expect(d.message).toContain("key attribute 'status' is BOOLEAN");
  expect(d.fix).toBe("declare 'status' as STRING, NUMBER or DATE on Customer, or key the index on another attribute");
});

test('ATTRIBUTE_KEY_KIND_MISMATCH: one attribute with two kinds', () => {
  const d = theFinding(edited((m) => { m.entities.CreditNote.attributes.amount = { type: AttributeKind.STRING, required: true }; }), 'ATTRIBUTE_KEY_KIND_MISMATCH');
  expect(d.location).toBe('index ByStatus');
  expect(d.message).toContain("key attribute 'amount' has different kinds (NUMBER in Invoice; STRING in CreditNote)");
});

test('ATTRIBUTE_KEY_TEMPLATES: key templates for a multi-attribute index', () => {
  const d = theFinding(edited((m) => { m.entities.Customer.indexes = { ByStatus: { pk: 'X#{tenantId}', sk: 'Y' } }; }), 'ATTRIBUTE_KEY_TEMPLATES');
  expect(d.location).toBe('entity Customer, index ByStatus');
  expect(d.fix).toBe('remove indexes.ByStatus from Customer; declare status, amount, issuedAt on Customer to put its items in the index');
});

test('INCLUDE_KEY_ATTRIBUTE: a key attribute in an INCLUDE list', () => {
  const m = edited((d) => { Object.assign(d.globalIndexes!.ByStatus, { projection: ProjectionKind.INCLUDE, include: ['note', 'status'] }); });
  expect(theFinding(m, 'INCLUDE_KEY_ATTRIBUTE').message).toBe("INCLUDE names key attribute 'status', which every index projects anyway");
});

test('ATTRIBUTE_KEYS_UNPOPULATED: no entity declares every key attribute', () => {
  const m = edited((d) => { d.globalIndexes!.Nobody = { partitionAttributes: ['customerId', 'tenantId'], sortAttributes: ['amount'] }; });
  const d = theFinding(m, 'ATTRIBUTE_KEYS_UNPOPULATED', DiagnosticLevel.WARNING);
  expect(d.message).toBe('no entity declares all of customerId, tenantId, amount, so no item is ever in the index');
  expect(d.fix).toBe('declare the missing ones on the entity the index serves (Invoice lacks customerId)');
});

test('PATTERN_INDEX_NOT_POPULATED: a pattern for an entity lacking key attributes names them', () => {
  const d = theFinding(edited((m) => { m.accessPatterns!.customers = { entities: ['Customer'], index: 'ByStatus' }; }), 'PATTERN_INDEX_NOT_POPULATED');
  expect(d.message).toBe('queries ByStatus for Customer, but Customer does not declare status, amount, issuedAt, which ByStatus keys on');
});

test('PATTERN_CONDITION_WITHOUT_SORT_KEY: a condition on an index without sort attributes', () => {
  const m = edited((d) => {
    d.globalIndexes!.ByTenant = { partitionAttributes: ['tenantId', 'status'] };
    d.accessPatterns!.byTenant = { entities: ['Invoice'], index: 'ByTenant', sortKeyCondition: SortKeyCondition.EQUALS };
  });
  expect(theFinding(m, 'PATTERN_CONDITION_WITHOUT_SORT_KEY').message).toBe('uses EQUALS on ByTenant, which has no sort key');
});

test('ATTRIBUTE_KEY_PREFIX_OF_NUMBER: BEGINS_WITH on an index whose sort attributes are all numbers', () => {
  const m = edited((d) => {
    d.globalIndexes!.ByAmount = { partitionAttributes: ['tenantId'], sortAttributes: ['amount'] };
    d.accessPatterns!.byAmountPrefix = { entities: ['Invoice'], index: 'ByAmount', sortKeyCondition: SortKeyCondition.BEGINS_WITH };
  });
  const d = theFinding(m, 'ATTRIBUTE_KEY_PREFIX_OF_NUMBER');
  expect(d.location).toBe('pattern byAmountPrefix');
  expect(d.message).toContain('whose sort attributes (amount) are all NUMBERs');
  expect(d.fix).toMatch(/^use EQUALS/);
  // A date among them takes the prefix: ByStatus sorts by amount, then issuedAt.
  expect(findings(attributeKeyedManifest()).map((f) => f.code)).not.toContain('ATTRIBUTE_KEY_PREFIX_OF_NUMBER');
});

test('HOT_PARTITION_KEY: low-cardinality partition attributes; the fix shards the index, which then warns no more', () => {
  const m = edited((d) => { d.globalIndexes!.ByStatus.partitionAttributes = ['status']; });
  const found = findings(m).filter((d) => d.code === 'HOT_PARTITION_KEY');
  expect(found.map((d) => d.location)).toEqual(['index ByStatus, entity Invoice', 'index ByStatus, entity CreditNote']);
  expect(found[0].message).toContain('partition attributes ["status"] have at most 4 value(s) (status: 4 distinct values)');
  expect(found[0].fix).toMatch(/^shard the index: globalIndexes\.ByStatus\.sharding = \{ peakWritesPerSecond: <peak writes\/s> \} \(the runtime writes the shard into the NUMBER attribute ByStatusShard, the last partition key attribute\); or add a high-cardinality attribute to globalIndexes\.ByStatus\.partitionAttributes \(up to 4\)/);
  const rated = edited((d) => { d.globalIndexes!.ByStatus.partitionAttributes = ['status']; d.entities.Invoice.writesPerSecond = 3000; });
  expect(findings(rated).find((d) => d.code === 'HOT_PARTITION_KEY')!.fix).toContain('globalIndexes.ByStatus.sharding = { shardCount: 4 }');
  const sharded = edited((d) => { d.globalIndexes!.ByStatus.partitionAttributes = ['status']; d.globalIndexes!.ByStatus.sharding = { shardCount: 4 }; });
  expect(findings(sharded).map((d) => d.code)).not.toContain('HOT_PARTITION_KEY');
  // Four partition attributes leave no room for the shard: the fix makes room first.
  const full = edited((d) => {
    for (const e of [d.entities.Invoice, d.entities.CreditNote]) {
      for (const n of ['desk', 'team', 'shift']) e.attributes![n] = { type: AttributeKind.STRING, required: true, distinctValues: 2 };
    }
    d.globalIndexes!.ByStatus.partitionAttributes = ['status', 'desk', 'team', 'shift'];
  });
  expect(findings(full).find((d) => d.code === 'HOT_PARTITION_KEY')?.fix ?? '').toMatch(/^shard the index: move one of the 4 partitionAttributes to sortAttributes \(the shard takes a partition key attribute\), then globalIndexes\.ByStatus\.sharding = /);
});

test('KEY_ATTRIBUTE_NAME_INVALID: a name longer than DynamoDB allows for a key attribute', () => {
  const long = 'a'.repeat(256);
  const d = theFinding(edited((m) => { m.globalIndexes!.ByRegion.partitionAttributes = [long]; }), 'KEY_ATTRIBUTE_NAME_INVALID');
  expect(d.message).toContain('256 bytes long; names are at most 255 bytes');
});
