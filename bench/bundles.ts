// Bundle size: each library's minimal handler (bench/handlers) bundled as NodejsFunction bundles
// it (esbuild, minified, platform node, target node20, @aws-sdk/* left to the Lambda runtime).
// The bundles are kept for the cold-require benchmark, under bench/results/bundles.tmp (ignored
// by git), where `require` still finds @aws-sdk/* in the project's node_modules.
import { mkdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { gzipSync } from 'zlib';
import { build } from 'esbuild';
import { OURS_GENERIC } from './peers';
import { AS_PACKAGE, LAMBDA_BUNDLE_OPTIONS } from '../test/support/bundle';

export interface Handler {
  readonly name: string;
  readonly entry: string;
}

export interface BundleSize {
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export const BUNDLE_DIR = join(__dirname, 'results', 'bundles.tmp');

const handler = (name: string, entry = join(__dirname, 'handlers', `${name}.ts`)): Handler => ({ name, entry });

/**
 * One per library, the reference first; ours also as the README's quick start writes it (the runtime's
 * operations, no generated code), and the example app's handler, which serves every pattern of a bigger manifest.
 */
export const HANDLERS: readonly Handler[] = [
  handler('hand-written'),
  handler('cdk-single-table'),
  handler('cdk-single-table (get only)', join(__dirname, 'handlers', 'cdk-single-table-get.ts')),
  handler(OURS_GENERIC, join(__dirname, 'handlers', 'cdk-single-table-generic.ts')),
  handler('dynamodb-toolbox'),
  handler('dynamodb-onetable'),
  handler('electrodb'),
  handler('cdk-single-table (example app)', join(__dirname, '..', 'examples', 'handler.ts')),
];

export async function measureBundles(handlers: readonly Handler[] = HANDLERS): Promise<BundleSize[]> {
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const sizes: BundleSize[] = [];
  for (const h of handlers) {
    const file = join(BUNDLE_DIR, `${h.name.replace(/[^\w-]+/g, '_')}.js`);
    // Our handlers import the runtime's sources; bundle the package's module instead, as users get it.
    await build({ ...LAMBDA_BUNDLE_OPTIONS, entryPoints: [h.entry], outfile: file, logLevel: 'error', plugins: [AS_PACKAGE] });
    const code = readFileSync(file);
    sizes.push({ name: h.name, file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length });
  }
  return sizes;
}
