// Bad values of the TableV2 feature props fail the synth before TableV2 or CloudFormation sees them,
// with the property, the value and the fix; values a JSON file or another jsii language can hold
// (a string for a number, a boolean for a struct) included.
import { BillingMode, StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { synth, synthError, TestProps } from './synth';
import { checkTableFeatures } from '../../lib/construct/features/check';
import type { SingleTableFeatureProps } from '../../lib/construct/features/options';
import { compileManifest } from '../../lib/manifest/compile';
import { DiagnosticSink } from '../../lib/manifest/diagnostics';
import { validManifest } from '../manifest/manifest-fixture';

const REGION = 'eu-west-1';
const provisioned = { billingMode: BillingMode.PROVISIONED };
/** Props as untyped data, the way JSON and other languages can pass them. */
const raw = (props: Record<string, unknown>) => props as Partial<SingleTableFeatureProps>;

const cases: [string, TestProps, string, string][] = [
  ['a table class outside the enum', raw({ tableClass: 'STANDARD_IA' }), 'TABLE_CLASS_INVALID', 'tableClass "STANDARD_IA" is not a table class. Fix: use one of STANDARD, STANDARD_INFREQUENT_ACCESS'],
  ['Contributor Insights as a boolean', raw({ contributorInsights: true }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsights is the boolean true, not { enabled: true | false, mode? }'],
  ["Contributor Insights enabled as the string 'false'", raw({ contributorInsights: { enabled: 'false' } }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsights.enabled is the string "false", not true or false'],
  ['a Contributor Insights mode outside the enum', raw({ contributorInsights: { enabled: true, mode: 'ALL' } }), 'CONTRIBUTOR_INSIGHTS_INVALID', 'contributorInsights.mode "ALL" is not a Contributor Insights mode. Fix: use one of ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS'],
  ['a fractional maximum', { maxReadRequestUnits: 2.5 }, 'THROUGHPUT_LIMIT_INVALID', 'maxReadRequestUnits 2.5 is not a whole number of request units of at least 1'],
  ['a NaN maximum, printed as NaN', { maxWriteRequestUnits: NaN }, 'THROUGHPUT_LIMIT_INVALID', 'maxWriteRequestUnits NaN is not a whole number'],
  ['an infinite maximum', { maxReadRequestUnits: Infinity }, 'THROUGHPUT_LIMIT_INVALID', 'maxReadRequestUnits Infinity is not'],
  ['-1, which the API reads as no maximum', { maxReadRequestUnits: -1 }, 'THROUGHPUT_LIMIT_INVALID', 'maxReadRequestUnits -1 is not'],
  ['a maximum as a string', raw({ maxReadRequestUnits: '100' }), 'THROUGHPUT_LIMIT_INVALID', 'maxReadRequestUnits "100" is not'],
  ['a maximum with provisioned billing', { ...provisioned, maxReadRequestUnits: 100 }, 'THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', 'sets maxReadRequestUnits 100 but billing is provisioned'],
  ["a GSI's maximum with provisioned billing", { ...provisioned, globalIndexOptions: { GSI1: { maxWriteRequestUnits: 10 } } }, 'THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', 'sets globalIndexOptions.GSI1.maxWriteRequestUnits 10'],
  ['an empty warm throughput', { warmThroughput: {} }, 'WARM_THROUGHPUT_INVALID', 'warmThroughput sets neither readUnitsPerSecond nor writeUnitsPerSecond'],
  ['a negative warm throughput', { warmThroughput: { readUnitsPerSecond: -5 } }, 'WARM_THROUGHPUT_INVALID', 'warmThroughput.readUnitsPerSecond -5 is not a whole number'],
  ["a GSI's fractional warm throughput", { globalIndexOptions: { GSI2: { warmThroughput: { writeUnitsPerSecond: 0.5 } } } }, 'WARM_THROUGHPUT_INVALID', 'globalIndexOptions.GSI2.warmThroughput.writeUnitsPerSecond 0.5'],
  ['options for a GSI the manifest does not declare', { globalIndexOptions: { GSI9: {} } }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', "globalIndexOptions names \"GSI9\", but the manifest declares no GSI 'GSI9'. Fix: use one of the GSIs: GSI1, GSI2"],
  ['options for an LSI slot', { globalIndexOptions: { LSI1: {} } }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', "'LSI1' is a local index, which shares the table's throughput"],
  ['options for an inherited object property', { globalIndexOptions: JSON.parse('{"constructor": {}}') }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'globalIndexOptions names "constructor", but the manifest declares no GSI'],
  ['options for __proto__ (as JSON.parse makes it)', { globalIndexOptions: JSON.parse('{"__proto__": {}}') }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'globalIndexOptions names "__proto__"'],
  ['GSI options as a list', raw({ globalIndexOptions: [{ maxReadRequestUnits: 1 }] }), 'GLOBAL_INDEX_OPTIONS_INVALID', 'globalIndexOptions is a list, not a map from GSI name to options'],
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
  ['a replica with a key but a table without one', { replicas: [{ region: 'us-east-1', encryptionKeyArn: 'arn:aws:kms:us-east-1:1:key/a' }] }, 'REPLICA_KEY_WITHOUT_TABLE_KEY', 'replicas[0].encryptionKeyArn is set but the table has no encryptionKey'],
  ['a replica read capacity with on-demand billing', { replicas: [{ region: 'us-east-1', readCapacity: 5 }] }, 'CAPACITY_WITHOUT_PROVISIONED_BILLING', 'sets replicas[0].readCapacity 5 but billing is on-demand'],
  ['a zero replica read capacity', { ...provisioned, replicas: [{ region: 'us-east-1', readCapacity: 0 }] }, 'CAPACITY_INVALID', 'replicas[0].readCapacity 0 is not a whole number of capacity units'],
  ['a replica maximum with provisioned billing', { ...provisioned, replicas: [{ region: 'us-east-1', maxReadRequestUnits: 5 }] }, 'THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', 'replicas[0].maxReadRequestUnits 5'],
  ["a replica's deletion protection as the string 'false'", raw({ replicas: [{ region: 'us-east-1', deletionProtection: 'false' }] }), 'OPTION_NOT_BOOLEAN', 'replicas[0].deletionProtection "false" is not true or false'],
  ["a replica's table class outside the enum", raw({ replicas: [{ region: 'us-east-1', tableClass: 'COLD' }] }), 'TABLE_CLASS_INVALID', 'replicas[0].tableClass "COLD"'],
  ['replica options for an unknown GSI', { replicas: [{ region: 'us-east-1', globalIndexOptions: { GSI3: {} } }] }, 'GLOBAL_INDEX_OPTIONS_UNKNOWN_INDEX', 'replicas[0].globalIndexOptions names "GSI3"'],
  ['a replica GSI read capacity with on-demand billing', { replicas: [{ region: 'us-east-1', globalIndexOptions: { GSI1: { readCapacity: 3 } } }] }, 'CAPACITY_WITHOUT_PROVISIONED_BILLING', 'replicas[0].globalIndexOptions.GSI1.readCapacity 3'],
  ['replicas with a stream of keys only', { stream: StreamViewType.KEYS_ONLY, replicas: [{ region: 'us-east-1' }] }, 'REPLICA_STREAM_VIEW_INVALID', 'stream is "KEYS_ONLY" but a table with replicas replicates through a stream of new and old images'],
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
  const message = synthError((stack) => ({ encryptionKey: new Key(stack, 'Key'), replicas: [{ region: 'us-east-1' }, { region: 'us-west-2', encryptionKeyArn: 'alias/x' }] }), undefined, REGION);
  expect(message).toContain('[REPLICA_KEY_MISSING] SingleTable props: replicas[0] has no encryptionKeyArn but the table is encrypted with a customer-managed key');
  expect(message).toContain('Fix: set replicas[0].encryptionKeyArn to the ARN of a key in us-east-1');
  expect(message).toContain('replicas[1].encryptionKeyArn "alias/x" is not a KMS key ARN');
});

test('every bad value is reported at once', () => {
  const message = synthError(raw({ tableClass: 'X', maxReadRequestUnits: 0, tags: [{ key: 'aws:x', value: '' }] }), undefined, REGION);
  expect(message).toContain('(3 errors)');
});

test('the limits themselves are accepted', () => {
  // CDK's own template validation takes some 20 s over 50 tags, so the count is checked without a synth
  const sink = new DiagnosticSink();
  checkTableFeatures(compileManifest(validManifest()).model, { tags: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }, REGION, sink);
  expect(sink.all).toEqual([]);
  expect(() => synth({ maxReadRequestUnits: 1, warmThroughput: { writeUnitsPerSecond: 1 } }, undefined, REGION)).not.toThrow();
  expect(() => synth({ tags: [{ key: 'k'.repeat(128), value: 'v'.repeat(256) }, { key: 'team name: a/b=c+d-e@f', value: '' }] }, undefined, REGION)).not.toThrow();
  expect(() => synth({ stream: StreamViewType.NEW_AND_OLD_IMAGES, replicas: [{ region: 'us-gov-west-1' }, { region: 'ap-southeast-7' }] }, undefined, REGION)).not.toThrow();
});
