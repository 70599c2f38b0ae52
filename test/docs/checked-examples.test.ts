// The documentation's code blocks marked `<!-- check: NAME -->` type-check as written, against the
// sources and the example app's manifest (`./manifest`, `./manifest.model.json`, `./manifest.access`), so an example
// that drifts from the API fails here rather than in a reader's editor.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const PAGES = ['docs/runtime.md', 'docs/construct.md', 'docs/migrations.md', 'docs/manifest.md', 'docs/advice.md'];

function checkedBlocks(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const page of PAGES) {
    for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/<!-- check: (\S+) -->\n```ts\n([\s\S]*?)```/g)) files[m[1]] = m[2];
  }
  return files;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdk-single-table-docs-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'manifest.ts'), `export { manifest } from ${JSON.stringify(join(ROOT, 'examples', 'manifest'))};\n`);
  copyFileSync(join(ROOT, 'examples', 'manifest.model.json'), join(dir, 'manifest.model.json'));
  writeFileSync(join(dir, 'manifest.access.ts'), `export * from ${JSON.stringify(join(ROOT, 'examples', 'manifest.access'))};\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the access module, billing, stream decoding, stream consumer, unique-value release, backfill and multi-attribute key examples are there and type-check', () => {
  const blocks = checkedBlocks();
  expect(Object.keys(blocks).sort()).toEqual(['access-handler.ts', 'advice.ts', 'attribute-keys.ts', 'billing-stack.ts', 'migrate.ts', 'stream-consumer.ts', 'stream-stack.ts', 'unique-release.ts']);
  for (const [name, text] of Object.entries(blocks)) writeFileSync(join(dir, name), text);
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(Object.keys(blocks).map((n) => join(dir, n)), {
    ...config.options,
    noEmit: true,
    rootDir: '/',
    paths: {
      'cdk-single-table/runtime': [join(ROOT, 'lib', 'runtime', 'index.ts')],
      'cdk-single-table/migrate': [join(ROOT, 'lib', 'migrate', 'index.ts')],
      'cdk-single-table': [join(ROOT, 'lib', 'index.ts')],
    },
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(errors).toEqual([]);
});
