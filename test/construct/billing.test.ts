// Billing: on-demand by default, TableV2's Billing otherwise; provisioned billing where no GSI takes
// fewer writes than the table, because a throttled GSI throttles the table's writes too.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Billing, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import { synth, synthError } from './synth';
import { edited } from '../fixtures/valid-manifest';

const writeScaling = (min: number, max: number, target = 70) => ({
  WriteCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: target } },
});
const readScaling = (min: number, max: number, target = 70) => ({
  ReadCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: target } },
});
/** Provisioned billing: reads fixed at `reads`, writes scaling from `writes` to `maxWrites`. */
const provisioned = (reads = 5, writes = 5, maxWrites = writes) => ({
  billing: Billing.provisioned({
    readCapacity: Capacity.fixed(reads),
    writeCapacity: Capacity.autoscaled({ minCapacity: writes, maxCapacity: maxWrites }),
  }),
});

test('on-demand: no capacity anywhere', () => {
  const { table, singleTable } = synth();
  expect(table.BillingMode).toBe('PAY_PER_REQUEST');
  expect(singleTable.billingMode).toBe('PAY_PER_REQUEST');
  expect(table.WriteProvisionedThroughputSettings).toBeUndefined();
  expect(table.GlobalSecondaryIndexes.map((i: any) => i.WriteProvisionedThroughputSettings)).toEqual([undefined, undefined]);
});

test('provisioned: the table\'s capacity as given, GSIs inherit it', () => {
  const { table, singleTable } = synth(provisioned(5, 5));
  expect(table.BillingMode).toBe('PROVISIONED');
  expect(singleTable.billingMode).toBe('PROVISIONED');
  expect(table.WriteProvisionedThroughputSettings).toEqual(writeScaling(5, 5));
  expect(table.Replicas[0].ReadProvisionedThroughputSettings).toEqual({ ReadCapacityUnits: 5 });
  expect(table.GlobalSecondaryIndexes.map((i: any) => i.WriteProvisionedThroughputSettings)).toEqual([writeScaling(5, 5), writeScaling(5, 5)]);
});

test("provisioned with a GSI's own capacity: its writes scale from its own floor to the table's ceiling", () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.writeCapacity = 12; m.globalIndexes!.GSI2.readCapacity = 3; });
  const { table } = synth(provisioned(7, 10, 40), manifest);
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
  const message = synthError(provisioned(5, 10), manifest);
  expect(message).toContain('[GSI_WRITE_CAPACITY_BELOW_TABLE] index GSI2: writeCapacity 9 is below the table\'s 10');
  expect(message).toContain('Fix: set writeCapacity on GSI2 to at least 10');
  expect(() => synth(provisioned(5, 9), manifest)).not.toThrow();
});

test("CAPACITY_WITHOUT_PROVISIONED_BILLING: a GSI's capacity with on-demand billing", () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI1.readCapacity = 4; m.globalIndexes!.GSI2.writeCapacity = 10; });
  const message = synthError({}, manifest);
  expect(message).toContain('Test/Table: 2 errors to fix:\n');
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] index GSI1: sets readCapacity 4 but billing is on-demand');
  expect(message).toContain('[CAPACITY_WITHOUT_PROVISIONED_BILLING] index GSI2: sets writeCapacity 10');
  expect(message).toContain('Fix: give the SingleTable billing: Billing.provisioned({ ... }), or remove readCapacity from GSI1');
});

test('CAPACITY_INVALID: fixed write capacity, which a table can only autoscale', () => {
  const billing = Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.fixed(5) });
  const message = synthError({ billing });
  expect(message).toContain("[CAPACITY_INVALID] SingleTable props: billing's writeCapacity is Capacity.fixed");
  expect(message).toContain('Fix: use Capacity.autoscaled({ minCapacity: 5, maxCapacity: 5 })');
});

