// Synth time: the example app's table built by `SingleTable` from the example manifest, against
// the same table written with plain `TableV2` (bench/plain-stack.ts), each as construct + in-process
// `app.synth()` in a fresh App, interleaved in random order. The example stack's Lambda is left
// out: its esbuild bundling would cost the same next to either table and hide the difference.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, CfnOutput, Stack } from 'aws-cdk-lib';
import { PlainTableStack } from './plain-stack';
import { median, msSince, shuffled, significant } from './stats';
import { manifest } from '../examples/manifest';
import { SingleTable } from '../lib';

export interface SynthTimes {
  readonly singleTableMs: number;
  readonly plainTableV2Ms: number;
  /** Median of the per-round ratios SingleTable / TableV2. */
  readonly ratio: number;
}

const STACKS = {
  'cdk-single-table': (app: App) => {
    const stack = new Stack(app, 'Bench');
    const table = new SingleTable(stack, 'Table', { manifest });
    new CfnOutput(stack, 'TableName', { value: table.tableName });
  },
  'TableV2': (app: App) => new PlainTableStack(app, 'Bench'),
};
type Variant = keyof typeof STACKS;
const WARM_UP = 3;

/** The synthesized table resource of a variant, properties only (logical ids differ). */
function synthTable(variant: Variant, outdir: string): unknown {
  const app = new App({ outdir });
  STACKS[variant](app);
  const resources = Object.values(app.synth().getStackByName('Bench').template.Resources as Record<string, { Type: string }>);
  return resources.filter((r) => r.Type === 'AWS::DynamoDB::GlobalTable');
}

/** JSON with object keys sorted, so property order does not make two equal templates differ. */
const canonical = (value: unknown) => JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));

export function measureSynth(rounds: number): SynthTimes {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  try {
    if (canonical(synthTable('cdk-single-table', outdir)) !== canonical(synthTable('TableV2', outdir))) {
      throw new Error('bench/plain-stack.ts no longer synthesizes the table SingleTable builds from examples/manifest.ts; update it');
    }
    // Warm-up: aws-cdk-lib and the construct code load and get compiled here, not in a timed round.
    for (let i = 0; i < WARM_UP; i++) for (const variant of Object.keys(STACKS) as Variant[]) synthTable(variant, outdir);
    const times: Record<Variant, number[]> = { 'cdk-single-table': [], 'TableV2': [] };
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const round = {} as Record<Variant, number>;
      for (const variant of shuffled(Object.keys(STACKS) as Variant[])) {
        const start = process.hrtime.bigint();
        synthTable(variant, outdir);
        round[variant] = msSince(start);
        times[variant].push(round[variant]);
      }
      ratios.push(round['cdk-single-table'] / round.TableV2);
    }
    return {
      singleTableMs: significant(median(times['cdk-single-table'])),
      plainTableV2Ms: significant(median(times.TableV2)),
      ratio: significant(median(ratios)),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
