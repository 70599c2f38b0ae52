// A GSI keyed on the items' own attributes: the multi-attribute key schema with each attribute's
// type, its alarms like any GSI's, and pattern grants on it (no LeadingKeys can narrow them).
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { allows, onIndex, policyOf } from './iam';
import { newFunction, tableStack } from './policy';
import { synth, synthError } from './synth';
import { AttributeKind } from '../../lib/model/manifest';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { shardedTournamentManifest } from '../fixtures/tournament';

test('the index keys on the attributes in order, each defined with its own type', () => {
  const { table } = synth({}, attributeKeyedManifest());
  const byName = (name: string) => table.GlobalSecondaryIndexes.find((i: { IndexName: string }) => i.IndexName === name);
  expect(byName('ByStatus').KeySchema).toEqual([
    { AttributeName: 'tenantId', KeyType: 'HASH' },
    { AttributeName: 'status', KeyType: 'HASH' },
    { AttributeName: 'amount', KeyType: 'RANGE' },
    { AttributeName: 'issuedAt', KeyType: 'RANGE' },
  ]);
  expect(byName('ByStatus').Projection).toEqual({ ProjectionType: 'ALL' });
  expect(byName('ByRegion').KeySchema).toEqual([{ AttributeName: 'region', KeyType: 'HASH' }, { AttributeName: 'issuedAt', KeyType: 'RANGE' }]);
  // A NUMBER keys as N; DATE and STRING as S; no composed ByStatusPK/ByStatusSK attribute exists.
  expect(table.AttributeDefinitions).toEqual(expect.arrayContaining([
    { AttributeName: 'tenantId', AttributeType: 'S' },
    { AttributeName: 'status', AttributeType: 'S' },
    { AttributeName: 'amount', AttributeType: 'N' },
    { AttributeName: 'issuedAt', AttributeType: 'S' },
    { AttributeName: 'region', AttributeType: 'S' },
    { AttributeName: 'GSI1PK', AttributeType: 'S' },
  ]));
  expect(table.AttributeDefinitions.map((d: { AttributeName: string }) => d.AttributeName)).not.toContain('ByStatusPK');
  expect(byName('GSI1').KeySchema).toEqual([{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }]);
});

test('a sharded index keys on its NUMBER shard attribute last among the partition keys', () => {
  const manifest = attributeKeyedManifest();
  const sharded = { ...manifest.globalIndexes!.ByStatus, sharding: { shardCount: 4 } };
  const { table, singleTable } = synth({}, { ...manifest, globalIndexes: { ...manifest.globalIndexes, ByStatus: sharded } });
  const index = table.GlobalSecondaryIndexes.find((i: { IndexName: string }) => i.IndexName === 'ByStatus');
  expect(index.KeySchema).toEqual([
    { AttributeName: 'tenantId', KeyType: 'HASH' },
    { AttributeName: 'status', KeyType: 'HASH' },
    { AttributeName: 'ByStatusShard', KeyType: 'HASH' },
    { AttributeName: 'amount', KeyType: 'RANGE' },
    { AttributeName: 'issuedAt', KeyType: 'RANGE' },
  ]);
  expect(table.AttributeDefinitions).toEqual(expect.arrayContaining([{ AttributeName: 'ByStatusShard', AttributeType: 'N' }]));
  expect(singleTable.indexKeys('ByStatus').partitionKeys).toEqual(['tenantId', 'status', 'ByStatusShard']);
});

test('an index without sort attributes has a partition key only', () => {
  const manifest = attributeKeyedManifest();
  const { table } = synth({}, { ...manifest, globalIndexes: { ...manifest.globalIndexes, ByTenant: { partitionAttributes: ['tenantId', 'status'] } } });
  const index = table.GlobalSecondaryIndexes.find((i: { IndexName: string }) => i.IndexName === 'ByTenant');
  expect(index.KeySchema).toEqual([{ AttributeName: 'tenantId', KeyType: 'HASH' }, { AttributeName: 'status', KeyType: 'HASH' }]);
});

test('indexKeys names every key attribute', () => {
  const { singleTable } = synth({}, attributeKeyedManifest());
  expect(singleTable.indexKeys('ByStatus')).toEqual({ partitionKey: 'tenantId', sortKey: 'amount', partitionKeys: ['tenantId', 'status'], sortKeys: ['amount', 'issuedAt'] });
});

test('the index gets read and write throttle alarms like every GSI', () => {
  const { table } = tableStack(attributeKeyedManifest());
  const { alarms } = table.monitor();
  const onByStatus = alarms.filter((a) => (a.node.defaultChild as any).dimensions?.some((d: any) => d.name === 'GlobalSecondaryIndexName' && d.value === 'ByStatus'));
  expect(onByStatus.map((a) => (a.node.defaultChild as any).metricName)).toEqual(expect.arrayContaining(['ReadThrottleEvents', 'WriteThrottleEvents']));
});

describe('a grant of a pattern on the index', () => {
  const { stack, table } = tableStack(attributeKeyedManifest());
  const fn = newFunction(stack, 'Reader');
  table.grantPatterns(fn, 'invoicesByStatus');
  const policy = policyOf(stack, fn);
  const query = (index: string) => onIndex({ action: 'dynamodb:Query', resource: '' }, index);

  test('allows Query on that index, denies it on the others and the table', async () => {
    expect(await allows(policy, query('ByStatus'))).toBe(true);
    for (const other of ['ByRegion', 'GSI1', 'table']) expect(await allows(policy, query(other))).toBe(false);
    expect(await allows(policy, { action: 'dynamodb:GetItem', resource: query('table').resource })).toBe(false);
  });

  test('warns that LeadingKeys cannot narrow it', () => {
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp("pattern invoicesByStatus: ByStatus's partition key is the attributes tenantId, status, so dynamodb:LeadingKeys cannot narrow"));
  });
});

test('tenant isolation refuses a pattern on the index, naming the fix', () => {
  const { stack, table } = tableStack(attributeKeyedManifest());
  expect(() => table.grantAccess(newFunction(stack, 'Tenant'), { patterns: ['invoicesByStatus'], tenant: { attribute: 'tenantId', value: 'acme' } }))
    .toThrow(/pattern invoicesByStatus: tenant isolation cannot narrow a Query on ByStatus.*query an index with a composed key that starts with the tenant/);
});

test('the synth refuses a sharded index with four partition attributes, and an entity declaring the shard attribute', () => {
  const manifest = shardedTournamentManifest({ shardCount: 4 });
  const fourAttributes = { partitionAttributes: ['status', 'round', 'bracket', 'matchId'], sortAttributes: [] };
  const full = { ...manifest, globalIndexes: { ByStatus: { ...manifest.globalIndexes!.ByStatus, ...fourAttributes } } };
  expect(synthError({}, full)).toContain('[ATTRIBUTE_KEYS_SHARD_SLOT] index ByStatus: is sharded and has 4 partitionAttributes; the shard is a partition key attribute of its own (ByStatusShard, written last)');
  const match = manifest.entities.Match;
  const attributes = { ...match.attributes, ByStatusShard: { type: AttributeKind.NUMBER } };
  const clash = { ...manifest, entities: { Match: { ...match, attributes } } };
  expect(synthError({}, clash)).toContain("[ATTRIBUTE_KEY_SHARD_CLASH] index ByStatus, entity Match: declares attribute 'ByStatusShard', the NUMBER attribute the runtime writes the shard of ByStatus into");
});
