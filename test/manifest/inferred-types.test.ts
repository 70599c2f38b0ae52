// Typos in attribute names, pattern inputs and pattern names are compile errors for TypeScript
// users. ts-jest only transpiles tests (isolatedModules), so this test runs the type checker on a
// fixture file itself.
import * as path from 'path';
import * as ts from 'typescript';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'inferred-types.ts');
const config = ts.getParsedCommandLineOfConfigFile(path.join(__dirname, '..', 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
})!;

/** Type errors in the fixture, after an optional rewrite of its text, as `line: message`. */
function typeErrors(rewrite: (text: string) => string = (t) => t): string[] {
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, version, ...rest) =>
    path.resolve(name) === FIXTURE ? ts.createSourceFile(name, rewrite(ts.sys.readFile(FIXTURE)!), version) : getSourceFile(name, version, ...rest);
  const program = ts.createProgram([FIXTURE], { ...config.options, noEmit: true }, host);
  const file = program.getSourceFile(FIXTURE)!;
  return ts.getPreEmitDiagnostics(program, file).map((d) => {
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

test('correct use compiles and every expected typo error is there', () => {
  expect(typeErrors()).toEqual([]);
});

test('without the directives, exactly the typos, the child-only input, the input outside a multi-attribute key, the returned date taken for a Date and the typos on a table of compileModelFile are errors', () => {
  const errors = typeErrors((text) => text.replace(/\/\/ @ts-expect-error/g, '//'));
  expect(errors).toHaveLength(8);
  expect(errors[0]).toMatch(/'notes' does not exist/);
  expect(errors[1]).toMatch(/'statuss' does not exist/);
  expect(errors[2]).toMatch(/'lineNo' does not exist/);
  expect(errors[3]).toMatch(/'orderId' does not exist/);
  expect(errors[4]).toMatch(/"orderByStatus"' is not assignable/);
  expect(errors[5]).toMatch(/Type 'string' is not assignable to type 'Date'/);
  // A client and a table opened on compileModelFile(manifest) are typed from it.
  expect(errors[6]).toMatch(/"orderByStatus"' is not assignable/);
  expect(errors[7]).toMatch(/"orderByStatus"' is not assignable/);
});
