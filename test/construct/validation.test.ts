// What the construct does with findings: errors fail the synth listing every one, warnings become
// annotations on the construct; and the checks of its own table options.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { synth, synthError } from './synth';
import { ManifestCompiler } from '../../lib/manifest/compile';
import { AttributeKind } from '../../lib/model/manifest';
import { edited, validManifest } from '../fixtures/valid-manifest';

test('manifest errors fail the synth with every error, its location, bad value and fix', () => {
  const manifest = edited((m) => {
    m.accessPatterns!.orderById.consistentRead = true;
    m.globalIndexes!.GSI2.include!.push('totl');
  });
  const message = synthError({}, manifest);
  expect(message).toContain('Test/Table: 2 errors to fix:\n');
  expect(message).toContain("[INCLUDE_ATTRIBUTE_UNDECLARED] index GSI2: INCLUDE names 'totl', which no entity declares. Fix: declare the attribute");
  expect(message).toContain('[PATTERN_CONSISTENT_READ_ON_GSI] pattern orderById: requires strongly consistent reads from GSI GSI1');
});

test('SHARDS_BELOW_PEAK becomes a warning annotation on the construct, and the table is still built', () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.sharding = { shardCount: 2, peakWritesPerSecond: 2000 }; });
  const { stack, table } = synth({}, manifest);
  expect(table.GlobalSecondaryIndexes).toHaveLength(2);
  Annotations.fromStack(stack).hasWarning('/Test/Table', Match.stringLikeRegexp(
    '^\\[SHARDS_BELOW_PEAK\\] index GSI2: 2 shard\\(s\\) take about 1600 write units/s.*Fix: set shardCount to at least 3 \\[ack: cdk-single-table:SHARDS_BELOW_PEAK\\]$',
  ));
});

test('a low-cardinality GSI partition key and an unbounded LSI collection become warning annotations', () => {
  const manifest = edited((m) => {
    m.entities.Order.attributes.status.distinctValues = 5;
    delete m.entities.Order.maxItemsPerPartition;
  });
  const { stack } = synth({}, manifest);
  const annotations = Annotations.fromStack(stack);
  annotations.hasWarning('/Test/Table', Match.stringLikeRegexp(
    '^\\[HOT_PARTITION_KEY\\] index GSI2, entity Order: partition key "ORDER#\\{status\\}" has at most 5 value\\(s\\).*Fix: shard the index: globalIndexes.GSI2.sharding = .*\\[ack: cdk-single-table:HOT_PARTITION_KEY\\]$',
  ));
  annotations.hasWarning('/Test/Table', Match.stringLikeRegexp('^\\[LSI_COLLECTION_UNBOUNDED\\] entity Order: .*caps an item collection at 10 GB.*Fix: declare maxItemsPerPartition on Order'));
});

test('a manifest without findings adds no annotations', () => {
  const { stack } = synth();
  Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
  Annotations.fromStack(stack).hasNoError('*', Match.anyValue());
});

