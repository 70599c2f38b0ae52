// Type-checks the tests, the example app and the benchmarks (`npx projen typecheck`), as
// `tsc --noEmit -p <folder>/tsconfig.json` would for each folder, but in one TypeScript program:
// the three share the library and aws-cdk-lib's declarations, which one program parses once. The
// library's own files are not checked again here (jsii checks them in `compile`, with the same
// options); they are only read for the types the checked files use. Prints a line per folder.
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const FOLDERS = ['test', 'examples', 'bench'];
// jsii compiles and checks lib/ (see `compile`), with the options of the root tsconfig.json
const CHECKED_BY_JSII = path.join(ROOT, 'lib') + path.sep;

const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

function readConfig(folder: string): ts.ParsedCommandLine {
  const file = path.join(ROOT, folder, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) });
  if (!parsed) return fail([]);
  if (parsed.errors.length > 0) fail(parsed.errors);
  return parsed;
}

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

/**
 * The options that decide what the check reports. Left out: where the config file is, what only
 * matters to emitting (nothing is emitted), and isolatedModules, which test/tsconfig.json sets for
 * ts-jest's file-by-file transpiling while the check sees the whole program.
 */
function checkOptions({ configFilePath, pathsBasePath, stripInternal, isolatedModules, ...rest }: ts.CompilerOptions): ts.CompilerOptions {
  return rest;
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

const started = Date.now();
process.stdout.write(`typecheck: reading ${FOLDERS.map((f) => `${f}/`).join(', ')} and what they import\n`);
const configs = FOLDERS.map((folder) => ({ folder, config: readConfig(folder) }));
const options = checkOptions(configs[0].config.options);
const different = configs
  .filter(({ config }) => JSON.stringify(checkOptions(config.options)) !== JSON.stringify(options))
  .map(({ folder }) => folder);
if (different.length > 0) {
  throw new Error(`${different.join(', ')}/tsconfig.json compile(s) with other options than ${FOLDERS[0]}/tsconfig.json: give the folders the same options, or check them in separate programs`);
}
const program = ts.createProgram({ rootNames: [...new Set(configs.flatMap(({ config }) => config.fileNames))], options });
const programDiagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
process.stdout.write(`typecheck: ${program.getSourceFiles().length} files read in ${seconds(started)}\n`);

let errors = programDiagnostics.length;
if (programDiagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(programDiagnostics, host));
const checked = new Set<string>();
for (const { folder, config } of configs) {
  const folderStarted = Date.now();
  const files = config.fileNames.map(path.normalize).filter((f) => !checked.has(f));
  const diagnostics = files.flatMap((f) => {
    checked.add(f);
    const source = program.getSourceFile(f)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  });
  errors += diagnostics.length;
  if (diagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.stdout.write(`typecheck: ${folder}/ ${files.length} files, ${diagnostics.length} error(s) in ${seconds(folderStarted)}\n`);
}
// Files the folders import from elsewhere (not lib/, not declarations) are checked too, as tsc does.
const others = program.getSourceFiles()
  .filter((s) => !s.isDeclarationFile && !checked.has(path.normalize(s.fileName)) && !path.normalize(s.fileName).startsWith(CHECKED_BY_JSII));
const otherDiagnostics = others.flatMap((s) => [...program.getSyntacticDiagnostics(s), ...program.getSemanticDiagnostics(s)]);
errors += otherDiagnostics.length;
if (otherDiagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(otherDiagnostics, host));
if (others.length > 0) process.stdout.write(`typecheck: ${others.length} file(s) they import from elsewhere, ${otherDiagnostics.length} error(s)\n`);
process.stdout.write(`typecheck: ${errors} error(s) in ${seconds(started)}\n`);
if (errors > 0) process.exit(1);
