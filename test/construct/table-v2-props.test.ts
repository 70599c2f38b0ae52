// Props move between TableV2 and SingleTable unchanged: the same props object given to both renders
// the same GlobalTable, apart from what the manifest decides (keys, indexes). Props errors are
// raised the way aws-cdk-lib raises its own: a ValidationError on the construct's path.
import { App, Duration, Errors, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import {
  AttributeType, Billing, Capacity, ContributorInsightsMode, StreamViewType, TableClass, TableEncryptionV2, TablePropsV2, TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Stream } from 'aws-cdk-lib/aws-kinesis';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { synthError } from './synth';
import { SingleTableProps } from '../../lib/construct/props';
import { SingleTable } from '../../lib/construct/single-table';
import { AttributeKind } from '../../lib/model/manifest';
import { IndexType } from '../../lib/model/model';
import { edited } from '../fixtures/valid-manifest';

// Every SingleTable prop but the manifest's own has TableV2's name and type, so the compiler
// rejects a prop that drifts from TableV2's (tsc over the tests).
type OwnProps = 'manifest' | 'shardLock' | 'shardLockName' | 'globalSecondaryIndexOptions';
type Shared = Exclude<keyof SingleTableProps, OwnProps>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Drifted = { [K in Shared]: K extends keyof TablePropsV2 ? (Same<SingleTableProps[K], TablePropsV2[K]> extends true ? never : K) : K }[Shared];
const noDrift: [Drifted] extends [never] ? true : false = true;

const REGION = 'eu-west-1';
// The manifest declares expiresAt as a NUMBER so the TTL attribute is one SingleTable accepts.
const manifest = edited((m) => { m.entities.Order.attributes.expiresAt = { type: AttributeKind.NUMBER }; });
type SharedProps = Pick<TablePropsV2, Shared>;

/**
 * Where SingleTable's defaults differ from TableV2's (SingleTable keeps point-in-time recovery,
 * deletion protection and the AWS-managed key on), a case states the setting.
 */
const SAFE: SharedProps = {
  encryption: TableEncryptionV2.awsManagedKey(),
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  deletionProtection: true,
};

/** The GlobalTable properties of a TableV2 and of a SingleTable built from the same props. */
function both(props: (stack: Stack) => SharedProps): { tableV2: any; singleTable: any } {
  const render = (build: (stack: Stack) => void) => {
    const stack = new Stack(new App(), 'Test', { env: { region: REGION } });
    build(stack);
    return Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::GlobalTable'))[0];
  };
  const tableV2 = render((stack) => new TableV2(stack, 'Table', {
    partitionKey: { name: 'PK', type: AttributeType.STRING },
    sortKey: { name: 'SK', type: AttributeType.STRING },
    ...props(stack),
  }));
  const singleTable = render((stack) => new SingleTable(stack, 'Table', { manifest, ...props(stack) }));
  return { tableV2, singleTable };
}

/** A GlobalTable without what the manifest decides: key schema, attribute definitions, indexes. */
function withoutManifestParts(resource: any): any {
  const { KeySchema, AttributeDefinitions, GlobalSecondaryIndexes, LocalSecondaryIndexes, Replicas, ...rest } = resource.Properties;
  return {
    ...resource,
    Properties: { ...rest, Replicas: Replicas.map(({ GlobalSecondaryIndexes: _, ...replica }: any) => replica) },
  };
}

const policy = () => new PolicyDocument({
  statements: [new PolicyStatement({ actions: ['dynamodb:GetItem'], principals: [new AnyPrincipal()], resources: ['*'], conditions: { StringEquals: { 'aws:PrincipalOrgID': 'o-1' } } })],
});

test('the props are TableV2\'s, name for name and type for type', () => {
  expect(noDrift).toBe(true);
});

test.each<[string, (stack: Stack) => SharedProps]>([
  ['provisioned billing with autoscaled capacity, a customer-managed key, a recovery period and the rest', (stack) => ({
    tableName: 'orders',
    billing: Billing.provisioned({
      readCapacity: Capacity.autoscaled({ minCapacity: 4, maxCapacity: 40, targetUtilizationPercent: 50 }),
      writeCapacity: Capacity.autoscaled({ minCapacity: 10, maxCapacity: 100, seedCapacity: 20 }),
    }),
    encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key')),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },
    deletionProtection: false,
    removalPolicy: RemovalPolicy.DESTROY,
    timeToLiveAttribute: 'expiresAt',
    dynamoStream: StreamViewType.NEW_IMAGE,
    streamResourcePolicy: policy(),
    resourcePolicy: policy(),
    tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
    contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS },
    warmThroughput: { readUnitsPerSecond: 13000, writeUnitsPerSecond: 4500 },
    tags: [{ key: 'team', value: 'orders' }],
    kinesisStream: new Stream(stack, 'Changes', { retentionPeriod: Duration.hours(24) }),
  })],
  ['on-demand billing with maxima, fixed reads elsewhere, the DynamoDB-owned key, recovery off', () => ({
    billing: Billing.onDemand({ maxReadRequestUnits: 100, maxWriteRequestUnits: 200 }),
    encryption: TableEncryptionV2.dynamoOwnedKey(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  })],
  ['provisioned billing with fixed reads', () => ({
    billing: Billing.provisioned({ readCapacity: Capacity.fixed(7), writeCapacity: Capacity.autoscaled({ maxCapacity: 9 }) }),
    ...SAFE,
  })],
  ['replicas with their own settings and a key in each region', (stack) => ({
    billing: Billing.onDemand({ maxReadRequestUnits: 500 }),
    encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key'), { 'us-east-1': 'arn:aws:kms:us-east-1:111111111111:key/abc' }),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    contributorInsightsSpecification: { enabled: true },
    deletionProtection: true,
    replicas: [{
      region: 'us-east-1',
      maxReadRequestUnits: 70,
      tableClass: TableClass.STANDARD_INFREQUENT_ACCESS,
      deletionProtection: false,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      contributorInsightsSpecification: { enabled: false },
      tags: [{ key: 'copy', value: 'us' }],
    }],
  })],
])('%s: the same GlobalTable as TableV2 renders', (_what, props) => {
  const { tableV2, singleTable } = both(props);
  expect(withoutManifestParts(singleTable)).toEqual(withoutManifestParts(tableV2));
});

test("a GSI's settings in globalSecondaryIndexOptions render as on a TableV2 GSI", () => {
  const options = { maxReadRequestUnits: 40, maxWriteRequestUnits: 60, warmThroughput: { readUnitsPerSecond: 15000 } };
  const stack = new Stack(new App(), 'Test', { env: { region: REGION } });
  const single = new SingleTable(stack, 'Single', { manifest, globalSecondaryIndexOptions: { GSI1: options } });
  const gsi = single.model.indexes.GSI1;
  expect(gsi.type).toBe(IndexType.GSI);
  new TableV2(stack, 'V2', {
    partitionKey: { name: 'PK', type: AttributeType.STRING },
    globalSecondaryIndexes: [{ indexName: 'GSI1', partitionKey: { name: gsi.partitionKey, type: AttributeType.STRING }, sortKey: { name: gsi.sortKey!, type: AttributeType.STRING }, ...options }],
  });
  const tables = Template.fromStack(stack).findResources('AWS::DynamoDB::GlobalTable');
  const gsiOf = (id: string) => {
    const [props] = Object.entries(tables).filter(([logicalId]) => logicalId.startsWith(id)).map(([, r]: [string, any]) => r.Properties);
    const own = props.Replicas[props.Replicas.length - 1];
    return {
      table: props.GlobalSecondaryIndexes.find((i: any) => i.IndexName === 'GSI1'),
      replica: own.GlobalSecondaryIndexes.find((i: any) => i.IndexName === 'GSI1'),
    };
  };
  const fromSingle = gsiOf('Single');
  const fromV2 = gsiOf('V2');
  expect(fromSingle.table.WarmThroughput).toEqual({ ReadUnitsPerSecond: 15000 });
  for (const key of ['WarmThroughput', 'WriteOnDemandThroughputSettings', 'KeySchema']) expect(fromSingle.table[key]).toEqual(fromV2.table[key]);
  expect(fromSingle.replica).toEqual(fromV2.replica);
});

describe('props errors', () => {
  const build = (props: Partial<SingleTableProps>, m = manifest) => {
    const stack = new Stack(new App(), 'Shop', { env: { region: REGION } });
    return () => new SingleTable(new Construct(stack, 'Nested'), 'Orders', { manifest: m, ...props });
  };
  const thrown = (f: () => unknown): any => {
    try {
      f();
    } catch (e) {
      return e;
    }
    throw new Error('expected the construct to throw');
  };

  test("are a ValidationError on the construct's path, listing every error with its fix", () => {
    const error = thrown(build({ tableName: 'a b', billing: 'PROVISIONED' as never }));
    expect(Errors.isValidationError(error)).toBe(true);
    expect(error.constructPath).toBe('Shop/Nested/Orders');
    expect(error.message).toMatch(/^Shop\/Nested\/Orders: 2 errors to fix:\n {2}- \[BILLING_INVALID\] /);
    expect(error.message).toContain('[BILLING_INVALID] SingleTable props: billing is the string "PROVISIONED", not a Billing. Fix: use Billing.onDemand()');
    expect(error.message).toContain('[TABLE_NAME_INVALID] SingleTable props: tableName "a b" is not 3-255 characters');
    expect(error.stack).toContain('Relates to construct');
  });

  test('manifest errors are reported the same way, before props are checked', () => {
    const broken = edited((m) => { m.accessPatterns!.orderById.index = 'GSI7'; });
    const error = thrown(build({ billing: 'PROVISIONED' as never }, broken));
    expect(Errors.isValidationError(error)).toBe(true);
    expect(error.message).toContain('[PATTERN_INDEX_UNKNOWN]');
    expect(error.message).not.toContain('BILLING_INVALID');
  });

  test('a props error does not hide behind a valid manifest: synthError sees the props message', () => {
    expect(synthError({ tableName: 'ab' })).toMatch(/^Test\/Table: 1 error to fix:\n {2}- \[TABLE_NAME_INVALID\]/);
  });
});
