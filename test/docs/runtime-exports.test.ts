// Every name `cdk-single-table/runtime` exports is listed in docs/runtime-reference.md's table of exports, and
// none of the generated code's helpers is among them (they live in `cdk-single-table/runtime/access`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { exportsOf } from '../support/module-exports';

const ROOT = join(__dirname, '..', '..');

const [runtime, access] = exportsOf(join(ROOT, 'lib', 'runtime', 'index.ts'), join(ROOT, 'lib', 'runtime', 'access', 'index.ts'));
const docs = readFileSync(join(ROOT, 'docs', 'runtime-reference.md'), 'utf8');
const listed = docs.slice(docs.indexOf('## Everything the module exports'), docs.indexOf('\n## ', docs.indexOf('## Everything the module exports') + 4));

test('every export of the runtime is listed in the docs, and the docs list no name it does not export', () => {
  const names = new Set(runtime.map((e) => e.name));
  expect(runtime.filter((e) => !listed.includes(`\`${e.name}\``)).map((e) => e.name)).toEqual([]);
  const inTables = [...listed.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Za-z_]+)`/g)].map((n) => n[1]));
  expect(inTables.filter((n) => !names.has(n))).toEqual([]);
});

test('the count of values the docs state is the count the module exports', () => {
  const values = runtime.filter((e) => e.value).length;
  expect(listed).toContain(`exports ${values} values`);
});

test('the helpers generated code is built on are not exports of the runtime', () => {
  const helpers = access.filter((e) => e.value).map((e) => e.name);
  expect(helpers.length).toBeGreaterThan(10);
  const names = new Set(runtime.map((e) => e.name));
  expect(helpers.filter((h) => names.has(h))).toEqual([]);
});

test('every error code the runtime raises has a row in the reference, and the reference lists no other', () => {
  const file = join(ROOT, 'lib', 'runtime', 'table', 'errors.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const alias = program.getSourceFile(file)!.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'RuntimeErrorCode')!;
  const type = checker.getTypeAtLocation(alias.name);
  const codes = (type.isUnion() ? type.types : [type]).map((t) => (t as ts.StringLiteralType).value);
  expect(codes.length).toBeGreaterThan(20);
  const start = docs.indexOf('## Error codes');
  const table = docs.slice(start, docs.indexOf('\n## ', start + 4));
  const rows = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]));
  expect(codes.filter((c) => !rows.includes(c))).toEqual([]);
  expect(rows.filter((c) => !codes.includes(c))).toEqual([]);
});
