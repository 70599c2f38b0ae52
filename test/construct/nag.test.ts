// Compliance of the example stack: cdk-nag's AwsSolutions pack (v3, a CDK validation plugin) finds
// nothing left unacknowledged, and the synth it guards succeeds. cdk-nag's DynamoDB rules only look
// at AWS::DynamoDB::Table, while TableV2 synthesizes AWS::DynamoDB::GlobalTable, so what they
// would check (point-in-time recovery, encryption, deletion protection) is asserted directly.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Billing, TableClass, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Stream, StreamEncryption } from 'aws-cdk-lib/aws-kinesis';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { manifest } from '../../examples/manifest';
import { ExampleStack } from '../../examples/stack';
import { SingleTable } from '../../lib/construct/single-table';

let outdir: string;
beforeAll(() => { outdir = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-nag-')); });
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

test('AwsSolutions finds no unacknowledged error or warning in the example stack', () => {
  const app = new App({ outdir });
  new ExampleStack(app, 'SingleTableExample');
  const report = new AwsSolutionsChecks(app).validateScope(app);
  expect(report.violations.map((v) => `${v.severity} ${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  expect(report.success).toBe(true);
});

test('with the pack registered through Validations, the synth passes', () => {
  const app = new App({ outdir });
  new ExampleStack(app, 'SingleTableExample');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  expect(() => app.synth()).not.toThrow();
});

const basicRole = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]';

/** An app with a connected function whose managed role is acknowledged as in the example, or not. */
function plainApp(acknowledged: boolean): App {
  const app = new App({ outdir });
  const stack = new Stack(app, 'Plain');
  const fn = new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('exports.handler = 1') });
  new SingleTable(stack, 'Table', { manifest }).connect(fn, { patterns: ['orderById'] });
  if (acknowledged) Validations.of(fn.role!).acknowledge({ id: basicRole, reason: 'test' });
  return app;
}

test('the pack flags the managed role of a connected function until it is acknowledged; the synth fails meanwhile', () => {
  const flagged = plainApp(false);
  expect(new AwsSolutionsChecks(flagged).validateScope(flagged).violations.map((v) => v.ruleName)).toEqual([basicRole]);
  Validations.of(flagged).addPlugins(new AwsSolutionsChecks(flagged));
  expect(() => flagged.synth()).toThrow('AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]');
  const acknowledged = plainApp(true);
  expect(new AwsSolutionsChecks(acknowledged).validateScope(acknowledged).violations).toEqual([]);
});

test('the GlobalTable cdk-nag does not inspect: point-in-time recovery, encryption at rest, deletion protection, retained', () => {
  const template = Template.fromStack(new ExampleStack(new App(), 'SingleTableExample'));
  const tables = Object.values(template.findResources('AWS::DynamoDB::GlobalTable'));
  expect(tables).toHaveLength(1);
  const [table] = tables;
  expect(table.DeletionPolicy).toBe('Retain');
  expect(table.UpdateReplacePolicy).toBe('Retain');
  expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
  expect(table.Properties.Replicas).toHaveLength(1);
  const [replica] = table.Properties.Replicas;
  expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  expect(replica.DeletionProtectionEnabled).toBe(true);
  expect(template.findResources('AWS::DynamoDB::Table')).toEqual({});
});

test('a table with replicas, Contributor Insights, tags, maxima, warm throughput and a Kinesis stream leaves AwsSolutions nothing to flag', () => {
  const app = new App({ outdir });
  const stack = new Stack(app, 'Features', { env: { region: 'eu-west-1' } });
  const key = new Key(stack, 'Key', { enableKeyRotation: true });
  new SingleTable(stack, 'Table', {
    manifest,
    encryption: TableEncryptionV2.customerManagedKey(key, { 'us-east-1': 'arn:aws:kms:us-east-1:111111111111:key/abc' }),
    billing: Billing.onDemand({ maxReadRequestUnits: 1000 }),
    tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
    contributorInsightsSpecification: { enabled: true },
    warmThroughput: { readUnitsPerSecond: 13000 },
    tags: [{ key: 'team', value: 'orders' }],
    kinesisStream: new Stream(stack, 'Changes', { encryption: StreamEncryption.MANAGED }),
    replicas: [{ region: 'us-east-1' }],
  });
  const report = new AwsSolutionsChecks(app).validateScope(app);
  expect(report.violations.map((v) => `${v.severity} ${v.ruleName}`)).toEqual([]);
});
