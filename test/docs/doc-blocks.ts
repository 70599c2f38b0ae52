// The code blocks of README.md and docs/, with the marker before each. A marker says how a test
// checks the block:
//   <!-- check: NAME -->               a TypeScript file NAME, type-checked as written (on a python
//                                      block of docs/python.md: the file python/tests/test_docs.py runs);
//   <!-- check: NAME after BASE -->    continues the block BASE (shown earlier, on any page):
//                                      the file NAME is BASE's file followed by this block;
//   <!-- quick-start: file NAME -->    a file of the quick start, which test/package/consumer.test.ts
//                                      writes into a new project and runs (type-checked here too);
//   <!-- quick-start: run -->          commands that test runs;
//   <!-- the block below is synthesized by FILE --> / <!-- the block below is run by FILE -->:
//                                      a test of its own, FILE, reads the block and runs it;
//   <!-- not run by a test: REASON --> commands a test cannot run (a deploy to an AWS account).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

export const ROOT = join(__dirname, '..', '..');

/** README.md and every page under docs/, as paths from the repository root. */
export const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map(String)
  .filter((f) => f.endsWith('.md')).sort().map((f) => join('docs', f))];

export interface DocBlock {
  readonly page: string;
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  /** The HTML comment on the line before the fence, if any. */
  readonly marker?: string;
}

export function blocksOf(page: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented (a block inside a list item); its lines lose that indent.
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1];
    let end = i + 1;
    while (end < lines.length && lines[end] !== `${indent}\`\`\``) end++;
    const before = lines[i - 1]?.trim() ?? '';
    blocks.push({
      page,
      line: i + 1,
      lang: open[2],
      text: lines.slice(i + 1, end).map((l) => l.slice(indent.length)).join('\n') + '\n',
      marker: /^<!--.*-->$/.test(before) ? before : undefined,
    });
    i = end;
  }
  return blocks;
}

export const allBlocks = (): DocBlock[] => PAGES.flatMap(blocksOf);

/** The `check:` marker's file name and the block it continues, if the marker is one. */
export function checkMarker(block: DocBlock): { name: string; after?: string } | undefined {
  const m = /^<!-- check: (\S+)(?: after (\S+))? -->$/.exec(block.marker ?? '');
  return m ? { name: m[1], after: m[2] } : undefined;
}

/** Every `check:` block's file text, continuations resolved (BASE's text, then the block's). */
export function checkedFiles(blocks: readonly DocBlock[] = allBlocks()): Map<string, { block: DocBlock; text: string }> {
  const own = new Map<string, { block: DocBlock; after?: string }>();
  for (const block of blocks) {
    const marker = checkMarker(block);
    if (!marker || block.lang !== 'ts') continue;
    if (own.has(marker.name)) throw new Error(`${block.page}:${block.line}: a second block named ${marker.name}`);
    own.set(marker.name, { block, after: marker.after });
  }
  const resolve = (name: string, seen: string[]): string => {
    const entry = own.get(name);
    if (!entry) throw new Error(`${seen.join(' after ')}: no block is named ${name}`);
    if (seen.includes(name)) throw new Error(`a cycle of continuations: ${[...seen, name].join(' after ')}`);
    return (entry.after ? resolve(entry.after, [...seen, name]) + '\n' : '') + entry.block.text;
  };
  return new Map([...own].map(([name, { block }]) => [name, { block, text: resolve(name, []) }]));
}

/** The package's entry points as a test loads them: from the sources. */
const SPECIFIERS: Record<string, string> = {
  'cdk-single-table': join(ROOT, 'lib', 'index.ts'),
  'cdk-single-table/runtime': join(ROOT, 'lib', 'runtime', 'index.ts'),
};

/**
 * A block as a CommonJS module in `dir` that a test can require: the package's imports pointed at
 * the sources, `./x` at `dir/x`, anything else resolved from the repository's node_modules.
 */
export function writeModule(dir: string, name: string, source: string): string {
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(source, { compilerOptions }).outputText
    .replace(/require\("([^"]+)"\)/g, (_, spec: string) => `require(${JSON.stringify(
      SPECIFIERS[spec] ?? (spec.startsWith('./') ? join(dir, spec.slice(2)) : require.resolve(spec)))})`);
  const file = join(dir, name.replace(/\.ts$/, '.js'));
  writeFileSync(file, js);
  return file;
}

/**
 * A block that runs statements at its top level, as a module exporting `run()`, which runs them,
 * and `caught`, every error its `catch` clauses caught.
 */
export function asRunnable(text: string): string {
  const source = ts.createSourceFile('block.ts', text, ts.ScriptTarget.ES2022, true);
  const imports = source.statements.filter(ts.isImportDeclaration);
  const body = source.statements.filter((s) => !ts.isImportDeclaration(s));
  // A declaration the block exports is a local of `run` (an export cannot be inside a function).
  const statements = body.map((s) => s.getFullText(source).replace(/^(\s*)export /, '$1').replace(/\bcatch \((\w+)\) \{/g, 'catch ($1) { caught.push($1);'));
  return `${imports.map((s) => s.getFullText(source)).join('')}\nexport const caught: unknown[] = [];\n`
    + `export async function run() {${statements.join('')}\n}\n`;
}
