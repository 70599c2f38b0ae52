// Turns an access plan into IAM statements on the grantee: one statement per set of actions and
// partition key patterns, listing exactly the table and index ARNs that need them, never `index/*`.
// With a customer-managed key, the key actions DynamoDB needs on the caller's behalf, only through
// DynamoDB in the table's region.
import { Stack } from 'aws-cdk-lib';
import { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IConstruct } from 'constructs';
import { AccessNeed } from './plan';
import { TABLE_INDEX } from '../../model/model';

/** Reads decrypt; writes also encrypt. Named actions rather than `kms:ReEncrypt*`-style wildcards. */
const KEY_READ = ['kms:Decrypt', 'kms:DescribeKey'];
const KEY_WRITE = ['kms:Encrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlaintext', 'kms:ReEncryptFrom', 'kms:ReEncryptTo'];
const READ_ACTIONS = new Set(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem']);

/** What a grant is made on. */
export interface GrantTarget {
  readonly scope: IConstruct;
  readonly tableArn: string;
  readonly encryptionKey?: IKey;
}

/** The ARN of the table or of one of its indexes. */
export function resourceArn(tableArn: string, resource: string): string {
  return resource === TABLE_INDEX ? tableArn : `${tableArn}/index/${resource}`;
}

/** Adds the statements of the plan to the grantee's policy. */
export function grantNeeds(target: GrantTarget, grantee: IGrantable, needs: AccessNeed[]): Grant {
  const groups = new Map<string, { actions: string[]; keys?: string[]; resources: string[] }>();
  for (const { resource, keys, actions } of actionsByResourceAndKeys(needs)) {
    const id = JSON.stringify([actions, keys]);
    const group = groups.get(id) ?? { actions, keys, resources: [] };
    group.resources.push(resourceArn(target.tableArn, resource));
    groups.set(id, group);
  }
  const grants = [...groups.values()].map((g) => Grant.addToPrincipal({
    grantee,
    actions: g.actions,
    resourceArns: g.resources,
    conditions: g.keys && leadingKeysCondition(g.keys),
  }));
  const key = target.encryptionKey;
  if (key) {
    const writes = needs.some((n) => !READ_ACTIONS.has(n.action));
    const stack = Stack.of(target.scope);
    grants.push(Grant.addToPrincipal({
      grantee,
      actions: writes ? [...KEY_READ, ...KEY_WRITE] : KEY_READ,
      resourceArns: [key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` } },
    }));
  }
  return grants.reduce((all, g) => all.combine(g));
}

/**
 * Every partition key value of the request must match one of the patterns. `ForAllValues` also
 * holds for a request that carries no `dynamodb:LeadingKeys` at all, which the `Null` test refuses.
 */
function leadingKeysCondition(keys: string[]): Record<string, Record<string, unknown>> {
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys }, 'Null': { 'dynamodb:LeadingKeys': 'false' } };
}

/** Sorted actions per resource and partition key patterns, in first-use order. */
function actionsByResourceAndKeys(needs: AccessNeed[]): { resource: string; keys?: string[]; actions: string[] }[] {
  const out = new Map<string, { resource: string; keys?: string[]; actions: string[] }>();
  for (const n of needs) {
    const id = JSON.stringify([n.resource, n.leadingKeys]);
    const entry = out.get(id) ?? { resource: n.resource, keys: n.leadingKeys, actions: [] };
    entry.actions = [...entry.actions, n.action].sort();
    out.set(id, entry);
  }
  return [...out.values()];
}
