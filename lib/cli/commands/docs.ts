// `single-table docs <manifest>`: the design document in seed 000's form, to commit and diff.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { samplesFrom } from './cost';
import { costReport } from '../../reports/cost';
import { costMarkdown } from '../../reports/cost-markdown';
import { designDocument, designMarkdown } from '../../reports/design-doc';
import { Command } from '../command';
import { modelOf } from '../compile';
import { EXIT } from '../io';
import { loadManifest } from '../load';

export const docsCommand: Command = {
  name: 'docs',
  summary: 'markdown entity charts per index and the access-pattern table',
  help: `Usage: single-table docs <manifest> [--out DIR] [--json] [--samples FILE]

Prints the design document: the main-table entity chart (Entity | PK | SK | GSI keys | LSI sort
keys | Notes), one chart per index (Entity | index keys | access patterns) and the access-pattern
table (index, key condition, order, consistency, projection, follow-up fetch). The output depends
only on the manifest, in its declaration order, so it can be committed and diffed.

Arguments:
  <manifest>       a .json file, or a .js/.ts module exporting the manifest

Options:
  --out DIR        write DIR/design.md and DIR/cost.md (the cost report) instead of printing
  --samples FILE   sample items for cost.md (see 'single-table cost --help')
  --json           print the charts as JSON (with --out: the files written)
  -h, --help       show this help
`,
  options: { out: { type: 'string' }, json: { type: 'boolean' }, samples: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const model = modelOf(loadManifest(file, io), file);
    if (typeof flags.out !== 'string') {
      io.out(flags.json ? JSON.stringify(designDocument(model), null, 2) + '\n' : designMarkdown(model));
      return EXIT.OK;
    }
    const dir = resolve(io.cwd, flags.out);
    mkdirSync(dir, { recursive: true });
    const files = {
      'design.md': designMarkdown(model),
      'cost.md': costMarkdown(model, costReport(model, { sampleItems: samplesFrom(flags.samples, io) })),
    };
    const written: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      written.push(join(flags.out, name));
    }
    io.out(flags.json ? JSON.stringify({ written }, null, 2) + '\n' : written.map((w) => `wrote ${w}\n`).join(''));
    return EXIT.OK;
  },
};
