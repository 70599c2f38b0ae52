// `single-table cost <manifest>`: write amplification, reads, storage and shard sizing.
import { costReport } from '../../reports/cost';
import { costMarkdown } from '../../reports/cost-markdown';
import { Command } from '../command';
import { modelOf } from '../findings';
import { CliError, EXIT } from '../io';
import { loadManifest, loadSamples } from '../load';

export const costCommand: Command = {
  name: 'cost',
  summary: 'write amplification, read units, storage and shard counts per entity and pattern',
  help: `Usage: single-table cost <manifest> [--json] [--samples FILE] [--items N]

Prints, per entity and per write, the write units on the table and on every index (new entry +1,
key changed +2, key removed +1, projected attribute changed +1, untouched 0, delete), each rounded
up per KB of the projected entry; read units per access pattern (4 KB rounding, eventually
consistent at half, fetches per item); storage per item with 100 bytes of overhead per entry;
transactions at twice the units; and the shards each write-sharded index needs for its peak.

Arguments:
  <manifest>       a .json file, or a .js/.ts module exporting the manifest

Options:
  --samples FILE   sample items (one per entity name, JSON or a module exporting \`sampleItems\`):
                   their exact DynamoDB sizes replace the typical sizes
  --items N        entries per query for the "many items" read figure (default 10)
  --json           print the figures as JSON
  -h, --help       show this help
`,
  options: { json: { type: 'boolean' }, samples: { type: 'string' }, items: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const model = modelOf(loadManifest(file, io), file);
    const report = costReport(model, { sampleItems: samplesFrom(flags.samples, io), itemsPerQuery: itemsFrom(flags.items) });
    io.out(flags.json ? JSON.stringify(report, null, 2) + '\n' : costMarkdown(model, report));
    return EXIT.OK;
  },
};

/** Sample items from --samples, if given. */
export function samplesFrom(file: string | boolean | undefined, io: Parameters<Command['run']>[2]) {
  return typeof file === 'string' ? loadSamples(file, io) : undefined;
}

function itemsFrom(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < 1) throw new CliError(`cost: --items must be a whole number of at least 1, got '${value}'`, EXIT.USAGE);
  return n;
}
