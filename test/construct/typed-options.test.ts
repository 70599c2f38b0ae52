// A misspelled pattern, entity or option of the construct's grants and stream consumer is a compile
// error for TypeScript callers of a table typed by its manifest (`SingleTableOf`); a client over a
// model typed `any` takes any name. ts-jest only transpiles tests, so this test runs the type
// checker on the fixture itself.
import * as path from 'path';
import * as ts from 'typescript';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'typed-construct.ts');
const config = ts.getParsedCommandLineOfConfigFile(path.join(__dirname, '..', 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
})!;
/** The fixture without its `@ts-expect-error` directives, type-checked in the same program. */
const BARE = FIXTURE.replace(/\.ts$/, '.bare.ts');
const host = ts.createCompilerHost(config.options);
const read = host.getSourceFile;
host.getSourceFile = (name, version, ...rest) => (path.resolve(name) === BARE
  ? ts.createSourceFile(name, ts.sys.readFile(FIXTURE)!.replace(/\/\/ @ts-expect-error/g, '//'), version)
  : read(name, version, ...rest));
host.fileExists = ((exists) => (name: string) => path.resolve(name) === BARE || exists(name))(host.fileExists);
const program = ts.createProgram([FIXTURE, BARE], { ...config.options, noEmit: true }, host);

/** Type errors of one of the two files, as `line: message`. */
function typeErrors(file: string): string[] {
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)!).map((d) => {
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

test('correct use compiles, a client over an `any` model included, and every expected error is there', () => {
  expect(typeErrors(FIXTURE)).toEqual([]);
});

test('without the directives, exactly the misspellings are errors', () => {
  const errors = typeErrors(BARE);
  expect(errors).toHaveLength(6);
  expect(errors[0]).toMatch(/"ordersByStatsu"' is not assignable/);
  expect(errors[1]).toMatch(/"orderByID"' is not assignable/);
  expect(errors[2]).toMatch(/"PUTT"' is not assignable to type 'WriteOperation'/);
  expect(errors[3]).toMatch(/"Ordr"' is not assignable/);
  expect(errors[4]).toMatch(/'pattern' does not exist/);
  expect(errors[5]).toMatch(/"orderByID"' is not assignable/);
});