test.each([
  ['a mode name', 'PROVISIONED', 'the string "PROVISIONED"'],
  ['an object that looks like one', { mode: 'PAY_PER_REQUEST' }, 'an object'],
])('BILLING_INVALID: %s', (_what, billing, described) => {
  const message = synthError({ billing: billing as never });
  expect(message).toContain(`[BILLING_INVALID] SingleTable props: billing is ${described}, not a Billing. Fix: use Billing.onDemand() or Billing.provisioned(`);
});

test("autoscaled reads: a GSI with its own reads scales from them to the table's ceiling, at the table's read target; writes at theirs", () => {
  const manifest = edited((m) => { m.globalIndexes!.GSI2.readCapacity = 8; m.globalIndexes!.GSI2.writeCapacity = 12; });
  const billing = Billing.provisioned({
    readCapacity: Capacity.autoscaled({ minCapacity: 4, maxCapacity: 20, targetUtilizationPercent: 50 }),
    writeCapacity: Capacity.autoscaled({ minCapacity: 10, maxCapacity: 10, targetUtilizationPercent: 60 }),
  });
  const { table } = synth({ billing }, manifest);
  expect(table.Replicas[0].ReadProvisionedThroughputSettings).toEqual(readScaling(4, 20, 50));
  expect(table.Replicas[0].GlobalSecondaryIndexes).toEqual([
    { IndexName: 'GSI1', ReadProvisionedThroughputSettings: readScaling(4, 20, 50) },
    { IndexName: 'GSI2', ReadProvisionedThroughputSettings: readScaling(8, 20, 50) },
  ]);
  expect(table.WriteProvisionedThroughputSettings).toEqual(writeScaling(10, 10, 60));
  expect(table.GlobalSecondaryIndexes[1].WriteProvisionedThroughputSettings).toEqual(writeScaling(12, 12, 60));
});

describe('SHARD_PEAK_ABOVE_CAPACITY', () => {
  // GSI2 projects INCLUDE (a small entry: 1 write unit per write), sharded for 2000 writes/s.
  const sharded = edited((m) => { m.globalIndexes!.GSI2.sharding = { peakWritesPerSecond: 2000 }; });
  const warning = (stack: any) => Annotations.fromStack(stack).findWarning('/Test/Table', Match.stringLikeRegexp('SHARD_PEAK_ABOVE_CAPACITY'));

  test('a sharded GSI whose declared peak exceeds the write capacity it can scale to', () => {
    const { stack } = synth(provisioned(5, 100, 1500), sharded);
    const [found] = warning(stack);
    expect(found.entry.data).toMatch(
      /^\[SHARD_PEAK_ABOVE_CAPACITY\] index GSI2: the declared peak of 2000 writes per second needs 2000 write units per second, but the index can scale only to 1500; /,
    );
    expect(found.entry.data).toContain("Fix: raise the maxCapacity of the billing's writeCapacity (or the index's writeCapacity) to at least 2000");
  });

  test('counts the write units of the largest entry: a 1.5 KB ALL entry takes 2 per write', () => {
    const big = edited((m) => {
      m.globalIndexes!.GSI2 = { sharding: { peakWritesPerSecond: 1000 } };
      m.entities.Order.typicalItemSizeBytes = 1500;
    });
    const [found] = warning(synth(provisioned(5, 5, 1999), big).stack);
    expect(found.entry.data).toContain('needs 2000 write units per second, but the index can scale only to 1999');
    expect(warning(synth(provisioned(5, 5, 2000), big).stack)).toEqual([]);
  });

  test('no warning when the ceiling covers the peak, nor with on-demand billing', () => {
    expect(warning(synth(provisioned(5, 5, 2000), sharded).stack)).toEqual([]);
    const ownCapacity = edited((m) => {
      m.globalIndexes!.GSI2.sharding = { peakWritesPerSecond: 2000 };
      m.globalIndexes!.GSI2.writeCapacity = 2500;
    });
    expect(warning(synth(provisioned(5, 5, 100), ownCapacity).stack)).toEqual([]);
    expect(warning(synth({}, sharded).stack)).toEqual([]);
  });
});
