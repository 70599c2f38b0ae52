// The TableV2 settings the manifest does not decide, as the GlobalTable renders them: table class,
// Contributor Insights (table and per GSI), tags, warm throughput, on-demand maxima, resource
// policies, a Kinesis stream and replicas with their own options.
import { Duration } from 'aws-cdk-lib';
import { Billing, Capacity, ContributorInsightsMode, StreamViewType, TableClass, TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Stream } from 'aws-cdk-lib/aws-kinesis';
import { Key } from 'aws-cdk-lib/aws-kms';
import { synth } from './synth';
import { edited } from '../fixtures/valid-manifest';

const REGION = 'eu-west-1';
const readPolicy = () => new PolicyDocument({
  statements: [new PolicyStatement({ actions: ['dynamodb:GetItem'], principals: [new AnyPrincipal()], resources: ['*'], conditions: { StringEquals: { 'aws:PrincipalOrgID': 'o-1' } } })],
});
/** The replica entry of one region. */
const replicaIn = (table: any, region: string) => table.Replicas.find((r: any) => r.Region === region);

describe('without features', () => {
  const { table } = synth({}, undefined, REGION);

  test('nothing beyond the table in its own region', () => {
    expect(table.Replicas).toHaveLength(1);
    const [own] = table.Replicas;
    expect(own.Region).toBe(REGION);
    for (const absent of ['TableClass', 'ContributorInsightsSpecification', 'Tags', 'ReadOnDemandThroughputSettings', 'KinesisStreamSpecification', 'ResourcePolicy']) {
      expect(own[absent]).toBeUndefined();
    }
    expect(own.GlobalSecondaryIndexes).toEqual([{ IndexName: 'GSI1' }, { IndexName: 'GSI2' }]);
    expect(table.WarmThroughput).toBeUndefined();
    expect(table.WriteOnDemandThroughputSettings).toBeUndefined();
    expect(table.StreamSpecification).toBeUndefined();
  });
});

describe('table features', () => {
  const { table, template } = synth((stack) => ({
    tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
    contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS },
    globalSecondaryIndexOptions: {
      GSI1: {
        contributorInsightsSpecification: { enabled: false },
        maxReadRequestUnits: 50,
        maxWriteRequestUnits: 60,
        warmThroughput: { readUnitsPerSecond: 15000 },
      },
      GSI2: { warmThroughput: { writeUnitsPerSecond: 5000 } },
    },
    billing: Billing.onDemand({ maxReadRequestUnits: 100, maxWriteRequestUnits: 200 }),
    warmThroughput: { readUnitsPerSecond: 13000, writeUnitsPerSecond: 4500 },
    tags: [{ key: 'team', value: 'orders' }],
    resourcePolicy: readPolicy(),
    dynamoStream: StreamViewType.NEW_IMAGE,
    streamResourcePolicy: readPolicy(),
    kinesisStream: new Stream(stack, 'Changes', { retentionPeriod: Duration.hours(24) }),
  }), undefined, REGION);
  const own = table.Replicas[0];

  test('table class, Contributor Insights and tags on the table in its region', () => {
    expect(own.TableClass).toBe('STANDARD_INFREQUENT_ACCESS');
    expect(own.ContributorInsightsSpecification).toEqual({ Enabled: true, Mode: 'THROTTLED_KEYS' });
    expect(own.Tags).toEqual([{ Key: 'team', Value: 'orders' }]);
  });

  test("a GSI's own Contributor Insights and read maximum; the others keep the table's", () => {
    expect(own.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', ContributorInsightsSpecification: { Enabled: false }, ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 50 } },
      { IndexName: 'GSI2', ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' } },
    ]);
  });

  test('on-demand maxima and warm throughput of the table and of each GSI', () => {
    expect(own.ReadOnDemandThroughputSettings).toEqual({ MaxReadRequestUnits: 100 });
    expect(table.WriteOnDemandThroughputSettings).toEqual({ MaxWriteRequestUnits: 200 });
    expect(table.WarmThroughput).toEqual({ ReadUnitsPerSecond: 13000, WriteUnitsPerSecond: 4500 });
    const [gsi1, gsi2] = table.GlobalSecondaryIndexes;
    expect(gsi1.WriteOnDemandThroughputSettings).toEqual({ MaxWriteRequestUnits: 60 });
    expect(gsi1.WarmThroughput).toEqual({ ReadUnitsPerSecond: 15000 });
    expect(gsi2.WarmThroughput).toEqual({ WriteUnitsPerSecond: 5000 });
    expect(gsi2.WriteOnDemandThroughputSettings).toBeUndefined();
  });

  test('resource policies on the table and its stream, and the Kinesis stream', () => {
    const statement = { Action: 'dynamodb:GetItem', Effect: 'Allow', Principal: { AWS: '*' }, Resource: '*', Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-1' } } };
    expect(own.ResourcePolicy).toEqual({ PolicyDocument: { Statement: [statement], Version: '2012-10-17' } });
    expect(own.ReplicaStreamSpecification).toEqual({ ResourcePolicy: { PolicyDocument: { Statement: [statement], Version: '2012-10-17' } } });
    const [streamId] = Object.keys(template.findResources('AWS::Kinesis::Stream'));
    expect(own.KinesisStreamSpecification).toEqual({ StreamArn: { 'Fn::GetAtt': [streamId, 'Arn'] } });
  });
});

