// No import circles between the source files of lib/, type-only imports included: a type two files
// share lives in a file below both. And what a Lambda imports (the runtime, the key encoders, the
// compiled model's types) never reaches above them: not the compiler in lib/manifest, nor the
// construct, the CLI, the reports, the generator or the backfills. The graph is read from the sources (every import and re-export,
// `import type`, `import('...')` type queries and `require('...')` of a relative path), so it needs
// no build. The Python runtime has its own guard (python/tests/test_package_layout.py).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

type Graph = ReadonlyMap<string, readonly string[]>;

/** The files under `dir` (relative to ROOT) whose names end with `ext`. */
function sourceFiles(dir: string, ext: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

const TS_SPECIFIERS = [
  /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
  /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The files of `files` that a TypeScript file imports. */
function typescriptImports(file: string, source: string, files: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const pattern of TS_SPECIFIERS) {
    for (const [, specifier] of source.matchAll(pattern)) {
      if (!specifier.startsWith('.')) continue;
      const target = normalize(join(dirname(file), specifier)).split('\\').join('/');
      const hit = [`${target}.ts`, `${target}/index.ts`].find((f) => files.has(f));
      if (hit) found.add(hit);
    }
  }
  return [...found];
}

/** The graph of `files`, each with the files it imports. */
function graphOf(sources: ReadonlyMap<string, string>): Graph {
  const files = new Set(sources.keys());
  return new Map([...sources].map(([file, source]) => [file, typescriptImports(file, source, files)]));
}

/** The circles of a graph: its strongly connected components of more than one file, or of one that imports itself (Tarjan). */
function circlesOf(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** A circle as text: each file with the files of the circle it imports. */
function describe(circle: readonly string[], graph: Graph): string {
  return circle.map((file) => `${file} -> ${(graph.get(file) ?? []).filter((t) => circle.includes(t)).join(', ')}`).join('\n');
}

const read = (files: string[]) => new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const sources = graphOf(read(sourceFiles('lib', '.ts')));
const circles = circlesOf(sources);

test('the reading finds every kind of import, and the circles they close', () => {
  const ts = new Map([
    ['lib/a/one.ts', "import type { B } from './two';\nexport const a = 1;"],
    ['lib/a/two.ts', "export { a } from '../a/one';\nexport type B = typeof import('../b').b;"],
    ['lib/b/index.ts', "import {\n  a,\n} from '../a/one';\nexport const b = a;"],
    ['lib/c.ts', "const { b } = require('./b');\nimport './a/one';\nimport { x } from 'elsewhere';"],
  ]);
  const graph = graphOf(ts);
  expect(graph.get('lib/a/two.ts')).toEqual(['lib/a/one.ts', 'lib/b/index.ts']);
  expect(graph.get('lib/c.ts')).toEqual(['lib/a/one.ts', 'lib/b/index.ts']);
  expect(circlesOf(graph)).toEqual([['lib/a/one.ts', 'lib/a/two.ts', 'lib/b/index.ts']]);
  expect(circlesOf(new Map([['x.ts', ['x.ts']], ['y.ts', []]]))).toEqual([['x.ts']]);
});

test('no import circles in lib/', () => {
  expect([...sources.keys()].filter((f) => f.startsWith('lib/')).length).toBeGreaterThan(100);
  expect(circles.map((c) => describe(c, sources))).toEqual([]);
});

test('the runtime, the keys and the model import only each other: never lib/manifest, lib/construct, lib/cli, lib/reports, lib/generate or lib/migrate', () => {
  const lambdaSide = /^lib\/(runtime|keys|model)\//;
  const files = [...sources.keys()].filter((f) => lambdaSide.test(f));
  expect(files.length).toBeGreaterThan(50);
  const above = files.flatMap((f) => (sources.get(f) ?? []).filter((t) => !lambdaSide.test(t)).map((t) => `${f} -> ${t}`));
  expect(above).toEqual([]);
});
