// `single-table local [app]`: the example app on an embedded DynamoDB, no AWS account needed.
import { Command } from '../command';
import { modelOf } from '../compile';
import { EXIT } from '../io';
import { loadManifest, loadValue } from '../load';
import { startEngine } from '../local/engine';
import { checkData, LocalData, LocalRun, runLocal } from '../local/session';
import { findTemplate } from '../local/template';

export const localCommand: Command = {
  name: 'local',
  summary: 'create the table on an embedded DynamoDB, load sample items, run every access pattern',
  help: `Usage: single-table local [app] [--manifest FILE] [--data FILE] [--endpoint URL] [--db-path DIR] [--json]

Starts dynalite in this process, creates the table exactly as the app's synthesized template
declares it, puts the sample items and runs every access pattern of the manifest through the
runtime client, printing each pattern's results and the write and read units the cost model
expects.

Arguments:
  [app]              the CDK app to synthesize (.ts/.js, run with CDK_OUTDIR set), a cdk.out
                     folder, or a synthesized template (.json); default: the app of ./cdk.json

Options:
  --manifest FILE    the manifest (default examples/manifest.ts)
  --data FILE        sample items and one input per pattern, exported as \`localData\`:
                     { items: { Entity: [item, ...] }, queries: { pattern: input } }
                     (default examples/local-data.ts)
  --table NAME       table name (default single-table-local)
  --endpoint URL     use this engine instead of dynalite: DynamoDB Local (http://localhost:8000) or
                     a real DynamoDB endpoint (region and credentials from the environment)
  --db-path DIR      keep dynalite's data in DIR instead of memory (an existing table is reused)
  --json             print the run as JSON
  -h, --help         show this help

Needs dynalite (or --endpoint) and @aws-sdk/client-dynamodb installed in the project.
`,
  options: {
    'manifest': { type: 'string' },
    'data': { type: 'string' },
    'table': { type: 'string' },
    'endpoint': { type: 'string' },
    'db-path': { type: 'string' },
    'json': { type: 'boolean' },
  },
  positionals: { min: 0, max: 1 },
  async run([app], flags, io) {
    const manifestFile = (flags.manifest as string | undefined) ?? 'examples/manifest.ts';
    const manifest = loadManifest(manifestFile, io);
    const model = modelOf(manifest, manifestFile);
    const data = loadValue((flags.data as string | undefined) ?? 'examples/local-data.ts', io, 'localData', 'the local data') as LocalData;
    checkData(model, data);
    const found = findTemplate(app, io);
    const engine = await startEngine({ endpoint: flags.endpoint as string | undefined, dbPath: flags['db-path'] as string | undefined }, io);
    try {
      const run = await runLocal(manifest, model, data, found, engine, (flags.table as string | undefined) ?? 'single-table-local', io);
      io.out(flags.json ? JSON.stringify(run, null, 2) + '\n' : render(run));
      return run.queries.some((q) => q.error) ? EXIT.FAILED : EXIT.OK;
    } finally {
      await engine.stop();
    }
  },
};

function render(run: LocalRun): string {
  const lines = [
    `Engine: ${run.engine}`,
    `Table:  ${run.table}, ${run.tableCreated ? 'created' : 'already there, reused'} from ${run.template}`,
    '',
    `Put ${run.writes.length} sample items, ${sum(run.writes.map((w) => w.expectedWriteUnits))} write units expected:`,
    ...run.writes.map((w) => `  ${w.entity.padEnd(12)} ${String(w.expectedWriteUnits).padStart(3)} WU  ${JSON.stringify(w.item)}`),
    '',
    `Ran ${run.queries.filter((q) => !q.skipped && !q.error).length} of ${run.queries.length} access patterns, ${sum(run.queries.map((q) => q.expectedReadUnits))} read units expected:`,
  ];
  for (const q of run.queries) {
    if (q.skipped || q.error) {
      lines.push(`  ${q.pattern} (${q.index}): ${q.skipped ? `skipped, ${q.skipped}` : `FAILED: ${q.error}`}`);
      continue;
    }
    lines.push(`  ${q.pattern} (${q.index}) ${JSON.stringify(q.input)}: ${q.items.length} item(s), ${q.expectedReadUnits} RU expected`);
    for (const r of q.items) lines.push(`    ${r.entity} ${JSON.stringify(r.item)}`);
  }
  return lines.join('\n') + '\n';
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
