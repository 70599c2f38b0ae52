// Bundles a Lambda entry the way NodejsFunction does (esbuild, minified, platform node, @aws-sdk/*
// left to the Lambda runtime). Shared by the bundle test and the benchmarks.
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';
import { build, BuildOptions, Metafile, Plugin } from 'esbuild';

export interface BundleResult {
  /** The minified code. */
  readonly code: string;
  /** Minified bytes. */
  readonly bytes: number;
  /** Bytes each input contributes, by path relative to the repository. */
  readonly inputs: Record<string, number>;
}

export const ROOT = path.join(__dirname, '..', '..');

/** What NodejsFunction does with `minify: true` and `externalModules: ['@aws-sdk/*']`. */
export const LAMBDA_BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['@aws-sdk/*'],
};

/**
 * The file a bundler gets for `import ... from 'cdk-single-table/runtime'` (or `/runtime/access`):
 * package.json `exports`, `import` condition.
 */
export function packagedRuntime(subpath: './runtime' | './runtime/access' = './runtime'): string {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const file = path.join(ROOT, pkg.exports[subpath].import);
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: compile first (npx projen compile)`);
  return file;
}

/**
 * The repository's own code imports the runtime from its sources (`../lib/runtime`); a user's
 * code imports `cdk-single-table/runtime` from the installed package. This plugin sends every
 * import of the runtime's sources to what the package exports, so a bundle holds what users get.
 */
export const AS_PACKAGE: Plugin = {
  name: 'runtime-as-package',
  setup(b) {
    const source = path.join(ROOT, 'lib', 'runtime');
    b.onResolve({ filter: /(^|\/)lib\/runtime(\/access)?(\/index(\.ts)?)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path).replace(/\/index(\.ts)?$/, '');
      if (target === source) return { path: packagedRuntime() };
      return target === path.join(source, 'access') ? { path: packagedRuntime('./runtime/access') } : undefined;
    });
  },
};

export interface BundleOptions {
  /** Bundle the runtime as the published package delivers it (see AS_PACKAGE). Default false: from the sources. */
  readonly asPackage?: boolean;
}

export async function bundle(entry: string, options: BundleOptions = {}): Promise<BundleResult> {
  const result = await build({
    ...LAMBDA_BUNDLE_OPTIONS,
    entryPoints: [path.join(ROOT, entry)],
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: options.asPackage ? [AS_PACKAGE] : [],
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0];
  const relative = (file: string) => path.relative(ROOT, path.resolve(process.cwd(), file));
  const inputs = Object.fromEntries(Object.entries(output.inputs).map(([file, info]) => [relative(file), info.bytesInOutput]));
  const code = result.outputFiles[0].text;
  return { code, bytes: Buffer.byteLength(code), inputs };
}
