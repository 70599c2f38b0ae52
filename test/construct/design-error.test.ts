// Every design or props error of the constructs is aws-cdk-lib's ValidationError on the construct,
// listing each finding with its code, place and fix, with a trace of the caller's frames only; the
// library touches no process-wide state. `cdk synth` printing it: test/examples/cdk-synth.test.ts.
import { App, Errors, Stack } from 'aws-cdk-lib';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { synthError } from './synth';
import { SingleTable } from '../../lib/construct/single-table';
import { edited, validManifest } from '../fixtures/valid-manifest';

const misspelled = edited((m) => { m.entities.Order.sk = 'ORDER#{ordrId}'; });

function thrown(f: () => unknown): any {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

test('a manifest error is a ValidationError on the construct, its trace only the caller\'s frames, and no process listener is left', () => {
  const listeners = process.listenerCount('uncaughtException');
  const error = thrown(() => new SingleTable(new Stack(new App(), 'Test'), 'Table', { manifest: misspelled }));
  expect(Errors.isValidationError(error)).toBe(true);
  expect(error.constructPath).toBe('Test/Table');
  expect(error.message).toBe('Test/Table: 1 error to fix:\n  - [TEMPLATE_INVALID] entity Order, table sk: template "ORDER#{ordrId}" names undeclared attribute \'ordrId\'. '
    + "Fix: did you mean 'orderId'? write \"ORDER#{orderId}\", or declare 'ordrId' in the entity's attributes");
  const frames = (error.stack as string).split('\n').filter((line) => line.trimStart().startsWith('at '));
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.every((frame) => !/[/\\]lib[/\\]/.test(frame))).toBe(true);
  expect(error.stack).toContain('design-error.test.ts');
  expect(error.stack).toContain('Relates to construct');
  expect(process.listenerCount('uncaughtException')).toBe(listeners);
});

test('unknown props are refused with the name meant; old and Table (v1) names with their TableV2-shaped replacement; all at once', () => {
  const message = synthError({
    stream: StreamViewType.NEW_AND_OLD_IMAGES, billingMode: 'PROVISIONED', readCapacity: 5, pointInTimeRecovery: true, tableNmae: 'orders',
  } as never);
  expect(message).toMatch(/^Test\/Table: 5 errors to fix:\n/);
  expect(message).toContain('[PROPERTY_UNKNOWN] SingleTable props: `stream` is not a property here. Fix: use dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES');
  expect(message).toContain("`billingMode` is not a property here. Fix: SingleTable takes TableV2's billing: use billing: Billing.onDemand() or Billing.provisioned(");
  expect(message).toContain('`readCapacity` is not a property here. Fix: SingleTable takes TableV2\'s billing: use billing: Billing.provisioned({ readCapacity: Capacity.fixed(5)');
  expect(message).toContain('`pointInTimeRecovery` is not a property here. Fix: use pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true }');
  expect(message).toContain("`tableNmae` is not a property here. Fix: did you mean 'tableName'? remove it");
});

test('unknown options of monitor and addBackfill are refused with the name meant', () => {
  const table = new SingleTable(new Stack(new App(), 'Test'), 'Table', { manifest: validManifest() });
  expect(() => table.monitor({ throttleTreshold: 5 } as never)).toThrow(
    "Test/Table/Monitoring: 1 error to fix:\n  - [PROPERTY_UNKNOWN] monitor options: `throttleTreshold` is not a property here. Fix: did you mean 'throttleThreshold'?");
  expect(() => table.addBackfill('Backfill', { segment: 4, maxConcurrency: 0 } as never)).toThrow(
    /^Test\/Table\/Backfill: 2 errors to fix:\n {2}- \[BACKFILL_OPTION_INVALID\] addBackfill options: `maxConcurrency` is the number 0, not a whole number from 1 to segments\..*\n {2}- \[PROPERTY_UNKNOWN\] addBackfill options: `segment` is not a property here\. Fix: did you mean 'segments'\?/);
});
