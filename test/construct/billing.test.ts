// Billing: on-demand by default; provisioned billing where no GSI takes fewer writes than the
// table, because a throttled GSI throttles the table's writes too (seed 004).
import { BillingMode } from 'aws-cdk-lib/aws-dynamodb';
import { synth, synthError } from './synth';
import { edited } from '../manifest/manifest-fixture';

const writeScaling = (min: number, max: number) => ({
  WriteCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: 70 } },
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
  ['readCapacity', { readCapacity: 0 }, 'readCapacity 0 is not a whole number'],
  ['writeCapacity', { writeCapacity: 2.5 }, 'writeCapacity 2.5 is not a whole number'],
  ['maxWriteCapacity below writeCapacity', { writeCapacity: 10, maxWriteCapacity: 5 }, 'maxWriteCapacity 5 is below writeCapacity 10'],
])('CAPACITY_INVALID: %s', (_what, props, expected) => {
  const message = synthError({ ...provisioned, ...props });
  expect(message).toContain(`[CAPACITY_INVALID] SingleTable props: ${expected}`);
});
