// `single-table advise <manifest>`: what to change to make the design cheaper or safer, each
// change priced per month by the cost model at the declared rates; --write writes the improved manifest.
import { writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { designAdvice } from '../../reports/advice/advice';
import { adviceMarkdown } from '../../reports/advice/advice-markdown';
import { ON_DEMAND_PRICES } from '../../reports/advice/prices';
import { Command } from '../command';
import { modelOf } from '../findings';
import { CliError, EXIT } from '../io';
import { loadManifest } from '../load';
import { manifestFileText } from '../manifest-file';

export const adviseCommand: Command = {
  name: 'advise',
  summary: 'index and projection changes that make the design cheaper or safer, priced per month',
  help: `Usage: single-table advise <manifest> [--region NAME] [--item-counts ENTITY=N,...] [--provisioned]
       [--all] [--write FILE] [--json]

Proposes changes to the design's indexes: overload GSIs whose patterns can share one, project what
the patterns read (ALL to INCLUDE, or KEYS_ONLY to INCLUDE when the fetches cost more than the
writes saved), sparse keys for flag and status indexes, an LSI or a GSI per pattern, remove
indexes no pattern reads, shard hot keys, a sort-key prefix where a pattern reads whole partitions
and drops other entities' items. Each names what to change, why, and what it saves or
costs per month: write and read request units at the entities' writesPerSecond and the patterns'
readsPerSecond, and storage at the given item counts, at on-demand list prices; and what else it
changes (GSIs out of the 20 a table may have, the monitoring's alarms, capacity minimums).

Arguments:
  <manifest>           a .json file, or a .js/.ts module exporting the manifest

Options:
  --region NAME        whose on-demand list prices to use (default us-east-1; built in: ${Object.keys(ON_DEMAND_PRICES).join(', ')})
  --item-counts LIST   stored items per entity, to price storage: Order=10000000,Customer=50000
  --provisioned        the table is provisioned: alarms per GSI and capacity minimums as such
  --all                also list advice that changes nothing at these rates
  --write FILE         write the manifest with every change that has an effect (.json, .ts or .js),
                       and when it adds GSIs, FILE's .transition twin: the current design plus them,
                       to deploy and backfill first ('single-table backfill TRANSITION --from
                       <manifest> --table NAME --dry-run' prices the move)
  --json               print the advice as JSON
  -h, --help           show this help
`,
  options: {
    'region': { type: 'string' },
    'item-counts': { type: 'string' },
    'provisioned': { type: 'boolean' },
    'all': { type: 'boolean' },
    'write': { type: 'string' },
    'json': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const manifest = loadManifest(file, io);
    modelOf(manifest, file);
    const region = (flags.region as string | undefined) ?? 'us-east-1';
    if (!Object.hasOwn(ON_DEMAND_PRICES, region)) {
      throw new CliError(`advise: no built-in prices for region '${region}'; built in: ${Object.keys(ON_DEMAND_PRICES).join(', ')}`, EXIT.USAGE);
    }
    let report;
    try {
      report = designAdvice(manifest, { region, itemCounts: itemCounts(flags['item-counts']), provisioned: flags.provisioned === true });
    } catch (e) {
      throw new CliError(`advise: ${(e as Error).message}`, EXIT.USAGE);
    }
    if (typeof flags.write === 'string') {
      writeFileSync(resolve(io.cwd, flags.write), manifestFileText(report.improved, flags.write));
      if (report.transition) {
        const twin = transitionFile(flags.write);
        writeFileSync(resolve(io.cwd, twin), manifestFileText(report.transition, twin));
      }
    }
    io.out(flags.json ? JSON.stringify(report, null, 2) + '\n' : adviceMarkdown(report, { all: flags.all === true }));
    return EXIT.OK;
  },
};

function itemCounts(value: string | boolean | undefined): { [entity: string]: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const counts: { [entity: string]: number } = {};
  for (const pair of value.split(',')) {
    const [entity, n] = pair.split('=');
    if (!entity || !/^\d+$/.test(n ?? '')) throw new CliError(`advise: --item-counts takes ENTITY=N pairs separated by commas, got '${pair}'`, EXIT.USAGE);
    counts[entity.trim()] = Number(n);
  }
  return counts;
}

/** `improved.json` -> `improved.transition.json`. */
export function transitionFile(file: string): string {
  const ext = extname(file);
  return `${file.slice(0, file.length - ext.length)}.transition${ext}`;
}
