// Grants by access pattern: only the actions a pattern needs, only on the ARN of the index it
// reads and the partitions its key template composes; BatchGetItem on the table only for patterns
// whose index lacks attributes; item reads and writes only when named; customer-managed keys only
// through DynamoDB. What the conditions allow and deny is evaluated in grants-iam.test.ts.
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { actionsAndResources, newFunction, statementsOf, tableStack } from './policy';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { compileManifest } from '../../lib/manifest/compile';
import { validManifest } from '../fixtures/valid-manifest';

const allow = (Action: string | string[], Resource: string | string[]) => ({ Action, Resource, Effect: 'Allow' });
/** An allow on the partitions whose keys match the patterns only. */
const allowOn = (keys: string[], Action: string | string[], Resource: string | string[]) => ({
  ...allow(Action, Resource),
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys }, 'Null': { 'dynamodb:LeadingKeys': 'false' } },
});

test('a pattern on a GSI: Query on that index only', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'orderById');
  expect(statementsOf(stack, fn)).toEqual([allowOn(['ORDER#*'], 'dynamodb:Query', 'TABLE/index/GSI1')]);
});

test('a pattern on the table: Query on the table ARN only', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'ordersForCustomer');
  expect(statementsOf(stack, fn)).toEqual([allowOn(['CUSTOMER#*'], 'dynamodb:Query', 'TABLE')]);
});

test('a pattern on an LSI: Query on the LSI ARN; DynamoDB fetches within the query', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'ordersByDate');
  expect(statementsOf(stack, fn)).toEqual([allowOn(['CUSTOMER#*'], 'dynamodb:Query', 'TABLE/index/LSI1')]);
});

test('a pattern its INCLUDE index cannot serve alone: Query on the index and BatchGetItem on the table', () => {
  const { stack, table } = tableStack();
  expect(table.model.patterns.ordersByStatus.fetch).toBe('BATCH_GET');
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'ordersByStatus');
  expect(statementsOf(stack, fn)).toEqual([allowOn(['ORDER#*'], 'dynamodb:Query', 'TABLE/index/GSI2'), allowOn(['CUSTOMER#*'], 'dynamodb:BatchGetItem', 'TABLE')]);
});

test('patterns needing the same actions on the same partitions share one statement listing each index', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'ordersForCustomer', 'orderById', 'ordersByDate');
  expect(statementsOf(stack, fn)).toEqual([
    allowOn(['CUSTOMER#*'], 'dynamodb:Query', ['TABLE', 'TABLE/index/LSI1']),
    allowOn(['ORDER#*'], 'dynamodb:Query', 'TABLE/index/GSI1'),
  ]);
});

test('a function granted one pattern gets none of the actions or resources of another', () => {
  const { stack, table } = tableStack();
  const byId = newFunction(stack, 'ById');
  const byStatus = newFunction(stack, 'ByStatus');
  table.grantPatterns(byId, 'orderById');
  table.grantPatterns(byStatus, 'ordersByStatus');
  const one = actionsAndResources(statementsOf(stack, byId));
  const other = actionsAndResources(statementsOf(stack, byStatus));
  expect(one).toEqual({ actions: ['dynamodb:Query'], resources: ['TABLE/index/GSI1'] });
  expect(other).toEqual({ actions: ['dynamodb:BatchGetItem', 'dynamodb:Query'], resources: ['TABLE', 'TABLE/index/GSI2'] });
  expect(one.resources.filter((r) => other.resources.includes(r))).toEqual([]);
  expect(one.actions).not.toContain('dynamodb:BatchGetItem');
  const everything = JSON.stringify(Template.fromStack(stack).findResources('AWS::IAM::Policy'));
  expect(everything).not.toMatch(/index\/\*|"\*"|dynamodb:\*|Scan|PutItem|"dynamodb:GetItem"/);
});

test('item reads and each write are granted only when named, on the table', () => {
  const { stack, table } = tableStack();
  const reader = newFunction(stack, 'Reader');
  const writer = newFunction(stack, 'Writer');
  table.grantAccess(reader, { readItems: true });
  const all = newFunction(stack, 'All');
  table.grantAccess(writer, { writes: [WriteOperation.PUT, WriteOperation.DELETE] });
  table.grantAccess(all, { writes: [WriteOperation.PUT, WriteOperation.UPDATE, WriteOperation.DELETE, WriteOperation.BATCH_WRITE] });
  expect(statementsOf(stack, reader)).toEqual([allow(['dynamodb:BatchGetItem', 'dynamodb:GetItem'], 'TABLE')]);
  expect(statementsOf(stack, writer)).toEqual([allow(['dynamodb:DeleteItem', 'dynamodb:PutItem'], 'TABLE')]);
  expect(actionsAndResources(statementsOf(stack, all)).actions).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
});

