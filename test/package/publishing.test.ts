// The package as the registries receive it: jsii-pacmak generates the Python, Java, .NET and Go
// sources from the jsii assembly, and the npm tarball holds what users run and nothing else.
// Needs the assembly (.jsii): `npm test` compiles first; run alone, the test builds it with jsii.
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The jsii assembly, built when absent. */
function assembly(): { targets: Record<string, unknown>; types: Record<string, unknown> } {
  const file = path.join(ROOT, '.jsii');
  if (!existsSync(file)) execFileSync(path.join(BIN, 'jsii'), ['--silence-warnings=reserved-word'], { cwd: ROOT, stdio: 'pipe' });
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every file under a directory, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

describe('jsii language targets', () => {
  let outdir: string;
  beforeAll(() => { outdir = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-pacmak-')); });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  test('package.json configures Python, Java, .NET and Go, and the assembly carries them', () => {
    expect(Object.keys(pkg.jsii.targets).sort()).toEqual(['dotnet', 'go', 'java', 'python']);
    expect(assembly().targets).toEqual(expect.objectContaining(pkg.jsii.targets));
  });

  // Generating sources needs no toolchain (only building the packages does), so every target runs here.
  test('jsii-pacmak --code-only generates each language\'s sources of SingleTable and the manifest structs', () => {
    const types = assembly().types;
    expect(Object.keys(types)).toEqual(expect.arrayContaining(['cdk-single-table.SingleTable', 'cdk-single-table.SingleTableGlobalIndexOptions', 'cdk-single-table.ISingleTable']));
    execFileSync(path.join(BIN, 'jsii-pacmak'), ['--code-only', '--outdir', outdir, '--target', 'python', '--target', 'java', '--target', 'dotnet', '--target', 'go'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const generated = (target: string) => filesUnder(path.join(outdir, target));
    expect(generated('python')).toEqual(expect.arrayContaining([expect.stringMatching(/cdk_single_table\/__init__\.py$/)]));
    expect(generated('java')).toEqual(expect.arrayContaining([expect.stringMatching(/dev\/cdksingletable\/SingleTable\.java$/), expect.stringMatching(/pom\.xml$/)]));
    expect(generated('dotnet')).toEqual(expect.arrayContaining([expect.stringMatching(/CdkSingleTable\/SingleTable\.cs$/)]));
    expect(generated('go')).toEqual(expect.arrayContaining([expect.stringMatching(/SingleTable\.go$/), expect.stringMatching(/go\.mod$/)]));
    const python = generated('python').find((f) => f.endsWith('cdk_single_table/__init__.py'))!;
    expect(readFileSync(path.join(outdir, 'python', python), 'utf8')).toMatch(/class SingleTable\(/);
  });
});

describe('npm package', () => {
  /** The files `npm pack` would publish. */
  function packed(): string[] {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return (JSON.parse(out)[0].files as { path: string }[]).map((f) => f.path);
  }

  test('holds the compiled library, its ES module runtime, the Python runtime package, the assembly and the docs users read; nothing else', () => {
    assembly();
    const files = packed();
    expect(files).toEqual(expect.arrayContaining([
      'package.json', 'README.md', 'LICENSE', 'API.md', '.jsii',
      'out/index.js', 'out/index.d.ts', 'out/runtime/index.js', 'out/runtime/index.mjs', 'out/runtime/index.d.ts', pkg.bin['single-table'],
      'out/testing/index.js', 'out/testing/index.d.ts', 'out/migrate/index.js', 'out/migrate/index.d.ts', 'out/model/schema.json',
      'out/backfill-segment/index.js',
    ]));
    // The Python runtime package's modules and py.typed, which the model layer of Python functions carries: no tests, bytecode or bench.
    const python = readdirSync(path.join(ROOT, 'python', 'single_table_runtime')).filter((f) => f.endsWith('.py') || f === 'py.typed').map((f) => `python/single_table_runtime/${f}`);
    expect(files.filter((f) => f.startsWith('python/')).sort()).toEqual(python.sort());
    const unexpected = files.filter((f) => !/^out\/.*\.(js|d\.ts|mjs)$/.test(f) && !python.includes(f)
      && !['package.json', 'README.md', 'LICENSE', 'API.md', '.jsii', 'out/model/schema.json'].includes(f));
    expect(unexpected).toEqual([]);
  });

  test('declares the Node.js versions it runs on and its SDK as optional', () => {
    expect(pkg.engines).toEqual({ node: '>= 20.0.0' });
    expect(pkg.optionalDependencies).toEqual({ '@aws-sdk/client-dynamodb': '^3' });
    expect(pkg.dependencies ?? {}).not.toHaveProperty('@aws-sdk/client-dynamodb');
    expect(pkg.peerDependencies).not.toHaveProperty('@aws-sdk/client-dynamodb');
  });
});
