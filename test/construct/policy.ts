// Reads back the IAM statements a grant put on a function's role, with the table's ARN written as
// `TABLE` and a key's as `KEY`, so tests compare policies as a reader would; or, for a policy
// evaluator, with the concrete ARNs of a deployment.
import { App, Stack, StackProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, IFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { SingleTableProps } from '../../lib/construct/props';
import { SingleTable } from '../../lib/construct/single-table';
import { SingleTableManifest } from '../../lib/model/manifest';
import { validManifest } from '../fixtures/valid-manifest';

export interface Statement {
  readonly Action: string | string[];
  readonly Resource: string | string[];
  readonly Effect: string;
  readonly Condition?: Record<string, Record<string, unknown>>;
}

export function newFunction(stack: Stack, id: string): LambdaFunction {
  return new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => 1') });
}

/** A stack with a SingleTable and nothing else. */
export function tableStack(manifest: SingleTableManifest = validManifest(), props: Partial<SingleTableProps> = {}, stackProps?: StackProps) {
  const stack = new Stack(new App(), 'Test', stackProps);
  const table = new SingleTable(stack, 'Table', { manifest, ...props });
  return { stack, table };
}

/** What the tokens of a template's ARNs stand for. */
export interface ArnValues {
  readonly table: string;
  readonly key: string;
  readonly region: string;
  readonly partition: string;
  readonly account: string;
}

const READABLE: ArnValues = { table: 'TABLE', key: 'KEY', region: 'REGION', partition: 'aws', account: 'ACCOUNT' };

/** Statements of the default policy of the function's role, ARNs made readable (or the given values). */
export function statementsOf(stack: Stack, fn: IFunction, values: ArnValues = READABLE): Statement[] {
  const template = Template.fromStack(stack).toJSON();
  const role = stack.resolve((fn.role!.node.defaultChild as unknown as { ref: string }).ref).Ref;
  const policies = Object.values(template.Resources as Record<string, any>)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === role));
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement).map((s: any) => readable(s, template, values));
}

/** Every action and resource of a set of statements, flattened. */
export function actionsAndResources(statements: Statement[]): { actions: string[]; resources: string[] } {
  const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
  return {
    actions: [...new Set(statements.flatMap((s) => list(s.Action)))].sort(),
    resources: [...new Set(statements.flatMap((s) => list(s.Resource)))].sort(),
  };
}

function readable(value: any, template: any, values: ArnValues): any {
  if (Array.isArray(value)) return value.map((v) => readable(v, template, values));
  if (value && typeof value === 'object') {
    if (value['Fn::GetAtt']) {
      const type = template.Resources[value['Fn::GetAtt'][0]].Type;
      return type === 'AWS::KMS::Key' ? values.key : type === 'AWS::DynamoDB::GlobalTable' ? values.table : JSON.stringify(value);
    }
    if (value['Fn::Join']) return value['Fn::Join'][1].map((v: any) => readable(v, template, values)).join(value['Fn::Join'][0]);
    if (value.Ref === 'AWS::Region') return values.region;
    if (value.Ref === 'AWS::Partition') return values.partition;
    if (value.Ref === 'AWS::AccountId') return values.account;
    if (value.Ref === 'AWS::URLSuffix') return 'amazonaws.com';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readable(v, template, values)]));
  }
  return value;
}
