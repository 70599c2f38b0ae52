// Turns an access plan into IAM statements on the grantee: one statement per set of actions (and
// tenant keys), listing exactly the table and index ARNs that need them, never `index/*`. With a
// customer-managed key, the key actions DynamoDB needs on the caller's behalf, only through
// DynamoDB in the table's region.
import { Stack } from 'aws-cdk-lib';
import { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IConstruct } from 'constructs';
import { AccessNeed } from './plan';
import { TABLE_INDEX } from '../../manifest/model';

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
  for (const [[resource, statement], actions] of actionsByResource(needs)) {
    const keys = leadingKeysOf(needs.filter((n) => n.resource === resource && (n.statement ?? '') === statement));
    const id = JSON.stringify([actions, keys]);
    const group = groups.get(id) ?? { actions, keys, resources: [] };
    group.resources.push(resourceArn(target.tableArn, resource));
    groups.set(id, group);
  }
  const grants = [...groups.values()].map((g) => Grant.addToPrincipal({
    grantee,
    actions: g.actions,
    resourceArns: g.resources,
    conditions: g.keys && { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': g.keys } },
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

/** Sorted actions per resource and statement (guard item writes and unique reads apart), in first-use order. */
function actionsByResource(needs: AccessNeed[]): [[string, string], string[]][] {
  const out = new Map<string, [[string, string], string[]]>();
  for (const n of needs) {
    const statement = n.statement ?? '';
    const id = JSON.stringify([n.resource, statement]);
    const [, actions] = out.get(id) ?? [[n.resource, statement], []];
    out.set(id, [[n.resource, statement], [...actions, n.action].sort()]);
  }
  return [...out.values()];
}

/** The union of a resource's tenant keys; undefined without tenant isolation. */
function leadingKeysOf(needs: AccessNeed[]): string[] | undefined {
  if (needs.every((n) => n.leadingKeys === undefined)) return undefined;
  return [...new Set(needs.flatMap((n) => n.leadingKeys ?? []))].sort();
}