describe('table options', () => {
  test.each(['ab', 'app table', 'x'.repeat(256)])('TABLE_NAME_INVALID: %p', (name) => {
    const message = synthError({ tableName: name });
    expect(message).toContain(`[TABLE_NAME_INVALID] SingleTable props: tableName ${name.length > 64 ? `"${name.slice(0, 24)}..." (${name.length} characters)` : JSON.stringify(name)} is not 3-255 characters`);
  });

  test.each(['SK', 'GSI1PK', 'Type'])('TTL_ATTRIBUTE_CLASH: TTL on %s', (name) => {
    expect(synthError({ timeToLiveAttribute: name })).toContain(`[TTL_ATTRIBUTE_CLASH] SingleTable props: timeToLiveAttribute '${name}'`);
  });

  test('TTL_ATTRIBUTE_NOT_NUMBER: TTL on an attribute declared as a date', () => {
    const manifest = edited((m) => { m.entities.Order.attributes.expiresAt = { type: AttributeKind.DATE }; });
    const message = synthError({ timeToLiveAttribute: 'expiresAt' }, manifest);
    expect(message).toContain('[TTL_ATTRIBUTE_NOT_NUMBER] entity Order, attribute expiresAt: is the TTL attribute but has type DATE');
    expect(message).toContain("Fix: declare 'expiresAt' as AttributeKind.NUMBER");
  });

  test('UNIQUE_VALUES_EXPIRE: an entity with unique values that TTL expires is a warning naming the values and the fix; others are not', () => {
    const manifest = edited((m) => {
      m.entities.Order.attributes.expiresAt = { type: AttributeKind.NUMBER };
      m.entities.Order.unique = ['orderId'];
    });
    const { stack } = synth({ timeToLiveAttribute: 'expiresAt' }, manifest);
    Annotations.fromStack(stack).hasWarning('/Test/Table', Match.stringLikeRegexp(
      '^\\[UNIQUE_VALUES_EXPIRE\\] entity Order, attribute expiresAt: is the TTL attribute of an entity with unique values \\(orderId\\); '
      + 'DynamoDB deletes an expired item without its guard items.*Fix: release the values from the table\'s stream .*releaseUniqueValues; '
      + 'or delete these items with deleteItem or transactWrite once they expire',
    ));
    // Unique values on an entity that does not expire: nothing to warn about.
    const other = edited((m) => {
      m.entities.Order.attributes.expiresAt = { type: AttributeKind.NUMBER };
      m.entities.Customer.unique = ['email'];
    });
    Annotations.fromStack(synth({ timeToLiveAttribute: 'expiresAt' }, other).stack).hasNoWarning('*', Match.stringLikeRegexp('UNIQUE_VALUES_EXPIRE'));
  });

  test('a NUMBER TTL attribute is fine', () => {
    const manifest = edited((m) => { m.entities.Order.attributes.expiresAt = { type: AttributeKind.NUMBER }; });
    expect(() => synth({ timeToLiveAttribute: 'expiresAt' }, manifest)).not.toThrow();
  });

  test('ENCRYPTION_KEY_NEEDS_REGION: a customer-managed key in a stack without a region', () => {
    const message = synthError((stack) => ({ encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key')) }));
    expect(message).toContain('[ENCRYPTION_KEY_NEEDS_REGION] SingleTable props: encryption is a customer-managed key but the stack has no region');
  });

  test('ENCRYPTION_INVALID: encryption that is not a TableEncryptionV2', () => {
    expect(synthError({ encryption: { type: 'KMS' } as never })).toContain(
      '[ENCRYPTION_INVALID] SingleTable props: encryption is an object, not a TableEncryptionV2. Fix: use TableEncryptionV2.awsManagedKey()',
    );
  });

  test.each([
    ['recovery enabled as a string', { pointInTimeRecoveryEnabled: 'false' }, '`pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled` is the string "false", not a boolean'],
    ['a recovery period beyond 35 days', { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 36 }, '[POINT_IN_TIME_RECOVERY_INVALID] SingleTable props: `pointInTimeRecoverySpecification.recoveryPeriodInDays` is the number 36'],
    ['no recovery switch', { recoveryPeriodInDays: 7 }, '`pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled` is missing'],
  ])('point-in-time recovery: %s', (_what, spec, expected) => {
    expect(synthError({ pointInTimeRecoverySpecification: spec as never })).toContain(expected);
  });
});

describe('ManifestCompiler, for users of other jsii languages', () => {
  test('check lists findings without throwing', () => {
    const manifest = edited((m) => { m.accessPatterns!.orderById.index = 'GSI7'; });
    expect(ManifestCompiler.check(manifest).map((d) => d.code)).toEqual(['PATTERN_INDEX_UNKNOWN']);
    expect(ManifestCompiler.check(validManifest())).toEqual([]);
  });

  test('compile returns the frozen model, or throws listing the errors', () => {
    expect(ManifestCompiler.compile(validManifest()).indexes.GSI2.nonKeyAttributes).toEqual(['orderId', 'status', 'Type']);
    const manifest = edited((m) => { m.accessPatterns!.orderById.index = 'GSI7'; });
    expect(() => ManifestCompiler.compile(manifest)).toThrow(/\[PATTERN_INDEX_UNKNOWN\] pattern orderById: uses index 'GSI7'/);
  });
});
