// The stack of docs/migrations.md's backfill job, as a user copies it: it type-checks against the
// package's sources (standing in for `cdk-single-table`) with strict settings, and synthesizes the
// job it describes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import * as path from 'path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ts from 'typescript';
import { buildSegmentBundle } from '../../support/backfill-bundle';

const ROOT = path.join(__dirname, '..', '..', '..');
const MARK = '<!-- the block below is synthesized by test/construct/backfill/docs.test.ts -->';

let dir: string;
beforeAll(() => {
  buildSegmentBundle();
  const page = readFileSync(path.join(ROOT, 'docs', 'migrations.md'), 'utf8');
  const block = /^```ts\n([\s\S]*?)```/.exec(page.slice(page.indexOf(MARK) + MARK.length).trimStart());
  if (!block) throw new Error('docs/migrations.md has no ts block after the mark');
  mkdirSync(path.join(ROOT, 'cdk.out'), { recursive: true }); // absent in a fresh clone
  dir = mkdtempSync(path.join(ROOT, 'cdk.out', 'docs-backfill-'));
  const lib = path.relative(dir, path.join(ROOT, 'lib', 'index')).split(path.sep).join('/');
  writeFileSync(path.join(dir, 'stack.ts'), block[1].replace("from 'cdk-single-table'", `from '${lib}'`));
  const shop = path.relative(dir, path.join(ROOT, 'test', 'fixtures', 'shop')).split(path.sep).join('/');
  writeFileSync(path.join(dir, 'manifest.ts'), `import { shopManifest } from '${shop}';\nexport const manifest = shopManifest('B');\n`);
  writeFileSync(path.join(dir, 'manifest-before.ts'), `import { shopManifest } from '${shop}';\nexport const manifestBefore = shopManifest('A');\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the documented stack type-checks', () => {
  const program = ts.createProgram([path.join(dir, 'stack.ts')], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    ignoreDeprecations: '6.0',
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(errors).toEqual([]);
});

test('the documented stack synthesizes the job it describes', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OrdersStack } = require(path.join(dir, 'stack.ts'));
  const app = new App({ outdir: path.join(dir, 'out') });
  const template = Template.fromStack(new OrdersStack(app, 'Orders'));
  const machine = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0];
  const definition = (machine.Properties.DefinitionString['Fn::Join'][1] as unknown[]).filter((p) => typeof p === 'string').join('');
  expect(definition).toContain('"segments.$":"States.ArrayRange(0, 63, 1)"');
  expect(definition).toContain('"MaxConcurrency":16');
  template.hasResourceProperties('AWS::Lambda::Function', { Timeout: 900, Environment: { Variables: { BACKFILL_MAX_WRITE_UNITS_PER_SECOND: '125' } } });
  template.hasOutput('BackfillStateMachine', {});
});