test('a grant that allows nothing, an unknown pattern or write operation fails with what exists', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  expect(() => table.grantAccess(fn, {})).toThrow('Test/Table: 1 error to fix:\n  - [GRANT_EMPTY] grant options: the grant allows nothing. Fix: name access patterns, set readItems or scan, or list writes');
  expect(() => table.grantPatterns(fn, 'orderByID')).toThrow("[GRANT_PATTERN_UNKNOWN] grant options: patterns names 'orderByID', which the manifest does not declare. "
    + "Fix: did you mean 'orderById'? use one of ordersForCustomer, orderById, ordersByStatus, ordersByDate");
  expect(() => table.grantAccess(fn, { writes: ['UPSERT' as WriteOperation] })).toThrow(
    '[GRANT_WRITE_UNKNOWN] grant options: `writes[0]` is the string "UPSERT", not a WriteOperation. Fix: use one of PUT, UPDATE, DELETE, BATCH_WRITE, CONDITION_CHECK');
  // Every finding at once: an unknown option, with the name it meant, beside an unknown pattern.
  expect(() => table.connect(newFunction(stack, 'Other'), { pattern: ['orderById'], patterns: ['ordersByStatsu'] } as never)).toThrow(
    "Test/Table: 2 errors to fix:\n  - [PROPERTY_UNKNOWN] grant options: `pattern` is not a property here. Fix: did you mean 'patterns'? remove it, or use one of patterns, readItems, scan, writes, tenant\n"
    + "  - [GRANT_PATTERN_UNKNOWN] grant options: patterns names 'ordersByStatsu', which the manifest does not declare. Fix: did you mean 'ordersByStatus'?");
});

test('any grantable, not only functions', () => {
  const { stack, table } = tableStack();
  const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('ecs-tasks.amazonaws.com') });
  table.grantPatterns(role, 'orderById');
  Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
    Roles: [{ Ref: stack.getLogicalId(role.node.defaultChild as never) }],
    PolicyDocument: { Statement: [Match.objectLike({ Action: 'dynamodb:Query' })] },
  });
});

describe('customer-managed key', () => {
  const keyed = () => {
    const stack = new Stack(new App(), 'Test', { env: { region: 'eu-west-1' } });
    const key = new Key(stack, 'Key');
    const table = new SingleTable(stack, 'Table', { manifest: validManifest(), encryption: TableEncryptionV2.customerManagedKey(key) });
    return { stack, table };
  };
  const via = { StringEquals: { 'kms:ViaService': 'dynamodb.eu-west-1.amazonaws.com' } };

  test('queries may decrypt, through DynamoDB in the region only', () => {
    const { stack, table } = keyed();
    const fn = newFunction(stack, 'Fn');
    table.grantPatterns(fn, 'orderById');
    expect(statementsOf(stack, fn)).toEqual([
      allowOn(['ORDER#*'], 'dynamodb:Query', 'TABLE/index/GSI1'),
      { ...allow(['kms:Decrypt', 'kms:DescribeKey'], 'KEY'), Condition: via },
    ]);
  });

  test('writes may also encrypt, with named actions and no wildcard', () => {
    const { stack, table } = keyed();
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { writes: [WriteOperation.PUT] });
    expect(statementsOf(stack, fn)[1]).toEqual({
      ...allow(['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlaintext', 'kms:ReEncryptFrom', 'kms:ReEncryptTo'], 'KEY'),
      Condition: via,
    });
  });

  test('an AWS-managed key needs no key statement', () => {
    const { stack, table } = tableStack(validManifest(), {}, { env: { region: 'eu-west-1' } });
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { patterns: ['orderById'], writes: [WriteOperation.PUT] });
    expect(JSON.stringify(statementsOf(stack, fn))).not.toContain('kms:');
  });
});

test('connect sets the table name and the manifest fingerprint, and grants', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.connect(fn, { patterns: ['orderById'] });
  const fingerprint = compileManifest(validManifest()).model.fingerprint;
  expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
  Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', {
    Environment: { Variables: { TABLE_NAME: { Ref: stack.getLogicalId(table.node.findChild('Resource').node.defaultChild as never) }, SINGLE_TABLE_FINGERPRINT: fingerprint } },
  });
  expect(SingleTable.TABLE_NAME_ENV).toBe('TABLE_NAME');
  expect(SingleTable.FINGERPRINT_ENV).toBe('SINGLE_TABLE_FINGERPRINT');
  expect(statementsOf(stack, fn)).toEqual([allowOn(['ORDER#*'], 'dynamodb:Query', 'TABLE/index/GSI1')]);
});

test('a different manifest deploys a different fingerprint', () => {
  const a = tableStack().table.functionEnvironment();
  const changed = validManifest();
  changed.accessPatterns!.orderById.description = 'now described';
  const b = tableStack(changed).table.functionEnvironment();
  expect(a.SINGLE_TABLE_FINGERPRINT).not.toBe(b.SINGLE_TABLE_FINGERPRINT);
});
