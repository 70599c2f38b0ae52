// The example stack's CloudFormation, resource by resource: the table the example manifest defines,
// the alarms `monitor()` adds for its indexes, the handler's wiring and its IAM policy. What every
// alarm and widget says is tested with the construct (test/construct/monitoring.test.ts).
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ExampleStack } from '../../examples/stack';

const stack = new ExampleStack(new App(), 'SingleTableExample');
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
const idOf = (type: string) => Object.keys(template.findResources(type))[0];
const TABLE = { Ref: idOf('AWS::DynamoDB::GlobalTable') };
const TABLE_ARN = { 'Fn::GetAtt': [TABLE.Ref, 'Arn'] };
const indexArn = (name: string) => ({ 'Fn::Join': ['', [TABLE_ARN, `/index/${name}`]] });

test('the example manifest compiles without warnings', () => {
  Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
});

test('the stack holds the table, its model layer, 34 alarms, a dashboard and the handler with its role and policy', () => {
  const count: Record<string, number> = {};
  for (const r of Object.values(resources)) count[r.Type] = (count[r.Type] ?? 0) + 1;
  expect(count).toEqual({
    'AWS::DynamoDB::GlobalTable': 1,
    'AWS::Lambda::LayerVersion': 1,
    'AWS::CloudWatch::Alarm': 34,
    'AWS::CloudWatch::Dashboard': 1,
    'AWS::IAM::Role': 1,
    'AWS::IAM::Policy': 1,
    'AWS::Lambda::Function': 1,
  });
  template.hasOutput('TableName', { Value: TABLE });
});

test('the table: its key schema, three GSIs and five LSIs with their projections, on demand, protected and retained', () => {
  const key = (pk: string, sk: string) => [{ AttributeName: pk, KeyType: 'HASH' }, { AttributeName: sk, KeyType: 'RANGE' }];
  const gsi = (n: number, Projection: object) => ({ IndexName: `GSI${n}`, KeySchema: key(`GSI${n}PK`, `GSI${n}SK`), Projection });
  const lsi = (n: number, ProjectionType: string) => ({ IndexName: `LSI${n}`, KeySchema: key('PK', `LSI${n}SK`), Projection: { ProjectionType } });
  const keyAttributes = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'LSI1SK', 'LSI2SK', 'LSI3SK', 'LSI4SK', 'LSI5SK'];
  template.hasResource('AWS::DynamoDB::GlobalTable', {
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
    Properties: Match.objectEquals({
      AttributeDefinitions: keyAttributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: key('PK', 'SK'),
      GlobalSecondaryIndexes: [
        gsi(1, { ProjectionType: 'ALL' }),
        gsi(2, { ProjectionType: 'INCLUDE', NonKeyAttributes: ['orderId', 'username', 'status', 'createdAt', 'amount', 'Type'] }),
        gsi(3, { ProjectionType: 'KEYS_ONLY' }),
      ],
      LocalSecondaryIndexes: [lsi(1, 'ALL'), lsi(2, 'KEYS_ONLY'), lsi(3, 'ALL'), lsi(4, 'KEYS_ONLY'), lsi(5, 'ALL')],
      Replicas: [{
        Region: { Ref: 'AWS::Region' },
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        GlobalSecondaryIndexes: [{ IndexName: 'GSI1' }, { IndexName: 'GSI2' }, { IndexName: 'GSI3' }],
      }],
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    }),
  });
});

