// `single-table docs <manifest>`: the design document, to commit and diff, in four formats: the
// Markdown charts, the model as JSON, one self-contained HTML page of every index with sample items,
// and a Mermaid diagram.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { samplesFrom } from './cost';
import { TableModel } from '../../model/model';
import { designAdvice } from '../../reports/advice/advice';
import { costReport } from '../../reports/cost';
import { costMarkdown } from '../../reports/cost-markdown';
import { designMarkdown } from '../../reports/design-doc';
import { renderHtmlView, ViewSamples } from '../../reports/html';
import { designJson } from '../../reports/json';
import { mermaidDiagram } from '../../reports/mermaid';
import { Command } from '../command';
import { modelOf } from '../findings';
import { CliError, CliIo, EXIT } from '../io';
import { loadManifest, loadValue } from '../load';
import { checkData, LocalData } from '../local/local-run';

const FORMATS = ['markdown', 'json', 'html', 'mermaid'] as const;
type Format = typeof FORMATS[number];

export const docsCommand: Command = {
  name: 'docs',
  summary: 'the design document: markdown charts, JSON, an HTML view of every index, or a Mermaid diagram',
  help: `Usage: single-table docs <manifest> [--format markdown|json|html|mermaid] [--json] [--out DIR] [--data FILE]
       [--samples FILE]

Prints the design document. The output depends only on the manifest (and the sample data), in its
declaration order, so it can be committed and diffed.

Formats:
  markdown   the main-table entity chart (Entity | PK | SK | GSI keys | LSI sort keys | Notes), one
             chart per index (Entity | index keys | access patterns) and the access-pattern table
             (index, key condition, order, consistency, projection, follow-up fetch)
  json       the same facts as data: the compiled model's entities, indexes and access patterns
             (see docs/reports-cli.md for the fields)
  html       one self-contained page (inline CSS, no script, no network): every index as a table of
             sample items with their physical keys and projected attributes, grouped by partition,
             every access pattern with an example key condition, the items it returns and its cost,
             and the entity charts
  mermaid    a flowchart of entities, the indexes they populate and the access patterns

Arguments:
  <manifest>       a .json file, or a .js/.ts module exporting the manifest

Options:
  --format F       markdown (default), json, html or mermaid
  --json           the same as --format json
  --out DIR        write files instead of printing: markdown writes DIR/design.md and DIR/cost.md
                   (the cost report), html DIR/design.html, mermaid DIR/design.mmd, json
                   DIR/design.json
  --data FILE      sample data for html, in the 'single-table local' format (export \`localData\`:
                   { items: { Entity: [item, ...] }, queries: { pattern: input } }); entities and
                   patterns without samples get items and inputs made up from the manifest
  --samples FILE   sample items for cost.md (see 'single-table cost --help')
  -h, --help       show this help
`,
  options: {
    format: { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean' },
    data: { type: 'string' },
    samples: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run([file], flags, io) {
    const format = formatOf(flags);
    const manifest = loadManifest(file, io);
    const model = modelOf(manifest, file);
    const files: { [name: string]: () => string } = {};
    switch (format) {
      case 'json':
        files['design.json'] = () => JSON.stringify(designJson(model), null, 2) + '\n';
        break;
      case 'html':
        files['design.html'] = () => renderHtmlView(model, dataFrom(flags.data, model, io), designAdvice(manifest));
        break;
      case 'mermaid':
        files['design.mmd'] = () => mermaidDiagram(model);
        break;
      default:
        files['design.md'] = () => designMarkdown(model);
        if (typeof flags.out === 'string') files['cost.md'] = () => costMarkdown(model, costReport(model, { sampleItems: samplesFrom(flags.samples, io) }));
    }
    if (typeof flags.out !== 'string') {
      io.out(Object.values(files)[0]());
      return EXIT.OK;
    }
    const dir = resolve(io.cwd, flags.out);
    mkdirSync(dir, { recursive: true });
    const written: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text());
      written.push(join(flags.out, name));
    }
    io.out(format === 'json' ? JSON.stringify({ written }, null, 2) + '\n' : written.map((w) => `wrote ${w}\n`).join(''));
    return EXIT.OK;
  },
};

function formatOf(flags: Parameters<Command['run']>[1]): Format {
  const format = flags.format ?? (flags.json ? 'json' : 'markdown');
  if (flags.json && format !== 'json') throw new CliError(`docs: --json and --format ${String(format)} contradict each other; use one`, EXIT.USAGE);
  if (!FORMATS.includes(format as Format)) throw new CliError(`docs: --format must be one of ${FORMATS.join(', ')}, got '${String(format)}'`, EXIT.USAGE);
  return format as Format;
}

/** Sample data from --data: the `single-table local` format, checked as `local` checks it. */
function dataFrom(file: string | boolean | undefined, model: TableModel, io: CliIo): ViewSamples | undefined {
  if (typeof file !== 'string') return undefined;
  const given = loadValue(file, io, 'localData', 'the sample data') as Partial<LocalData> | null;
  // Here items and queries may be left out: what is missing is made up from the manifest.
  const data = (given && typeof given === 'object' && !Array.isArray(given) ? { items: {}, queries: {}, ...given } : given) as LocalData;
  checkData(model, data, file);
  return data;
}
