// Billing: on-demand by default; provisioned billing where no GSI takes fewer writes than the
// table, because a throttled GSI throttles the table's writes too.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { BillingMode } from 'aws-cdk-lib/aws-dynamodb';
import { synth, synthError } from './synth';
import { edited } from '../manifest/manifest-fixture';

const writeScaling = (min: number, max: number, target = 70) => ({
  WriteCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: target } },
});
const provisioned = { billingMode: BillingMode.PROVISIONED };

test('on-demand: no capacity anywhere', () => {
  const { table } = synth();
  expect(table.BillingMode).toBe('PAY_PER_REQUEST');
  expect(table.WriteProvisionedThroughputSettings).toBeUndefined();
  expect(table.GlobalSecondaryIndexes.map((i: any) => i.WriteProvisionedThroughputSettings)).toEqual([undefined, undefined]);
});

test('provisioned with defaults: 5 read units, writes fixed at 5, GSIs inherit', () => {
  const { table } = synth(provisioned);
  expect(table.BillingMode).toBe('PROVISIONED');
  expect(table.WriteProvisionedThroughputSettings).toEqual(writeScaling(5, 5));
  expect(table.Replicas[0].ReadProvisionedThroughputSettings).toEqual({ ReadCapacityUnits: 5 });
  expect(table.GlobalSecondaryIndexes.map((i: any) => i.WriteProvisionedThroughputSettings)).toEqual([writeScaling(5, 5), writeScaling(5, 5)]);
});

test("provisioned with a GSI's own capacity: its writes scale from its own floor to the table's ceiling", () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.writeCapacity = 12; m.globalIndexes!.GSI2.readCapacity = 3; });
  const { table } = synth({ ...provisioned, readCapacity: 7, writeCapacity: 10, maxWriteCapacity: 40 }, manifest);
  expect(table.WriteProvisionedThroughputSettings).toEqual(writeScaling(10, 40));
  expect(table.GlobalSecondaryIndexes[0].WriteProvisionedThroughputSettings).toEqual(writeScaling(10, 40));
  expect(table.GlobalSecondaryIndexes[1].WriteProvisionedThroughputSettings).toEqual(writeScaling(12, 40));
  expect(table.Replicas[0].GlobalSecondaryIndexes).toEqual([
    { IndexName: 'GSI1', ReadProvisionedThroughputSettings: { ReadCapacityUnits: 7 } },
    { IndexName: 'GSI2', ReadProvisionedThroughputSettings: { ReadCapacityUnits: 3 } },
  ]);
});

test('GSI_WRITE_CAPACITY_BELOW_TABLE: a GSI provisioned with fewer writes than the table fails the synth', () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.writeCapacity = 9; });
  const message = synthError({ ...provisioned, writeCapacity: 10 }, manifest);
  expect(message).toContain('[GSI_WRITE_CAPACITY_BELOW_TABLE] index GSI2: writeCapacity 9 is below the table\'s 10');
  expect(message).toContain('Fix: set writeCapacity on GSI2 to at least 10');
  expect(() => synth({ ...provisioned, writeCapacity: 9 }, manifest)).not.toThrow();
});

test('CAPACITY_WITHOUT_PROVISIONED_BILLING: capacities with on-demand billing', () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI1.readCapacity = 4; });
  const message = synthError({ writeCapacity: 10 }, manifest);
  expect(message).toContain('(2 errors)');
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] SingleTable props: sets writeCapacity 10 but billing is on-demand');
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] index GSI1: sets readCapacity 4');
  expect(message).toContain('Fix: set billingMode: BillingMode.PROVISIONED, or remove readCapacity');
});

test.each([
  ['readCapacity', { readCapacity: 0 }, '`readCapacity` is the number 0, not a whole number'],
  ['writeCapacity', { writeCapacity: 2.5 }, '`writeCapacity` is the number 2.5, not a whole number'],
  ['maxWriteCapacity below writeCapacity', { writeCapacity: 10, maxWriteCapacity: 5 }, 'maxWriteCapacity 5 is below writeCapacity 10'],
])('CAPACITY_INVALID: %s', (_what, props, expected) => {
  const message = synthError({ ...provisioned, ...props });
  expect(message).toContain(`[CAPACITY_INVALID] SingleTable props: ${expected}`);
});

