// `single-table backfill <manifest> --table NAME`: rewrites the index key attributes of every item
// the manifest's model finds missing or stale (a new GSI, a changed template, a new shard count),
// with the worker of lib/migrate, in parallel scan segments, within a write budget, resumable.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BackfillPlan, BackfillPlanError, planBackfill } from '../../migrate/plan';
import type { BackfillCheckpoint, BackfillResult } from '../../migrate/run';
import type { SingleTableManifest } from '../../model/manifest';
import type { TableModel } from '../../model/model';
import { Command } from '../command';
import { modelOf } from '../findings';
import { CliError, CliIo, EXIT } from '../io';
import { loadManifest, loadValue } from '../load';
import { seconds, startEngine } from '../local/engine';

export const backfillCommand: Command = {
  name: 'backfill',
  summary: 'rewrite the index attributes stored items miss or hold stale after a design change',
  help: `Usage: single-table backfill <manifest> --table NAME [--from FILE] [--endpoint URL] [--dry-run]
       [--segments N] [--max-wcu N] [--resume FILE] [--json]

Scans the table and brings every item's index key attributes (secondary index keys, shard
suffixes, the type attribute) to what the manifest composes from the item's own attributes: after
adding a GSI or an LSI sort key, changing a key template, or changing a shard count or strategy.
User attributes are never written. Each stale item is rewritten with a conditional update that
fails if the item changed since it was read; it is then read again and its fix recomputed, so a
concurrent application write is never lost. A second run rewrites nothing.

An item of an entity with unique attributes (\`unique\`) also gets a guard item for each value that
has none, as after declaring an attribute unique or changing \`uniqueScope\`: the guard is put in a
transaction that checks the item still holds the value. A value another item's guard holds is a
value held twice: the item is listed as failed, naming both.

An item whose value for a key attribute of a multi-attribute GSI has another type than declared,
is empty or is over the key size limit cannot be indexed or written (an index key violation): it is
listed as failed with the index, the attribute, the stored and the declared type, and the run goes
on; store the value with its type and run again.

Deploy the new manifest's runtime first: items written by an older one would be stale again.

Arguments:
  <manifest>         the new manifest (.json, or a .js/.ts module exporting it)

Options:
  --table NAME       the table (required)
  --from FILE        the manifest the items were written under (or its compiled model as JSON):
                     names the changes, removes the attributes of index slots it had and the new
                     one has not, and refuses a changed table key; default: the shard history
                     (previousShardCounts, previousStrategies) names the resharded indexes, and
                     every slot is checked all the same
  --endpoint URL     a DynamoDB endpoint (DynamoDB Local: http://localhost:8000); default: DynamoDB
                     with the environment's region and credentials
  --dry-run          scan only: count the stale items and missing guards and the write units their
                     writes would cost (the cost model's index effects on the real item sizes)
  --segments N       parallel scan segments, worked at once (default 1)
  --max-wcu N        write units per second for the whole run, from the measured consumed capacity
                     (default: no limit)
  --resume FILE      the checkpoint file: read when it exists, written after every page; a stopped
                     run started again with it goes on where it stopped
  --json             print the result as JSON
  -h, --help         show this help

Exit code: 0 when no item failed, 1 when some item could not be fixed (listed) or the manifest has
errors, 2 on bad arguments.
`,
  options: {
    'table': { type: 'string' },
    'from': { type: 'string' },
    'endpoint': { type: 'string' },
    'dry-run': { type: 'boolean' },
    'segments': { type: 'string' },
    'max-wcu': { type: 'string' },
    'resume': { type: 'string' },
    'json': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const tableName = flags.table as string | undefined;
    if (!tableName) throw new CliError('backfill: --table NAME is required', EXIT.USAGE);
    const segments = positiveInteger(flags.segments, '--segments', 1_000_000);
    const maxWcu = positiveInteger(flags['max-wcu'], '--max-wcu', Number.MAX_SAFE_INTEGER);
    const dryRun = flags['dry-run'] === true;
    const resumeFile = flags.resume as string | undefined;
    if (dryRun && resumeFile) throw new CliError('backfill: --dry-run writes nothing and keeps no checkpoint; leave out --resume', EXIT.USAGE);

    const next = modelOf(loadManifest(file, io), file);
    const from = flags.from as string | undefined;
    const previous = from ? previousModel(from, io) : undefined;
    // The worker needs the SDK, which this package does not depend on: loaded only here.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { backfill } = require('../../migrate/run') as typeof import('../../migrate/run');
    let plan: BackfillPlan;
    try {
      plan = planBackfill(next, previous);
    } catch (e) {
      if (e instanceof BackfillPlanError) throw new CliError(`backfill: ${e.message}`);
      throw e;
    }
    const resumePath = resumeFile ? resolve(io.cwd, resumeFile) : undefined;
    const checkpoint = resumePath && existsSync(resumePath) ? readCheckpoint(resumeFile!, resumePath) : undefined;

    const connection = await connect(flags.endpoint as string | undefined, io);
    const started = Date.now();
    try {
      const total = await itemCount(connection.client, tableName);
      let lastShown = 0;
      let result: BackfillResult;
      try {
        result = await backfill({
          client: connection.client,
          tableName,
          plan,
          segments: checkpoint ? undefined : segments,
          maxWriteUnitsPerSecond: maxWcu,
          dryRun,
          checkpoint,
          onProgress: (state) => {
            if (resumePath) writeFileSync(resumePath, JSON.stringify(state, null, 2) + '\n');
            if (io.progress && Date.now() - lastShown >= 500) {
              lastShown = Date.now();
              io.err(`\r${progressLine(state, total, started)}`);
            }
          },
        });
      } catch (e) {
        if (e instanceof RangeError) throw new CliError(`backfill: ${e.message}`, EXIT.USAGE);
        throw new CliError(`backfill: ${(e as Error).name}: ${(e as Error).message}${resumeFile ? `; run again with --resume ${resumeFile} to go on` : ''}`);
      }
      if (io.progress) io.err('\n');
      const elapsedMs = Date.now() - started;
      const report = {
        table: tableName,
        dryRun,
        segments: result.checkpoint.totalSegments,
        elapsedMs,
        plan: plan.entities,
        counts: result.counts,
        failures: result.failures,
      };
      io.out(flags.json ? JSON.stringify(report, null, 2) + '\n' : render(report, maxWcu));
      return result.counts.failed > 0 ? EXIT.FAILED : EXIT.OK;
    } finally {
      await connection.stop();
    }
  },
};

