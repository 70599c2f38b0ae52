// Bad values of the TableV2 feature props fail the synth before TableV2 or CloudFormation sees them,
// with the property, the value and the fix; values a JSON file or another jsii language can hold
// (a string for a number, a boolean for a struct) included.
import { Billing, Capacity, MultiRegionConsistency, StreamViewType, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { synth, synthError, TestProps } from './synth';
import { checkTableFeatures } from '../../lib/construct/features/check';
import type { SingleTableFeatureProps } from '../../lib/construct/features/options';
import { compileManifest } from '../../lib/manifest/compile';
import { DiagnosticSink } from '../../lib/manifest/diagnostics';
import { validManifest } from '../fixtures/valid-manifest';

const REGION = 'eu-west-1';
const provisioned = { billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 5 }) }) };
/** Props as untyped data, the way JSON and other languages can pass them. */
const raw = (props: Record<string, unknown>) => props as Partial<SingleTableFeatureProps>;

const cases: [string, TestProps, string, string][] = [
  ['a table class outside the enum', raw({ tableClass: 'STANDARD_IA' }), 'TABLE_CLASS_INVALID', 'tableClass "STANDARD_IA" is not a table class. Fix: use one of STANDARD, STANDARD_INFREQUENT_ACCESS'],
  ['Contributor Insights as a boolean', raw({ contributorInsightsSpecification: true }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsightsSpecification is the boolean true, not { enabled: true | false, mode? }'],
  ["Contributor Insights enabled as the string 'false'", raw({ contributorInsightsSpecification: { enabled: 'false' } }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsightsSpecification.enabled is the string "false", not true or false'],
  ['a Contributor Insights mode outside the enum', raw({ contributorInsightsSpecification: { enabled: true, mode: 'ALL' } }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsightsSpecification.mode "ALL" is not a Contributor Insights mode. Fix: use one of ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS'],
  ['a fractional maximum', { billing: Billing.onDemand({ maxReadRequestUnits: 2.5 }) }, 'THROUGHPUT_LIMIT_INVALID', "billing's maxReadRequestUnits 2.5 is not a whole number of request units of at least 1"],
  ['a NaN maximum, printed as NaN', { billing: Billing.onDemand({ maxWriteRequestUnits: NaN }) }, 'THROUGHPUT_LIMIT_INVALID', "billing's maxWriteRequestUnits NaN is not a whole number"],
  ['an infinite maximum', { billing: Billing.onDemand({ maxReadRequestUnits: Infinity }) }, 'THROUGHPUT_LIMIT_INVALID', "billing's maxReadRequestUnits Infinity is not"],
  ['-1, which the API reads as no maximum', { billing: Billing.onDemand({ maxReadRequestUnits: -1 }) }, 'THROUGHPUT_LIMIT_INVALID', "billing's maxReadRequestUnits -1 is not"],
  ['a maximum as a string', { billing: Billing.onDemand(raw({ maxReadRequestUnits: '100' }) as never) }, 'THROUGHPUT_LIMIT_INVALID', 'maxReadRequestUnits "100" is not'],
  ["a GSI's maximum with provisioned billing", { ...provisioned, globalSecondaryIndexOptions: { GSI1: { maxWriteRequestUnits: 10 } } }, 'THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', 'sets globalSecondaryIndexOptions.GSI1.maxWriteRequestUnits 10'],
  ['an empty warm throughput', { warmThroughput: {} }, 'WARM_THROUGHPUT_INVALID', 'warmThroughput sets neither readUnitsPerSecond nor writeUnitsPerSecond'],
  ['a negative warm throughput', { warmThroughput: { readUnitsPerSecond: -5 } }, 'WARM_THROUGHPUT_INVALID', 'warmThroughput.readUnitsPerSecond -5 is not a whole number'],
  ["a GSI's fractional warm throughput", { globalSecondaryIndexOptions: { GSI2: { warmThroughput: { writeUnitsPerSecond: 0.5 } } } }, 'WARM_THROUGHPUT_INVALID', 'globalSecondaryIndexOptions.GSI2.warmThroughput.writeUnitsPerSecond 0.5'],
  ['options for a GSI the manifest does not declare', { globalSecondaryIndexOptions: { GSI9: {} } }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', "globalSecondaryIndexOptions names \"GSI9\", but the manifest declares no GSI 'GSI9'. Fix: did you mean 'GSI1'? use one of the GSIs: GSI1, GSI2"],
  ['an unknown option of a GSI', { globalSecondaryIndexOptions: { GSI1: { maxReadRequestUnit: 5 } as never } }, 'PROPERTY_UNKNOWN',
    "`globalSecondaryIndexOptions.GSI1.maxReadRequestUnit` is not a property here. Fix: did you mean 'maxReadRequestUnits'?"],
  ['options for an LSI slot', { globalSecondaryIndexOptions: { LSI1: {} } }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', "'LSI1' is a local index, which shares the table's throughput"],
  ['options for an inherited object property', { globalSecondaryIndexOptions: JSON.parse('{"constructor": {}}') }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'globalSecondaryIndexOptions names "constructor", but the manifest declares no GSI'],
  ['options for __proto__ (as JSON.parse makes it)', { globalSecondaryIndexOptions: JSON.parse('{"__proto__": {}}') }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'globalSecondaryIndexOptions names "__proto__"'],
  ['GSI options as a list', raw({ globalSecondaryIndexOptions: [{ maxReadRequestUnits: 1 }] }), 'GLOBAL_INDEX_OPTIONS_INVALID', 'globalSecondaryIndexOptions is a list, not a map from GSI name to options'],
  ['tags as a map', raw({ tags: { team: 'orders' } }), 'TAG_INVALID', 'tags is an object, not a list of { key, value }'],
  ['a tag without a value', raw({ tags: [{ key: 'team' }] }), 'TAG_INVALID', 'tags[0] has key the string "team" and value undefined; both must be strings'],
  ['a reserved tag key', { tags: [{ key: 'aws:team', value: 'x' }] }, 'TAG_INVALID', "tags[0].key \"aws:team\" is not 1-128 letters, digits, spaces or _ . : / = + - @, or starts with the reserved 'aws:'"],
  ['an empty tag key', { tags: [{ key: '', value: 'x' }] }, 'TAG_INVALID', 'tags[0].key "" is not 1-128'],
  ['a tag key of 129 characters', { tags: [{ key: 'k'.repeat(129), value: 'x' }] }, 'TAG_INVALID', 'tags[0].key "kkk'],
  ['a tag value with a disallowed character', { tags: [{ key: 'team', value: 'a;b' }] }, 'TAG_INVALID', 'tags[0].value "a;b" is not 0-256'],
  ['a tag key given twice', { tags: [{ key: 'team', value: 'a' }, { key: 'team', value: 'b' }] }, 'TAG_INVALID', "tags[1].key 'team' is given twice"],
  ['51 tags', { tags: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }, 'TAG_INVALID', 'tags has 51 tags; DynamoDB allows 50 per table'],
  ['a stream policy without a stream', { streamResourcePolicy: new PolicyDocument() }, 'STREAM_POLICY_WITHOUT_STREAM', 'streamResourcePolicy is set but the table has no stream'],
  ['replicas as one object', raw({ replicas: { region: 'us-east-1' } }), 'REPLICAS_INVALID', 'replicas is an object, not a list'],
  ['a replica in the stack region', { replicas: [{ region: REGION }] }, 'REPLICA_REGION_INVALID', "replicas[0].region 'eu-west-1' is the stack's own region, where the table itself is"],
  ['two replicas in one region', { replicas: [{ region: 'us-east-1' }, { region: 'us-east-1' }] }, 'REPLICA_REGION_INVALID', "replicas[1].region 'us-east-1' has a replica already"],
  ['a replica region that is no region', { replicas: [{ region: 'US East' }] }, 'REPLICA_REGION_INVALID', 'replicas[0].region "US East" is not an AWS region name'],
  ['a replica without a region', raw({ replicas: [{}] }), 'REPLICA_REGION_INVALID', 'replicas[0].region undefined is not an AWS region name'],
  ['a replica read capacity with on-demand billing', { replicas: [{ region: 'us-east-1', readCapacity: Capacity.fixed(5) }] }, 'CAPACITY_WITHOUT_PROVISIONED_BILLING', 'sets replicas[0].readCapacity but billing is on-demand'],
  ['a replica read capacity as a number', raw({ ...provisioned, replicas: [{ region: 'us-east-1', readCapacity: 5 }] }), 'CAPACITY_INVALID', 'replicas[0].readCapacity is the number 5, not a Capacity. Fix: write replicas[0].readCapacity as Capacity.fixed(5)'],
  ['a replica maximum with provisioned billing', { ...provisioned, replicas: [{ region: 'us-east-1', maxReadRequestUnits: 5 }] }, 'THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', 'replicas[0].maxReadRequestUnits 5'],
  ["a replica's deletion protection as the string 'false'", raw({ replicas: [{ region: 'us-east-1', deletionProtection: 'false' }] }), 'OPTION_NOT_BOOLEAN', 'replicas[0].deletionProtection "false" is not true or false'],
  ["a replica's table class outside the enum", raw({ replicas: [{ region: 'us-east-1', tableClass: 'COLD' }] }), 'TABLE_CLASS_INVALID', 'replicas[0].tableClass "COLD"'],
  ['replica options for an unknown GSI', { replicas: [{ region: 'us-east-1', globalSecondaryIndexOptions: { GSI3: {} } }] }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'replicas[0].globalSecondaryIndexOptions names "GSI3"'],
  ['a replica GSI read capacity with on-demand billing', { replicas: [{ region: 'us-east-1', globalSecondaryIndexOptions: { GSI1: { readCapacity: Capacity.fixed(3) } } }] }, 'CAPACITY_WITHOUT_PROVISIONED_BILLING', 'sets replicas[0].globalSecondaryIndexOptions.GSI1.readCapacity but'],
  ['replicas with a stream of keys only', { dynamoStream: StreamViewType.KEYS_ONLY, replicas: [{ region: 'us-east-1' }] }, 'REPLICA_STREAM_VIEW_INVALID', 'dynamoStream is "KEYS_ONLY" but a table with replicas replicates through a stream of new and old images'],
];

test.each(cases)('%s', (_name, props, code, text) => {
  const message = synthError(props, undefined, REGION);
  expect(message).toContain(`[${code}] SingleTable props: `);
  expect(message).toContain(text);
  expect(message).toContain('Fix: ');
});

test('replicas in a stack without a region', () => {
  expect(synthError({ replicas: [{ region: 'us-east-1' }] })).toContain('[REPLICAS_NEED_STACK_REGION] SingleTable props: replicas are set but the stack has no region');
});

test('a customer-managed key needs a key in each replica region', () => {
  const message = synthError((stack) => ({
    encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key'), { 'us-west-2': 'alias/x' }),
    replicas: [{ region: 'us-east-1' }, { region: 'us-west-2' }],
  }), undefined, REGION);
  expect(message).toContain('[REPLICA_KEY_MISSING] SingleTable props: replicas[0] is in us-east-1, but the table is encrypted with a customer-managed key and its replicaKeyArns name no key there');
  expect(message).toContain("Fix: name the key of us-east-1 in the encryption's replicaKeyArns: TableEncryptionV2.customerManagedKey(key, { 'us-east-1': 'arn:aws:kms:us-east-1:<account>:key/<id>' })");
  expect(message).toContain('the encryption\'s replicaKeyArns give "alias/x" for us-west-2, not a KMS key ARN');
});

test('every bad value is reported at once', () => {
  const message = synthError(raw({ tableClass: 'X', billing: Billing.onDemand({ maxReadRequestUnits: 0 }), tags: [{ key: 'aws:x', value: '' }] }), undefined, REGION);
  expect(message).toContain('Test/Table: 3 errors to fix:\n');
});

test('the limits themselves are accepted', () => {
  // CDK's own template validation takes some 20 s over 50 tags, so the count is checked without a synth
  const sink = new DiagnosticSink();
  checkTableFeatures(compileManifest(validManifest()).model, { tags: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }, undefined, REGION, sink);
  expect(sink.all).toEqual([]);
  const least = { billing: Billing.onDemand({ maxReadRequestUnits: 1 }), warmThroughput: { writeUnitsPerSecond: 1 } };
  expect(() => synth(least, undefined, REGION)).not.toThrow();
  expect(() => synth({ tags: [{ key: 'k'.repeat(128), value: 'v'.repeat(256) }, { key: 'team name: a/b=c+d-e@f', value: '' }] }, undefined, REGION)).not.toThrow();
  expect(() => synth({ dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES, replicas: [{ region: 'us-gov-west-1' }, { region: 'ap-southeast-7' }] }, undefined, REGION)).not.toThrow();
});

describe('multi-region strong consistency: three regions of one region set, a witness only for it', () => {
  const strong = MultiRegionConsistency.STRONG;
  /** The codes of the findings of these props in the stack's region `region`. */
  const codes = (props: Partial<SingleTableFeatureProps>, region = REGION) => {
    const sink = new DiagnosticSink();
    checkTableFeatures(compileManifest(validManifest()).model, props, undefined, region, sink);
    return sink.all.map((d) => d.code);
  };

  test('two replicas, or one replica and a witness, in the region set of the stack', () => {
    expect(codes({ multiRegionConsistency: strong, replicas: [{ region: 'eu-west-2' }, { region: 'eu-central-1' }] })).toEqual([]);
    expect(codes({ multiRegionConsistency: strong, replicas: [{ region: 'eu-west-2' }], witnessRegion: 'eu-west-3' })).toEqual([]);
    expect(codes({ multiRegionConsistency: MultiRegionConsistency.EVENTUAL, replicas: [{ region: 'us-east-1' }] })).toEqual([]);
  });

  test('each way DynamoDB refuses it is named with its fix, all at once', () => {
    expect(codes({ multiRegionConsistency: strong, replicas: [{ region: 'eu-west-2' }] })).toEqual(['STRONG_CONSISTENCY_REPLICAS_INVALID']);
    expect(codes({ multiRegionConsistency: strong, replicas: [{ region: 'us-east-1' }, { region: 'eu-west-2' }], witnessRegion: 'eu-west-1' }))
      .toEqual(['STRONG_CONSISTENCY_REGION_UNSUPPORTED', 'WITNESS_REGION_INVALID', 'STRONG_CONSISTENCY_REPLICAS_INVALID']);
    expect(codes({ replicas: [{ region: 'eu-west-2' }], witnessRegion: 'eu-west-3' })).toEqual(['WITNESS_REGION_WITHOUT_STRONG']);
    expect(codes({ multiRegionConsistency: strong, replicas: [{ region: 'sa-east-1' }, { region: 'us-east-1' }] }, 'sa-east-1')).toEqual(['STRONG_CONSISTENCY_REGION_UNSUPPORTED']);
    expect(codes({ multiRegionConsistency: 'STRNG' as never })).toEqual(['CONSISTENCY_INVALID']);
    const message = synthError({ multiRegionConsistency: strong, replicas: [{ region: 'eu-west-2' }, { region: 'us-east-1' }] }, undefined, REGION);
    expect(message).toContain('[STRONG_CONSISTENCY_REGION_UNSUPPORTED] SingleTable props: multiRegionConsistency is STRONG but us-east-1 is outside the EU region set of the stack\'s region eu-west-1. '
      + 'Fix: put the replicas in eu-west-2, eu-west-3, eu-central-1');
    expect(synthError({ multiRegionConsistency: strong, replicas: [{ region: 'us-east-1' }, { region: 'us-east-2' }] }))
      .toContain('[STRONG_CONSISTENCY_NEEDS_STACK_REGION]');
  });
});