const readScaling = (min: number, max: number, target = 70) => ({
  ReadCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: target } },
});

test('maxReadCapacity: the table\'s reads autoscale, and a GSI with its own reads scales from them to the table\'s ceiling', () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.readCapacity = 8; });
  const { table } = synth({ ...provisioned, readCapacity: 4, maxReadCapacity: 20, writeCapacity: 10, targetUtilizationPercent: 50 }, manifest);
  expect(table.Replicas[0].ReadProvisionedThroughputSettings).toEqual(readScaling(4, 20, 50));
  expect(table.Replicas[0].GlobalSecondaryIndexes).toEqual([
    { IndexName: 'GSI1', ReadProvisionedThroughputSettings: readScaling(4, 20, 50) },
    { IndexName: 'GSI2', ReadProvisionedThroughputSettings: readScaling(8, 20, 50) },
  ]);
  expect(table.WriteProvisionedThroughputSettings).toEqual(writeScaling(10, 10, 50));
});

test.each([
  ['maxReadCapacity below readCapacity', { readCapacity: 10, maxReadCapacity: 5 }, '[CAPACITY_INVALID] SingleTable props: maxReadCapacity 5 is below readCapacity 10'],
  ['targetUtilizationPercent out of range', { targetUtilizationPercent: 95 }, '[CAPACITY_INVALID] SingleTable props: `targetUtilizationPercent` is the number 95, not a whole number'],
])('CAPACITY_INVALID: %s', (_what, props, expected) => {
  expect(synthError({ ...provisioned, ...props })).toContain(expected);
});

test('CAPACITY_WITHOUT_PROVISIONED_BILLING: autoscaling options with on-demand billing', () => {
  const message = synthError({ maxReadCapacity: 10, targetUtilizationPercent: 60 });
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] SingleTable props: sets maxReadCapacity 10 but billing is on-demand');
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] SingleTable props: sets targetUtilizationPercent 60 but billing is on-demand');
});

describe('SHARD_PEAK_ABOVE_CAPACITY', () => {
  // GSI2 projects INCLUDE (a small entry: 1 write unit per write), sharded for 2000 writes/s.
  const sharded = edited((m) => { m.globalIndexes!.GSI2.sharding = { peakWritesPerSecond: 2000 }; });
  const warning = (stack: any) => Annotations.fromStack(stack).findWarning('/Test/Table', Match.stringLikeRegexp('SHARD_PEAK_ABOVE_CAPACITY'));

  test('a sharded GSI whose declared peak exceeds the write capacity it can scale to', () => {
    const { stack } = synth({ ...provisioned, writeCapacity: 100, maxWriteCapacity: 1500 }, sharded);
    const [found] = warning(stack);
    expect(found.entry.data).toMatch(
      /^\[SHARD_PEAK_ABOVE_CAPACITY\] index GSI2: the declared peak of 2000 writes per second needs 2000 write units per second, but the index can scale only to 1500; /,
    );
    expect(found.entry.data).toContain('Fix: raise maxWriteCapacity (or the index\'s writeCapacity) to at least 2000');
  });

  test('counts the write units of the largest entry: a 1.5 KB ALL entry takes 2 per write', () => {
    const big = edited((m) => {
      m.globalIndexes!.GSI2 = { sharding: { peakWritesPerSecond: 1000 } };
      m.entities.Order.typicalItemSizeBytes = 1500;
    });
    const [found] = warning(synth({ ...provisioned, maxWriteCapacity: 1999 }, big).stack);
    expect(found.entry.data).toContain('needs 2000 write units per second, but the index can scale only to 1999');
    expect(warning(synth({ ...provisioned, maxWriteCapacity: 2000 }, big).stack)).toEqual([]);
  });

  test('no warning when the ceiling covers the peak, nor with on-demand billing', () => {
    expect(warning(synth({ ...provisioned, maxWriteCapacity: 2000 }, sharded).stack)).toEqual([]);
    const ownCapacity = edited((m) => {
      m.globalIndexes!.GSI2.sharding = { peakWritesPerSecond: 2000 };
      m.globalIndexes!.GSI2.writeCapacity = 2500;
    });
    expect(warning(synth({ ...provisioned, maxWriteCapacity: 100 }, ownCapacity).stack)).toEqual([]);
    expect(warning(synth({}, sharded).stack)).toEqual([]);
  });
});
