// The backfill job's CloudFormation: the state machine's definition (segment list, Distributed Map,
// the Choice loop, retries), least-privilege policies, logs and tracing, cdk-nag's AwsSolutions
// pack, the staged Lambda code, and the errors bad props get at synth.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'fs';
import * as path from 'path';
import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BackfillStack, backfillStack, definitionOf, segmentAssetDir } from './synth';
import { SingleTableBackfill } from '../../../lib/construct/backfill/backfill';
import { SingleTable } from '../../../lib/construct/single-table';
import { resolveModel } from '../../../lib/manifest/resolve';
import { modelJson } from '../../../lib/model/document';
import { MODEL_FORMAT_VERSION } from '../../../lib/model/format';
import { shopManifest } from '../../fixtures/shop';

const synths: BackfillStack[] = [];
function synth(...args: Parameters<typeof backfillStack>): BackfillStack {
  const s = backfillStack(...args);
  synths.push(s);
  return s;
}
afterAll(() => {
  for (const s of synths) rmSync(s.app.outdir, { recursive: true, force: true });
});

/** The statements of the IAM policies attached to a role, by the role's logical id. */
function statements(s: BackfillStack, roleLogicalId: string): any[] {
  return Object.values(s.template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleLogicalId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

describe('the state machine', () => {
  const s = synth({ previousManifest: shopManifest('A'), segments: 8, maxConcurrency: 4, maxWriteUnitsPerSecond: 400 });
  const definition = definitionOf(s);

  test('lists segments 0..N-1 and maps them, at most maxConcurrency at once, in Standard child executions', () => {
    expect(definition.StartAt).toBe('ListSegments');
    expect(definition.States.ListSegments).toEqual({ Type: 'Pass', Parameters: { 'segments.$': 'States.ArrayRange(0, 7, 1)' }, Next: 'EachSegment' });
    const map = definition.States.EachSegment;
    expect(map).toMatchObject({
      Type: 'Map',
      ItemsPath: '$.segments',
      ItemSelector: { 'segment.$': '$$.Map.Item.Value', 'totalSegments': 8 },
      MaxConcurrency: 4,
      ResultPath: null,
      End: true,
    });
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
  });

  test('each segment invokes the function with its state until the state says done, and fails after its end when items failed', () => {
    const { StartAt, States } = definitionOf(s).States.EachSegment.ItemProcessor;
    expect(StartAt).toBe('WorkSegment');
    expect(States.WorkSegment).toMatchObject({ Type: 'Task', Resource: 'FUNCTION', Next: 'SegmentDone' });
    // The whole state is the payload (no Parameters) and the function's answer the next state.
    expect(States.WorkSegment.Parameters).toBeUndefined();
    expect(States.WorkSegment.ResultPath).toBeUndefined();
    expect(States.SegmentDone).toEqual({
      Type: 'Choice',
      Choices: [
        { Variable: '$.done', BooleanEquals: false, Next: 'WorkSegment' },
        { Variable: '$.counts.failed', NumericGreaterThan: 0, Next: 'ItemsNotFixed' },
      ],
      Default: 'SegmentBackfilled',
    });
    expect(States.SegmentBackfilled).toEqual({ Type: 'Succeed' });
    expect(States.ItemsNotFixed).toMatchObject({ Type: 'Fail', Error: 'ItemsNotFixed' });
  });

  test('retries Lambda service errors and the throttling the function still meets, with full jitter', () => {
    expect(definitionOf(s).States.EachSegment.ItemProcessor.States.WorkSegment.Retry).toEqual([
      {
        ErrorEquals: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.ClientExecutionTimeoutException', 'Lambda.TooManyRequestsException'],
        IntervalSeconds: 2,
        MaxAttempts: 6,
        BackoffRate: 2,
        JitterStrategy: 'FULL',
      },
      {
        ErrorEquals: ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'],
        IntervalSeconds: 30,
        MaxAttempts: 8,
        BackoffRate: 2,
        MaxDelaySeconds: 600,
        JitterStrategy: 'FULL',
      },
    ]);
  });

  test('logs every event with the execution data, traces with X-Ray, keeps logs a year', () => {
    s.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true, Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: Match.anyValue() } }] },
      TracingConfiguration: { Enabled: true },
    });
    s.template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 365 }, 2);
  });

  test('the function: the latest Node.js runtime, 15 minutes, the budget split over the concurrency, a minute kept in hand', () => {
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
      Timeout: 900,
      Environment: { Variables: { TABLE_NAME: { Ref: s.logicalId(s.table.table) }, BACKFILL_MAX_WRITE_UNITS_PER_SECOND: '100', BACKFILL_RESERVE_MS: '60000' } },
      LoggingConfig: { LogGroup: { Ref: Match.anyValue() } },
    });
  });

  test('the function may Scan, GetItem and UpdateItem the table (no index), and write its own log group; nothing else', () => {
    const role = s.logicalId(s.backfill.segmentFunction.role as never);
    expect(s.template.findResources('AWS::IAM::Role')[role].Properties.ManagedPolicyArns).toBeUndefined();
    const logs = Object.entries(s.template.findResources('AWS::Logs::LogGroup')).find(([id]) => id.includes('FunctionLogs'))![0];
    expect(statements(s, role)).toEqual([
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logs, 'Arn'] } },
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Scan', 'dynamodb:UpdateItem'], Resource: { 'Fn::GetAtt': [s.logicalId(s.table.table), 'Arn'] } },
    ]);
  });

  test('with unique attributes it may also BatchGetItem, PutItem and ConditionCheckItem the table: the guards\' reads and transaction', () => {
    const b = shopManifest('B');
    const customer = b.entities.Customer;
    const u = synth({}, { manifest: { ...b, entities: { ...b.entities, Customer: { ...customer, unique: ['email'] } } } });
    const role = u.logicalId(u.backfill.segmentFunction.role as never);
    expect(statements(u, role)).toContainEqual({
      Effect: 'Allow',
      Action: ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Scan', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [u.logicalId(u.table.table), 'Arn'] },
    });
  });

  test('the state machine may invoke that function only (and run its own child executions, log and trace)', () => {
    const role = s.logicalId(s.backfill.stateMachine.role as never);
    const fn = s.logicalId(s.backfill.segmentFunction);
    const all = statements(s, role);
    const actions = all.flatMap((st) => [st.Action].flat());
    expect(actions.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:')).sort()).toEqual([
      'lambda:InvokeFunction', 'states:DescribeExecution', 'states:RedriveExecution', 'states:StartExecution', 'states:StopExecution',
    ]);
    expect(all.find((st) => st.Action === 'lambda:InvokeFunction').Resource).toEqual([
      { 'Fn::GetAtt': [fn, 'Arn'] },
      { 'Fn::Join': ['', [{ 'Fn::GetAtt': [fn, 'Arn'] }, ':*']] },
    ]);
    expect(all.find((st) => st.Action === 'states:StartExecution').Resource).toEqual({ Ref: s.logicalId(s.backfill.stateMachine) });
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(false);
  });
});

