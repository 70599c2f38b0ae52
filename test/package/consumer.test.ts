// The package as a user's project consumes it: README's quick start, written into a fresh project
// whose node_modules holds this package (a link to the repository, as `npm install` of a local path
// makes), type-checked with the module resolutions CDK apps use, and its Lambda bundled as
// NodejsFunction bundles it. Needs the compiled package (out/): `npm test` compiles first.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { build, Metafile } from 'esbuild';
import * as ts from 'typescript';
import { LAMBDA_BUNDLE_OPTIONS, packagedRuntime, ROOT } from '../support/bundle';

let project: string;

/** The ```ts blocks of README's quick start, in order. */
function quickStartBlocks(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Quick start\n')[1].split('\n## ')[0];
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

beforeAll(() => {
  packagedRuntime(); // fails with "compile first" when out/ is missing
  project = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-consumer-'));
  const modules = path.join(project, 'node_modules');
  mkdirSync(path.join(modules, '@types'), { recursive: true });
  symlinkSync(ROOT, path.join(modules, 'cdk-single-table'), 'dir');
  for (const dep of ['aws-cdk-lib', 'constructs', '@aws-sdk', '@smithy', '@types/node']) {
    symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
  }
  // README's first block is the stack with the manifest; the Lambda imports the manifest from its
  // own module, so the manifest goes to manifest.ts and the stack imports it from there.
  const [stackBlock, lambdaBlock] = quickStartBlocks();
  const [head, app] = stackBlock.split('\nconst app = new App();');
  expect(app).toBeDefined();
  const manifestModule = head.split('\n').filter((l) => !/from 'aws-cdk-lib|from 'cdk-single-table';/.test(l)).join('\n');
  const imports = head.split('\n').filter((l) => /^import .* from 'aws-cdk-lib|from 'cdk-single-table';/.test(l)).join('\n');
  writeFileSync(path.join(project, 'manifest.ts'), manifestModule);
  writeFileSync(path.join(project, 'stack.ts'), `${imports}\nimport { manifest } from './manifest';\n\nconst app = new App();${app}`);
  writeFileSync(path.join(project, 'orders.ts'), lambdaBlock);
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Type errors of the project's three files under a module setting. */
function typeErrors(options: ts.CompilerOptions): string[] {
  const files = ['stack.ts', 'orders.ts'].map((f) => path.join(project, f));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    ignoreDeprecations: '6.0',
    ...options,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test.each([
  ['classic CommonJS (node10 resolution, which ignores package exports)', { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }],
  ['NodeNext', { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
])('README quick start type-checks against the package: %s', (_name, options) => {
  expect(typeErrors(options)).toEqual([]);
});

test("README quick start's Lambda bundles from the package's ES module build, without CDK code or validation rules", async () => {
  const result = await build({ ...LAMBDA_BUNDLE_OPTIONS, entryPoints: [path.join(project, 'orders.ts')], write: false, metafile: true, logLevel: 'silent' });
  const inputs = Object.keys(Object.values((result.metafile as Metafile).outputs)[0].inputs);
  expect(inputs.filter((i) => i.endsWith('out/runtime/index.mjs'))).toHaveLength(1);
  expect(inputs.filter((i) => /aws-cdk-lib|constructs|out\/(manifest|construct|keys)\//.test(i))).toEqual([]);
  const code = result.outputFiles[0].text;
  expect(code).toContain('require("@aws-sdk/client-dynamodb")');
  expect(code).not.toMatch(/SHARD_LOCK_|KEY_COLLISION/);
});
