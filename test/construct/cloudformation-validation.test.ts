// aws-cdk-lib's own CloudFormation validation (every resource checked against its CloudFormation
// schema at synth) finds nothing in what the construct renders, in each of its shapes: the example
// app, every table option, multi-attribute GSI keys with a Python function, tenant isolation, a
// stream consumer and a backfill job. The rest of the test run turns that validation off
// (test/support/global-setup.ts), for it takes seconds in every test file; here it is on, and any of its
// findings, warnings included, fail the synth.
import { rmSync } from 'fs';
import { App, CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Billing, Capacity, ContributorInsightsMode, MultiRegionConsistency, StreamViewType, TableClass, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { backfillStack } from './backfill/synth';
import { newFunction } from './policy';
import { manifest as exampleManifest } from '../../examples/manifest';
import { ExampleStack } from '../../examples/stack';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { StreamEventType } from '../../lib/construct/streams/options';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';

process.env.CDK_VALIDATION = 'true';
// Every app of this file (the backfill's too) fails its synth on any finding, errors and warnings.
process.env.CDK_CONTEXT_JSON = JSON.stringify({ '@aws-cdk/core:validateAgainstDefaultRules': true, '@aws-cdk/core:strictCfnValidateErrors': true });

const strictApp = () => new App();

/** What synthesizing the app throws, or undefined. */
function synthError(app: App): string | undefined {
  try {
    app.synth();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

test('the validation is on here: a table without its key schema fails the synth', () => {
  const app = strictApp();
  new CfnResource(new Stack(app, 'Broken'), 'Table', { type: 'AWS::DynamoDB::Table', properties: { BillingMode: 'PAY_PER_REQUEST' } });
  expect(synthError(app)).toMatch(/KeySchema/);
});

test('the example app', () => {
  const app = strictApp();
  new ExampleStack(app, 'SingleTableExample');
  expect(synthError(app)).toBeUndefined();
});

test('every table option: provisioned billing, a customer managed key, streams and a consumer, replicas and the TableV2 settings', () => {
  const app = strictApp();
  const stack = new Stack(app, 'Options', { env: { region: 'eu-west-1', account: '111111111111' } });
  const table = new SingleTable(stack, 'Table', {
    manifest: exampleManifest,
    tableName: 'options',
    billing: Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ minCapacity: 5, maxCapacity: 50 }) }),
    encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key'), { 'us-east-1': 'arn:aws:kms:us-east-1:111111111111:key/replica' }),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },
    deletionProtection: true,
    dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
    tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
    contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS },
    warmThroughput: { readUnitsPerSecond: 15_000, writeUnitsPerSecond: 5_000 },
    replicas: [{ region: 'us-east-1' }],
  });
  const fn = newFunction(stack, 'Consumer');
  table.addStreamConsumer(fn, { entities: ['Order'], eventTypes: [StreamEventType.INSERT], startingPosition: StartingPosition.LATEST, batchSize: 10, maxBatchingWindow: Duration.seconds(1) });
  table.connect(newFunction(stack, 'Writer'), { patterns: ['ordersByStatus'], writes: [WriteOperation.PUT, WriteOperation.UPDATE] });
  expect(synthError(app)).toBeUndefined();
});

test('multi-region strong consistency: one replica and a witness', () => {
  const app = strictApp();
  const stack = new Stack(app, 'Strong', { env: { region: 'us-east-1', account: '111111111111' } });
  new SingleTable(stack, 'Table', {
    manifest: exampleManifest,
    multiRegionConsistency: MultiRegionConsistency.STRONG,
    replicas: [{ region: 'us-east-2' }],
    witnessRegion: 'us-west-2',
  });
  expect(synthError(app)).toBeUndefined();
  const table = Object.values(app.synth().getStackByName('Strong').template.Resources as Record<string, any>).find((r) => r.Type === 'AWS::DynamoDB::GlobalTable');
  expect(table.Properties.MultiRegionConsistency).toBe('STRONG');
  expect(table.Properties.GlobalTableWitnesses).toEqual([{ Region: 'us-west-2' }]);
  expect(table.Properties.Replicas.map((r: { Region: string }) => r.Region).sort()).toEqual(['us-east-1', 'us-east-2']);
});

test('multi-attribute GSI keys, a Python function with its layer, and a tenant-isolated grant', () => {
  const app = strictApp();
  const stack = new Stack(app, 'Attributes');
  const table = new SingleTable(stack, 'Table', { manifest: attributeKeyedManifest() });
  const python = new LambdaFunction(stack, 'Python', { runtime: Runtime.PYTHON_3_13, handler: 'index.handler', code: Code.fromInline('def handler(event, context):\n    return 1\n') });
  table.connect(python, { patterns: ['invoicesByStatus', 'invoiceById'] });
  table.grantAccess(newFunction(stack, 'Tenant'), { writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: '${aws:PrincipalTag/tenantId}' } });
  expect(synthError(app)).toBeUndefined();
});

test('a backfill job with its state machine and segment Lambda', () => {
  // backfillStack synthesizes its app (into the repository's cdk.out, removed here)
  let outdir: string | undefined;
  expect(() => { outdir = backfillStack({ segments: 4, maxConcurrency: 2 }).app.outdir; }).not.toThrow();
  rmSync(outdir!, { recursive: true, force: true });
});
