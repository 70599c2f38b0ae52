// A stack holding a SingleTable of the shop (design B) and its backfill job, synthesized to a
// directory so the staged Lambda asset can be read back.
import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SingleTableBackfill } from '../../../lib/construct/backfill/backfill';
import type { SingleTableBackfillOptions } from '../../../lib/construct/backfill/options';
import { SingleTableProps } from '../../../lib/construct/props';
import { SingleTable } from '../../../lib/construct/single-table';
import { shopManifest } from '../../fixtures/shop';
import { buildSegmentBundle } from '../../support/backfill-bundle';

let built = false;

export interface BackfillStack {
  readonly app: App;
  readonly stack: Stack;
  readonly table: SingleTable;
  readonly backfill: SingleTableBackfill;
  readonly template: Template;
  /** Logical ids by construct. */
  logicalId(construct: { node: { defaultChild?: unknown } }): string;
}

/** Synthesizes into `outdir` (under the repository, so the staged bundle resolves the SDK from node_modules). */
export function backfillStack(
  options: SingleTableBackfillOptions = {},
  tableProps: Partial<SingleTableProps> | ((stack: Stack) => Partial<SingleTableProps>) = {},
  region?: string,
): BackfillStack {
  if (!built) {
    buildSegmentBundle();
    built = true;
  }
  const cdkOut = path.join(__dirname, '..', '..', '..', 'cdk.out');
  mkdirSync(cdkOut, { recursive: true }); // absent in a fresh clone
  const outdir = mkdtempSync(path.join(cdkOut, 'backfill-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'Shop', region ? { env: { region } } : undefined);
  let table: SingleTable;
  let backfill: SingleTableBackfill;
  let template: Template;
  try {
    table = new SingleTable(stack, 'Table', { manifest: shopManifest('B'), ...(typeof tableProps === 'function' ? tableProps(stack) : tableProps) });
    backfill = table.addBackfill('Backfill', options);
    template = Template.fromStack(stack);
  } catch (e) {
    rmSync(outdir, { recursive: true, force: true });
    throw e;
  }
  return {
    app,
    stack,
    table,
    backfill,
    template,
    logicalId: (c) => stack.resolve((c.node.defaultChild as { logicalId: string }).logicalId),
  };
}

/** The directory the segment function's code is staged in. */
export function segmentAssetDir(synth: BackfillStack): string {
  const fn = Object.values(synth.template.findResources('AWS::Lambda::Function'))[0];
  const hash = (fn.Properties.Code.S3Key as string).replace(/\.zip$/, '');
  return path.join(synth.app.outdir, `asset.${hash}`);
}

/** The state machine's definition, the function's ARN written as `FUNCTION`. */
export function definitionOf(synth: BackfillStack): any {
  const machine = Object.values(synth.template.findResources('AWS::StepFunctions::StateMachine'))[0];
  const parts = machine.Properties.DefinitionString['Fn::Join'][1] as unknown[];
  return JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'FUNCTION')).join(''));
}
