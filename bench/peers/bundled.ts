// Every library's builders as a Lambda runs them: bench/peers bundled by esbuild as NodejsFunction
// bundles a handler (one file, one module scope, @aws-sdk/* left to the runtime), then required.
// Required from their sources through ts-node instead, each call from one module of a library into
// another goes through CommonJS interop (a re-export is a getter on the exports object): a cost and
// a spread between runs that no bundle has, and that only the libraries pay, since the hand-written
// builder imports nothing (docs/performance.md has the figures of both harnesses).
import * as path from 'path';
import { buildSync } from 'esbuild';

const OUT = path.join(__dirname, '..', 'results', 'peers-bundle.tmp');

/** The builders of bench/peers/index.ts, from a fresh bundle of it. */
export function bundledPeers(): typeof import('./index') {
  buildSync({
    entryPoints: [path.join(__dirname, 'index.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['@aws-sdk/*'],
    outfile: OUT,
    logLevel: 'warning',
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(OUT);
}
