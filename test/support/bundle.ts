// Bundles a Lambda entry the way NodejsFunction does (esbuild, minified, platform node, @aws-sdk/*
// left to the Lambda runtime). Shared by the bundle test and the benchmarks.
import * as path from 'path';
import { build, BuildOptions, Metafile } from 'esbuild';

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

export async function bundle(entry: string): Promise<BundleResult> {
  const result = await build({
    ...LAMBDA_BUNDLE_OPTIONS,
    entryPoints: [path.join(ROOT, entry)],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0];
  const relative = (file: string) => path.relative(ROOT, path.resolve(process.cwd(), file));
  const inputs = Object.fromEntries(Object.entries(output.inputs).map(([file, info]) => [relative(file), info.bytesInOutput]));
  const code = result.outputFiles[0].text;
  return { code, bytes: Buffer.byteLength(code), inputs };
}
