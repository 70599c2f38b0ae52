// Builds a SingleTable in a fresh stack and reads back its CloudFormation.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SingleTableProps } from '../../lib/construct/props';
import { SingleTable } from '../../lib/construct/single-table';
import { SingleTableManifest } from '../../lib/model/manifest';
import { validManifest } from '../fixtures/valid-manifest';

export interface Synthesized {
  readonly stack: Stack;
  readonly singleTable: SingleTable;
  readonly template: Template;
  /** Properties of the one AWS::DynamoDB::GlobalTable. */
  readonly table: { [key: string]: any };
  /** The table resource itself (policies included). */
  readonly resource: { [key: string]: any };
}

/** Props for the construct, or a function of the stack that makes them (for props that are constructs). */
export type TestProps = Partial<SingleTableProps> | ((stack: Stack) => Partial<SingleTableProps>);

export function synth(props: TestProps = {}, manifest: SingleTableManifest = validManifest(), region?: string): Synthesized {
  const stack = new Stack(new App(), 'Test', region ? { env: { region } } : undefined);
  const singleTable = new SingleTable(stack, 'Table', { manifest, ...(typeof props === 'function' ? props(stack) : props) });
  const template = Template.fromStack(stack);
  const resources = Object.values(template.findResources('AWS::DynamoDB::GlobalTable'));
  expect(resources).toHaveLength(1);
  return { stack, singleTable, template, table: resources[0].Properties, resource: resources[0] };
}

/** The manifest error a construct with these props throws. */
export function synthError(props: TestProps = {}, manifest: SingleTableManifest = validManifest(), region?: string): string {
  try {
    synth(props, manifest, region);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct to throw');
}