describe('replicas', () => {
  test('each replica with its own options; every GSI stated in full in each region', () => {
    const { table } = synth((stack) => ({
      contributorInsightsSpecification: { enabled: true },
      globalSecondaryIndexOptions: { GSI1: { maxReadRequestUnits: 40, contributorInsightsSpecification: { enabled: false } } },
      replicas: [
        {
          region: 'us-east-1',
          tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
          deletionProtection: false,
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
          maxReadRequestUnits: 70,
          tags: [{ key: 'copy', value: 'us' }],
          kinesisStream: Stream.fromStreamArn(stack, 'UsStream', 'arn:aws:kinesis:us-east-1:111111111111:stream/changes'),
          globalSecondaryIndexOptions: {
            GSI2: { maxReadRequestUnits: 30, contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS } },
          },
        },
        { region: 'ap-southeast-2', contributorInsightsSpecification: { enabled: false } },
      ],
    }), undefined, REGION);
    expect(table.Replicas.map((r: any) => r.Region)).toEqual(['us-east-1', 'ap-southeast-2', REGION]);
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const us = replicaIn(table, 'us-east-1');
    expect(us).toMatchObject({
      TableClass: 'STANDARD_INFREQUENT_ACCESS',
      DeletionProtectionEnabled: false,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
      ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 70 },
      Tags: [{ Key: 'copy', Value: 'us' }],
      KinesisStreamSpecification: { StreamArn: 'arn:aws:kinesis:us-east-1:111111111111:stream/changes' },
      ContributorInsightsSpecification: { Enabled: true },
    });
    expect(us.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', ContributorInsightsSpecification: { Enabled: false }, ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 40 } },
      { IndexName: 'GSI2', ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' }, ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 30 } },
    ]);
    const ap = replicaIn(table, 'ap-southeast-2');
    expect(ap.ContributorInsightsSpecification).toEqual({ Enabled: false });
    expect(ap.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', ContributorInsightsSpecification: { Enabled: false }, ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 40 } },
      { IndexName: 'GSI2', ContributorInsightsSpecification: { Enabled: false } },
    ]);
    // The stack's own region keeps the safe defaults and the per-GSI setting.
    const own = replicaIn(table, REGION);
    expect(own.DeletionProtectionEnabled).toBe(true);
    expect(own.GlobalSecondaryIndexes[0].ContributorInsightsSpecification).toEqual({ Enabled: false });
    expect(own.GlobalSecondaryIndexes[1].ContributorInsightsSpecification).toEqual({ Enabled: true });
  });

  test("provisioned: a replica's and a replica GSI's reads as given; a GSI keeps its manifest capacity, scaling to the table's ceiling, elsewhere", () => {
    const scaling = (min: number, max: number) => ({
      ReadCapacityAutoScalingSettings: { MinCapacity: min, MaxCapacity: max, TargetTrackingScalingPolicyConfiguration: { TargetValue: 70 } },
    });
    const manifest = edited((m) => { m.globalIndexes!.GSI1.readCapacity = 8; });
    const { table } = synth({
      billing: Billing.provisioned({
        readCapacity: Capacity.autoscaled({ minCapacity: 5, maxCapacity: 50 }),
        writeCapacity: Capacity.autoscaled({ maxCapacity: 5 }),
      }),
      replicas: [{
        region: 'us-east-1',
        readCapacity: Capacity.autoscaled({ minCapacity: 10, maxCapacity: 50 }),
        globalSecondaryIndexOptions: { GSI2: { readCapacity: Capacity.fixed(3) } },
      }],
    }, manifest, REGION);
    const us = replicaIn(table, 'us-east-1');
    expect(us.ReadProvisionedThroughputSettings).toEqual(scaling(10, 50));
    expect(us.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', ReadProvisionedThroughputSettings: scaling(8, 50) },
      { IndexName: 'GSI2', ReadProvisionedThroughputSettings: { ReadCapacityUnits: 3 } },
    ]);
    expect(replicaIn(table, REGION).ReadProvisionedThroughputSettings).toEqual(scaling(5, 50));
  });

  test('a customer-managed key with its counterpart in each replica region', () => {
    const usKey = 'arn:aws:kms:us-east-1:111111111111:key/abc';
    const { table, template } = synth((stack) => ({ encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key'), { 'us-east-1': usKey }), replicas: [{ region: 'us-east-1' }] }), undefined, REGION);
    const [keyId] = Object.keys(template.findResources('AWS::KMS::Key'));
    expect(replicaIn(table, 'us-east-1').SSESpecification).toEqual({ KMSMasterKeyId: usKey });
    expect(replicaIn(table, REGION).SSESpecification).toEqual({ KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
  });
});
