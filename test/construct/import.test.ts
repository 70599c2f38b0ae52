// A SingleTable imported into another stack by name or ARN: functions there connect to it with the
// same environment and the same least-privilege grants as in the stack that owns the table.
import { App, Errors, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { WriteOperation } from '../../lib/construct/grants/options';
import { ISingleTable } from '../../lib/construct/i-single-table';
import { SingleTable } from '../../lib/construct/single-table';
import { edited, validManifest } from '../fixtures/valid-manifest';

const env = { account: '111111111111', region: 'eu-west-1' };
const options = { patterns: ['ordersByStatus', 'ordersByDate'], writes: [WriteOperation.PUT] };

function fn(stack: Stack): LambdaFunction {
  return new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('exports.handler = 1') });
}

/** The connected function's policy statements and environment. */
function connected(stack: Stack, table: ISingleTable) {
  table.connect(fn(stack), options);
  const template = Template.fromStack(stack);
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy'));
  const [lambda] = Object.values(template.findResources('AWS::Lambda::Function'));
  return { statements: policy.Properties.PolicyDocument.Statement, variables: lambda.Properties.Environment.Variables, stack };
}

const tableArn = 'arn:aws:dynamodb:eu-west-1:111111111111:table/orders';
/** An ARN formed in the stack's partition, as `fromTableName` forms it. */
const inPartition = (rest: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, rest]] });
const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

describe('imported by name', () => {
  const ownerStack = new Stack(new App(), 'Owner', { env });
  const owner = new SingleTable(ownerStack, 'Table', { manifest: validManifest(), tableName: 'orders' });
  const inOwner = connected(ownerStack, owner);
  const stack = new Stack(new App(), 'Consumer', { env });
  const imported = SingleTable.fromTableName(stack, 'Orders', 'orders', validManifest());
  const { statements, variables } = connected(stack, imported);

  test('the function gets the table name, and the fingerprint and model file of the owning construct', () => {
    expect(variables).toEqual({ TABLE_NAME: 'orders', SINGLE_TABLE_FINGERPRINT: owner.model.fingerprint, SINGLE_TABLE_MODEL: owner.functionEnvironment().SINGLE_TABLE_MODEL });
  });

  test('exactly the grants the patterns and writes need, on the table and index ARNs of this account and region', () => {
    // The table's ARN is in a statement per set of partitions (the fetch's, the writes').
    const texts = statements.flatMap((s: any) => [s.Resource].flat()).map((r: unknown) => JSON.stringify(r));
    const resources = [...new Set<string>(texts)].map((r) => JSON.parse(r));
    const table = ':dynamodb:eu-west-1:111111111111:table/orders';
    expect(resources.sort(byText)).toEqual([table, `${table}/index/GSI2`, `${table}/index/LSI1`].map(inPartition).sort(byText));
    const actions = (all: any[]) => all.map((s) => [s.Action].flat().join(' '));
    expect(actions(statements)).toEqual(actions(inOwner.statements));
    expect([...new Set(actions(statements).join(' ').split(' '))].sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:Query']);
  });

  test('the imported table exposes the physical names of the owner', () => {
    expect(imported.globalIndexNames).toEqual(owner.globalIndexNames);
    expect(imported.localIndexNames).toEqual(owner.localIndexNames);
    expect(imported.indexKeys('GSI2')).toEqual(owner.indexKeys('GSI2'));
    expect([imported.partitionKeyName, imported.sortKeyName, imported.typeAttributeName]).toEqual(['PK', 'SK', 'Type']);
    expect(() => imported.grantPatterns(fn(new Stack(new App(), 'Other', { env })), 'nope')).toThrow(/^Consumer\/Orders: 1 error to fix:\n {2}- \[GRANT_PATTERN_UNKNOWN\] .*'nope'/);
  });

  test('the import creates no resources', () => {
    const template = Template.fromStack(new Stack(new App(), 'Empty'));
    expect(template.toJSON().Resources).toBeUndefined();
    const onlyImport = new Stack(new App(), 'OnlyImport', { env });
    SingleTable.fromTableName(onlyImport, 'Orders', 'orders', validManifest());
    expect(Template.fromStack(onlyImport).toJSON().Resources).toBeUndefined();
  });
});

test('imported by ARN: the same grants and environment; the name comes from the ARN', () => {
  const stack = new Stack(new App(), 'Consumer', { env });
  const { statements, variables } = connected(stack, SingleTable.fromTableArn(stack, 'Orders', tableArn, validManifest()));
  expect(stack.resolve(variables.TABLE_NAME)).toBe('orders');
  expect(statements.flatMap((s: any) => [s.Resource].flat()).map((r: any) => stack.resolve(r))).toContain(`${tableArn}/index/GSI2`);
});

test('imported with its customer-managed key: the grant includes the key actions, through DynamoDB only', () => {
  const stack = new Stack(new App(), 'Consumer', { env });
  const key = Key.fromKeyArn(stack, 'Key', 'arn:aws:kms:eu-west-1:111111111111:key/abc');
  const { statements } = connected(stack, SingleTable.fromTableAttributes(stack, 'Orders', { tableName: 'orders', manifest: validManifest(), encryptionKey: key }));
  const keyStatement = statements.find((s: any) => s.Resource === 'arn:aws:kms:eu-west-1:111111111111:key/abc');
  expect(keyStatement.Action).toContain('kms:Decrypt');
  expect(keyStatement.Condition).toEqual({ StringEquals: { 'kms:ViaService': { 'Fn::Join': ['', ['dynamodb.eu-west-1.', { Ref: 'AWS::URLSuffix' }]] } } });
});

describe('bad references fail with the value and the fix', () => {
  const manifest = validManifest();
  test.each([
    ['neither name nor ARN', { manifest }, 'names neither tableName nor tableArn. Fix: give exactly one of tableName and tableArn'],
    ['both', { manifest, tableName: 'orders', tableArn }, 'names both tableName and tableArn'],
    ['a name DynamoDB rejects', { manifest, tableName: 'my orders' }, 'tableName "my orders" is not 3-255 characters'],
    ['an ARN of another service', { manifest, tableArn: 'arn:aws:s3:::bucket' }, 'tableArn "arn:aws:s3:::bucket" is not a DynamoDB table ARN'],
  ])('%s', (_name, attrs, text) => {
    const stack = new Stack(new App(), 'Consumer', { env });
    expect(() => SingleTable.fromTableAttributes(stack, 'Orders', attrs)).toThrow(`[IMPORT_REFERENCE_INVALID] SingleTable import: ${text}`);
    try {
      SingleTable.fromTableAttributes(stack, 'Again', attrs);
    } catch (e) {
      expect(Errors.isValidationError(e) && e.constructPath).toBe('Consumer/Again');
    }
    expect.assertions(2);
  });

  test('an unknown attribute is refused with the one meant', () => {
    const stack = new Stack(new App(), 'Consumer', { env });
    expect(() => SingleTable.fromTableAttributes(stack, 'Orders', { manifest, tableNmae: 'orders' } as never))
      .toThrow("[PROPERTY_UNKNOWN] SingleTable import: `tableNmae` is not a property here. Fix: did you mean 'tableName'?");
  });

  test('an invalid manifest fails the import as it fails the table', () => {
    const stack = new Stack(new App(), 'Consumer', { env });
    const broken = edited((m) => { m.accessPatterns!.orderById.index = 'GSI7'; });
    expect(() => SingleTable.fromTableName(stack, 'Orders', 'orders', broken)).toThrow(/\[PATTERN_INDEX_UNKNOWN\] pattern orderById/);
  });
});