describe('alarms', () => {
  // At least one in 3 of 5 one-minute periods; no data is no alarm.
  const EVERY_MINUTE = {
    Threshold: 1,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    EvaluationPeriods: 5,
    DatapointsToAlarm: 3,
    TreatMissingData: 'notBreaching',
  };
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((r) => r.Properties);

  test('read and write throttles of the table and of each GSI: all of them, and each cause apart', () => {
    const throttles = alarms.filter((a) => /ThrottleEvents$/.test(a.MetricName));
    const scopeOf = (a: any) => a.Dimensions.find((d: any) => d.Name === 'GlobalSecondaryIndexName')?.Value ?? 'table';
    const expected = ['table', 'GSI1', 'GSI2', 'GSI3'].flatMap((scope) => ['Read', 'Write'].flatMap((op) =>
      ['', 'KeyRangeThroughput', 'MaxOnDemandThroughput', 'AccountLimit'].map((cause) => `${scope} ${op}${cause}ThrottleEvents`)));
    expect(throttles.map((a) => `${scopeOf(a)} ${a.MetricName}`).sort()).toEqual(expected.sort());
    for (const a of throttles) {
      expect(a).toMatchObject({ ...EVERY_MINUTE, Namespace: 'AWS/DynamoDB', Statistic: 'Sum', Period: 60 });
      expect(a.Dimensions).toContainEqual({ Name: 'TableName', Value: TABLE });
    }
  });

  test('system errors: one alarm on the sum over every operation the handler can send', () => {
    const [errors] = alarms.filter((a) => a.Metrics);
    expect(errors).toMatchObject(EVERY_MINUTE);
    expect(errors.Metrics[0]).toMatchObject({ Expression: 'SUM(FILL(METRICS(), 0))', ReturnData: true });
    const metrics = errors.Metrics.slice(1).map((m: any) => m.MetricStat);
    expect(metrics.map((s: any) => s.Metric.Dimensions)).toEqual(['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']
      .map((Value) => [{ Name: 'Operation', Value }, { Name: 'TableName', Value: TABLE }]));
    for (const s of metrics) expect(s).toMatchObject({ Metric: { MetricName: 'SystemErrors', Namespace: 'AWS/DynamoDB' }, Period: 60, Stat: 'Sum' });
  });

  test('item collections near the 10 GB an LSI allows: the metric the runtime logs, at 8 GB', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ItemCollectionSizeUpperBoundGB',
      Namespace: 'SingleTable',
      Dimensions: [{ Name: 'TableName', Value: TABLE }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 8,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
    });
  });
});

test('the handler: table name, fingerprint and model file from the layer connect gives it', () => {
  const fingerprint = /compiled model ([0-9a-f]{16}) /.exec(resources[idOf('AWS::Lambda::LayerVersion')].Properties.Description)![1];
  template.hasResourceProperties('AWS::Lambda::Function', {
    Runtime: 'nodejs24.x',
    Layers: [{ Ref: idOf('AWS::Lambda::LayerVersion') }],
    Environment: {
      Variables: Match.objectEquals({
        TABLE_NAME: TABLE,
        SINGLE_TABLE_FINGERPRINT: fingerprint,
        SINGLE_TABLE_MODEL: `/opt/cdk-single-table/model-${fingerprint}.json`,
      }),
    },
  });
});

test("the handler's policy: each pattern's Query on its index, limited to its partition key prefixes, the batch get, and PutItem", () => {
  const query = (prefixes: string[], Resource: unknown, Action = 'dynamodb:Query') => ({
    Action,
    Effect: 'Allow',
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes }, 'Null': { 'dynamodb:LeadingKeys': 'false' } },
    Resource,
  });
  template.hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: Match.objectEquals({
      Version: '2012-10-17',
      Statement: [
        query(['CUSTOMER#*'], [TABLE_ARN, indexArn('LSI1'), indexArn('LSI2')]),
        query(['CATEGORY#*', 'EMAIL#*', 'GROUP#*', 'ORDER#*'], indexArn('GSI1')),
        query(['ORDER#*#*'], indexArn('GSI2')),
        query(['RUNNING#*'], indexArn('GSI3')),
        query(['TASK#*'], TABLE_ARN, 'dynamodb:BatchGetItem'),
        { Action: 'dynamodb:PutItem', Effect: 'Allow', Resource: TABLE_ARN },
      ],
    }),
  });
});