test('AwsSolutions finds nothing left; what it would flag is acknowledged on the state machine\'s policies only, each with its reason', () => {
  const s = synth({ previousManifest: shopManifest('A') });
  const report = new AwsSolutionsChecks(s.app).validateScope(s.app);
  expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  const acknowledged = s.backfill.node.findAll().flatMap((c) => c.node.metadata
    .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ path: c.node.path, id: id.replace(/^annotation::/i, ''), reason }))));
  expect(acknowledged.map((a) => `${a.path} ${a.id.replace(/\[.*/, '')}`).sort()).toEqual([
    'Shop/Table/Backfill/Resource/DistributedMapPolicy AwsSolutions-IAM5',
    'Shop/Table/Backfill/Resource/DistributedMapPolicy AwsSolutions-IAM5',
    'Shop/Table/Backfill/Resource/Role AwsSolutions-IAM5',
    'Shop/Table/Backfill/Resource/Role AwsSolutions-IAM5',
  ]);
  for (const a of acknowledged) expect(a.reason.length).toBeGreaterThan(40);
});

test('with a customer-managed key, the function gets the key actions its reads and writes need, through DynamoDB only', () => {
  const s = synth({}, (stack) => ({ encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key', { enableKeyRotation: true })) }), 'eu-west-1');
  const role = s.logicalId(s.backfill.segmentFunction.role as never);
  const key = statements(s, role).find((st) => [st.Action].flat().includes('kms:Decrypt'));
  expect(key.Action).toEqual(['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlaintext', 'kms:ReEncryptFrom', 'kms:ReEncryptTo']);
  expect(key.Resource).toEqual({ 'Fn::GetAtt': [s.logicalId(s.stack.node.findChild('Key') as never), 'Arn'] });
  expect(key.Condition).toEqual({ StringEquals: { 'kms:ViaService': { 'Fn::Join': ['', ['dynamodb.eu-west-1.', { Ref: 'AWS::URLSuffix' }]] } } });
});

describe('the staged code', () => {
  const files = (s: BackfillStack) => readdirSync(segmentAssetDir(s)).sort();

  test('holds the compiled bundle and the model files of the manifest and of the previous one', () => {
    const s = synth({ previousManifest: shopManifest('A') });
    expect(files(s)).toEqual(['index.js', 'model.json', 'previous.json']);
    const dir = segmentAssetDir(s);
    expect(readFileSync(path.join(dir, 'model.json'), 'utf8')).toBe(modelJson(resolveModel(shopManifest('B'))));
    expect(readFileSync(path.join(dir, 'previous.json'), 'utf8')).toBe(modelJson(resolveModel(shopManifest('A'))));
    // The Lambda runtime provides the SDK; no CDK code reaches the function.
    const code = readFileSync(path.join(dir, 'index.js'), 'utf8');
    expect(code).toContain('require("@aws-sdk/client-dynamodb")');
    expect(code).not.toMatch(/aws-cdk-lib|constructs/);
  });

  test('a compiled model file may stand for the previous manifest; without either there is no previous model', () => {
    const file = path.join(__dirname, '..', '..', '..', 'cdk.out', 'shop-a.model.json');
    writeFileSync(file, modelJson(resolveModel(shopManifest('A'))));
    try {
      const s = synth({ previousModelFile: file });
      expect(readFileSync(path.join(segmentAssetDir(s), 'previous.json'), 'utf8')).toBe(modelJson(resolveModel(shopManifest('A'))));
    } finally {
      rmSync(file);
    }
    expect(files(synth())).toEqual(['index.js', 'model.json']);
  });
});

test('defaults: 16 segments all at once, no write limit', () => {
  const s = synth();
  const definition = definitionOf(s);
  expect(definition.States.ListSegments.Parameters['segments.$']).toBe('States.ArrayRange(0, 15, 1)');
  expect(definition.States.EachSegment.MaxConcurrency).toBe(16);
  const fn = Object.values(s.template.findResources('AWS::Lambda::Function'))[0];
  expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(['BACKFILL_RESERVE_MS', 'TABLE_NAME']);
});

test('a shorter time limit keeps a quarter of it in hand', () => {
  const s = synth({ timeout: Duration.minutes(2) });
  s.template.hasResourceProperties('AWS::Lambda::Function', { Timeout: 120, Environment: { Variables: { BACKFILL_RESERVE_MS: '30000' } } });
});

describe('bad props fail the synth, naming the construct, the value and the fix', () => {
  const error = (...args: Parameters<typeof backfillStack>) => {
    try {
      synth(...args);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected the synth to fail');
  };
  test.each([
    ['no segment', { segments: 0 }, 'Shop/Table/Backfill: 1 error to fix:\n  - [BACKFILL_OPTION_INVALID] addBackfill options: `segments` is the number 0, not a whole number from 1 to 1000.'],
    ['more segments than ArrayRange lists', { segments: 1001 }, '`segments` is the number 1001, not a whole number from 1 to 1000'],
    ['a fraction of a segment', { segments: 2.5 }, '`segments` is the number 2.5'],
    ['more concurrency than segments', { segments: 4, maxConcurrency: 5 }, 'maxConcurrency is 5, more than segments (4). Fix: give a whole number from 1 to 4'],
    ['no concurrency', { maxConcurrency: 0 }, '`maxConcurrency` is the number 0'],
    ['a zero budget', { maxWriteUnitsPerSecond: 0 }, '`maxWriteUnitsPerSecond` is the number 0, not a positive number of write units per second (leave it out for no limit)'],
    ['an infinite budget', { maxWriteUnitsPerSecond: Infinity }, '`maxWriteUnitsPerSecond` is the number Infinity'],
    ['under a minute', { timeout: Duration.seconds(30) }, 'timeout is 30 seconds. Fix: give 1 to 15 minutes'],
    ["over Lambda's limit", { timeout: Duration.minutes(16) }, 'timeout is 16 minutes'],
    ['two previous models', { previousManifest: shopManifest('A'), previousModelFile: 'a.json' }, 'both previousManifest and previousModelFile are given. Fix: give one'],
    ['a missing model file', { previousModelFile: 'no-such.model.json' }, 'no-such.model.json: ENOENT'],
    ['a file that is no model', { previousModelFile: 'package.json' }, 'package.json: expected a compiled model file (format cdk-single-table/model); write one with `single-table generate <manifest>` and import the .model.json it writes. Fix: give the .model.json `single-table generate` writes'],
  ])('%s', (_, options, message) => {
    expect(error(options)).toContain(message);
  });

  test('a model file of another format version is refused, naming both versions', () => {
    const file = path.join(__dirname, '..', '..', '..', 'cdk.out', 'shop-a-old.model.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...JSON.parse(modelJson(resolveModel(shopManifest('A')))), formatVersion: 1 }));
    try {
      expect(error({ previousModelFile: file })).toContain(`[BACKFILL_PREVIOUS_MODEL_INVALID] addBackfill options: previousModelFile ${file}: the compiled model file has format version 1; this runtime reads version ${MODEL_FORMAT_VERSION}.`);
    } finally {
      rmSync(file);
    }
  });

  test('a previous manifest whose table key differs is refused: that is a copy, not a backfill', () => {
    const previous = shopManifest('A');
    const moved = { ...previous, entities: { ...previous.entities, Product: { ...previous.entities.Product, sk: 'ITEM#{productId}' } } };
    expect(error({ previousManifest: moved })).toContain('[BACKFILL_PLAN_INVALID] addBackfill options: entity Product: its table key changed from PRODUCT#{productId} / ITEM#{productId}');
  });

  test('an invalid previous manifest names what is wrong in it', () => {
    const previous = shopManifest('A');
    expect(error({ previousManifest: { ...previous, accessPatterns: { broken: { entities: ['Nobody'] } } } })).toContain('previousManifest, pattern broken: ');
  });
});

test('an imported table gets the same job, its grants on the ARN the import forms', () => {
  const cdkOut = path.join(__dirname, '..', '..', '..', 'cdk.out');
  mkdirSync(cdkOut, { recursive: true }); // absent in a fresh clone
  const app = new App({ outdir: mkdtempSync(path.join(cdkOut, 'backfill-')) });
  try {
    const stack = new Stack(app, 'Jobs', { env: { account: '111111111111', region: 'eu-west-1' } });
    const table = SingleTable.fromTableName(stack, 'Orders', 'orders', shopManifest('B'));
    const backfill = new SingleTableBackfill(stack, 'Backfill', { table, previousManifest: shopManifest('A'), segments: 2 });
    const template = Template.fromStack(stack);
    const role = stack.resolve((backfill.segmentFunction.role!.node.defaultChild as unknown as { logicalId: string }).logicalId);
    const dynamo = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .find((st) => [st.Action].flat().includes('dynamodb:Scan'));
    expect(dynamo.Resource).toEqual({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':dynamodb:eu-west-1:111111111111:table/orders']] });
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: { TABLE_NAME: 'orders' } } });
  } finally {
    rmSync(app.outdir, { recursive: true, force: true });
  }
});
