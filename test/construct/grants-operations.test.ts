// Grants of the operations beyond single items and queries: transactions need the action of each
// write they hold plus ConditionCheckItem for their checks; Scan only when the grant asks for it,
// never with tenant isolation; with a customer-managed key, neither needs encryption.
import { App, Stack } from 'aws-cdk-lib';
import { TableEncryptionV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { actionsAndResources, newFunction, statementsOf, tableStack } from './policy';
import { WriteOperation } from '../../lib/construct/grants/options';
import { SingleTable } from '../../lib/construct/single-table';
import { validManifest } from '../fixtures/valid-manifest';

const allow = (Action: string | string[], Resource: string | string[]) => ({ Action, Resource, Effect: 'Allow' });

test('a transaction\'s grant: its writes and ConditionCheckItem on the table', () => {
  const { stack, table } = tableStack();
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.PUT, WriteOperation.UPDATE, WriteOperation.CONDITION_CHECK] });
  expect(statementsOf(stack, fn)).toEqual([allow(['dynamodb:ConditionCheckItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'TABLE')]);
});

test('Scan on the table only when asked; a function without it gets no Scan', () => {
  const { stack, table } = tableStack();
  const scanner = newFunction(stack, 'Scanner');
  const other = newFunction(stack, 'Other');
  table.grantAccess(scanner, { scan: true });
  table.grantAccess(other, { patterns: ['orderById'], readItems: true, scan: false, writes: Object.values(WriteOperation) });
  expect(statementsOf(stack, scanner)).toEqual([allow('dynamodb:Scan', 'TABLE')]);
  expect(actionsAndResources(statementsOf(stack, other)).actions).not.toContain('dynamodb:Scan');
  expect(actionsAndResources(statementsOf(stack, other)).actions).toContain('dynamodb:ConditionCheckItem');
});

test('scan with tenant isolation is refused: no key condition restricts a Scan', () => {
  const { stack, table } = tableStack();
  expect(() => table.grantAccess(newFunction(stack, 'Fn'), { scan: true, tenant: { attribute: 'username', value: 'ana' } })).toThrow(
    "Test/Table: 1 error to fix:\n  - [GRANT_SCAN_TENANT] grant options: scan reads every partition, so tenant isolation on 'username' cannot restrict it. "
    + "Fix: grant scan without tenant, or query the tenant's patterns instead",
  );
});

test('with a customer-managed key, Scan and condition checks may decrypt and nothing more', () => {
  const stack = new Stack(new App(), 'Test', { env: { region: 'eu-west-1' } });
  const table = new SingleTable(stack, 'Table', { manifest: validManifest(), encryption: TableEncryptionV2.customerManagedKey(new Key(stack, 'Key')) });
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { scan: true, writes: [WriteOperation.CONDITION_CHECK] });
  expect(statementsOf(stack, fn)).toEqual([
    allow(['dynamodb:ConditionCheckItem', 'dynamodb:Scan'], 'TABLE'),
    { ...allow(['kms:Decrypt', 'kms:DescribeKey'], 'KEY'), Condition: { StringEquals: { 'kms:ViaService': 'dynamodb.eu-west-1.amazonaws.com' } } },
  ]);
});