function positiveInteger(value: unknown, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new CliError(`backfill: ${flag} ${String(value)}: expected a whole number from 1 to ${max}`, EXIT.USAGE);
  return n;
}

/** A manifest, or a compiled model saved as JSON (it has `entityByType`). */
function previousModel(file: string, io: CliIo): TableModel {
  const value = loadValue(file, io, 'manifest', 'the previous manifest');
  if (value && typeof value === 'object' && 'entityByType' in value && 'indexes' in value) return value as TableModel;
  return modelOf(value as SingleTableManifest, file);
}

function readCheckpoint(file: string, path: string): BackfillCheckpoint {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as BackfillCheckpoint;
    if (!Array.isArray(value.segments) || typeof value.totalSegments !== 'number') throw new Error('no segments');
    return value;
  } catch (e) {
    throw new CliError(`${file}: not a backfill checkpoint (${(e as Error).message}); remove it to start over`);
  }
}

async function connect(endpoint: string | undefined, io: CliIo): Promise<{ client: DynamoDBClient; stop: () => Promise<void> }> {
  if (endpoint) return startEngine({ endpoint }, io);
  // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies
  const { DynamoDBClient: Client } = require('@aws-sdk/client-dynamodb') as typeof import('@aws-sdk/client-dynamodb');
  const client = new Client({});
  return { client, stop: async () => client.destroy() };
}

/** The table's approximate item count (DynamoDB refreshes it about every six hours), for the ETA. */
async function itemCount(client: DynamoDBClient, tableName: string): Promise<number | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies
  const { DescribeTableCommand } = require('@aws-sdk/client-dynamodb') as typeof import('@aws-sdk/client-dynamodb');
  const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return out.Table?.ItemCount;
}

function progressLine(state: BackfillCheckpoint, total: number | undefined, started: number): string {
  const scanned = state.segments.reduce((n, s) => n + s.counts.scanned, 0);
  const rewritten = state.segments.reduce((n, s) => n + s.counts.rewritten, 0);
  const elapsed = (Date.now() - started) / 1000;
  const rate = scanned / Math.max(elapsed, 0.001);
  const eta = total && total > scanned && rate > 0 ? `, ETA ${seconds(Math.round(((total - scanned) / rate) * 1000))}` : '';
  const share = total ? ` of ~${total}` : '';
  return `scanned ${scanned}${share} (${rate.toFixed(0)} items/s), rewritten ${rewritten}, ${state.segments.filter((s) => s.done).length}/${state.totalSegments} segments done${eta}   `;
}

interface Report {
  readonly table: string;
  readonly dryRun: boolean;
  readonly segments: number;
  readonly elapsedMs: number;
  readonly plan: BackfillPlan['entities'];
  readonly counts: BackfillResult['counts'];
  readonly failures: BackfillResult['failures'];
}

function render(report: Report, maxWcu: number | undefined): string {
  const c = report.counts;
  const lines = [`${report.dryRun ? 'Dry run of the backfill' : 'Backfill'} of table ${report.table}:`];
  for (const e of report.plan) {
    const guards = e.unique ? `; unique ${e.unique.join(', ')}: a guard item for each value that has none` : '';
    lines.push(`  ${e.entity}: ${e.changes.length ? e.changes.map((x) => `${x.index} ${x.change.toLowerCase()} (${x.detail})`).join('; ') : 'no change known (every slot is checked all the same)'}${guards}`);
  }
  lines.push(`Scanned ${c.scanned} items in ${report.segments} segment(s) in ${seconds(report.elapsedMs)}: ${c.stale} stale, ` +
    (report.dryRun ? '' : `${c.rewritten} rewritten, ${c.conflicts} changed meanwhile (re-read), `) + `${c.skipped} of no entity (left alone), ${c.failed} failed.`);
  if (report.plan.some((e) => e.unique)) lines.push(`Unique values without a guard item: ${c.guardsWritten}${report.dryRun ? ' (none written)' : ', each given its guard'}.`);
  if (report.dryRun) {
    const at = maxWcu ? `; at --max-wcu ${maxWcu}, about ${seconds(Math.round((c.writeUnits / maxWcu) * 1000))}` : '';
    lines.push(`Rewriting them would cost about ${round(c.writeUnits)} write units (cost model)${at}; reading the table cost ${round(c.readUnits)} read units.`);
  } else {
    lines.push(`Consumed ${round(c.writeUnits)} write units and ${round(c.readUnits)} read units (as DynamoDB reported).`);
  }
  const shown = report.failures.slice(0, 20);
  for (const f of shown) lines.push(`  FAILED ${JSON.stringify(f.key)}${f.entity ? ` (${f.entity})` : ''}: ${f.reason}`);
  if (c.failed > shown.length) lines.push(`  ... ${c.failed - shown.length} more; --json lists up to 100 per segment`);
  return lines.join('\n') + '\n';
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
