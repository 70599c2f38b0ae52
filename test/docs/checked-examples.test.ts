// Every code block of README.md and docs/ a reader is told to copy or run is checked by a test, and
// says which (test/docs/doc-blocks.ts lists the markers). Here, every TypeScript block type-checks
// as written, in one program: against the package's entry points as a user imports them
// (`cdk-single-table`, `/runtime`, `/migrate`, `/testing`) and the example app's manifest
// (`./manifest`, `./manifest.model.json`, `./manifest.access`); the quick start's files beside
// each other, as a user writes them.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { allBlocks, checkedFiles, checkMarker, DocBlock, ROOT } from './doc-blocks';

const blocks = allBlocks();
const place = (b: DocBlock) => `${b.page}:${b.line}`;
const testFileOf = (b: DocBlock) => /^<!-- the block below is (?:synthesized|run) by (\S+) -->$/.exec(b.marker ?? '')?.[1];

test('every TypeScript block is type-checked, and every command block is run by a test or says why not', () => {
  const unchecked = blocks.filter((b) => b.lang === 'ts')
    .filter((b) => !checkMarker(b) && !/^<!-- quick-start: file \S+ -->$/.test(b.marker ?? '') && !testFileOf(b));
  expect(unchecked.map(place)).toEqual([]);
  const unrun = blocks.filter((b) => b.lang === 'sh')
    .filter((b) => !/^<!-- (quick-start: run|not run by a test: .+) -->$/.test(b.marker ?? '') && !testFileOf(b));
  expect(unrun.map(place)).toEqual([]);
  // Python blocks: docs/python.md's are run by pytest (python: markers); none elsewhere goes unmarked.
  expect(blocks.filter((b) => b.lang === 'python' && !b.marker).map(place).filter((p) => !p.startsWith('docs/python.md'))).toEqual([]);
  const missing = blocks.map(testFileOf).filter((f): f is string => f !== undefined).filter((f) => !existsSync(join(ROOT, f)));
  expect(missing).toEqual([]);
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdk-single-table-docs-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'manifest.ts'), `export { manifest } from ${JSON.stringify(join(ROOT, 'examples', 'manifest'))};\n`);
  copyFileSync(join(ROOT, 'examples', 'manifest.model.json'), join(dir, 'manifest.model.json'));
  writeFileSync(join(dir, 'manifest.access.ts'), `export * from ${JSON.stringify(join(ROOT, 'examples', 'manifest.access'))};\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('every TypeScript block type-checks, in one program', () => {
  const files: string[] = [];
  for (const [name, { text }] of checkedFiles(blocks)) {
    writeFileSync(join(dir, name), text);
    files.push(join(dir, name));
  }
  // The quick start (README and docs/testing.md) is one project: its files import each other.
  mkdirSync(join(dir, 'quick-start'));
  for (const b of blocks) {
    const name = /^<!-- quick-start: file (\S+\.ts) -->$/.exec(b.marker ?? '')?.[1];
    if (b.lang !== 'ts' || !name) continue;
    writeFileSync(join(dir, 'quick-start', name), b.text);
    files.push(join(dir, 'quick-start', name));
  }
  expect(files.length).toBeGreaterThan(30);
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(files, {
    ...config.options,
    // A handler bundled as an ES module, as NodejsFunction bundles it: top-level await, imports without extensions.
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    // An example may name a value it does not use further.
    noUnusedLocals: false,
    noUnusedParameters: false,
    noEmit: true,
    rootDir: '/',
    paths: {
      'cdk-single-table/runtime': [join(ROOT, 'lib', 'runtime', 'index.ts')],
      'cdk-single-table/migrate': [join(ROOT, 'lib', 'migrate', 'index.ts')],
      'cdk-single-table/testing': [join(ROOT, 'lib', 'testing', 'index.ts')],
      'cdk-single-table': [join(ROOT, 'lib', 'index.ts')],
    },
  });
  // Only the blocks' own diagnostics: the library's sources are type-checked by its build, and
  // checking every file the blocks reach would take most of this test's time.
  const ofFile = (f: string) => {
    const source = program.getSourceFile(f);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  };
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...files.flatMap(ofFile)];
  const errors = diagnostics.map((d) => {
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${d.file?.fileName.replace(dir + '/', '') ?? ''}:${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(errors).toEqual([]);
});
