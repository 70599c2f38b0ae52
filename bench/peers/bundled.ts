// Every library's builders as a Lambda runs them: bench/peers bundled by esbuild as NodejsFunction
// bundles a handler (one file, one module scope, @aws-sdk/* left to the runtime), then required.
// Required from their sources through ts-node instead, each call from one module into another goes
// through CommonJS interop, and a call of a name re-exported by `lib/runtime`'s index (every
// runtime helper a generated access module calls) through a getter: costs no bundle has, paid by
// this library's TypeScript sources only, since the peers are required as their packages ship them
// and the hand-written builder imports only a constant and calls no library code
// (bench/history.md has the figures of both harnesses).
import { rmSync } from 'fs';
import * as path from 'path';
import { buildSync } from 'esbuild';

/** The builders of bench/peers/index.ts, from a fresh bundle of it. */
export function bundledPeers(): typeof import('./index') {
  // One file per process, beside the sources so that Node resolves the SDK from node_modules; a
  // bench and a test running at once each load their own.
  const out = path.join(__dirname, '..', 'results', `peers-bundle-${process.pid}.tmp`);
  buildSync({
    entryPoints: [path.join(__dirname, 'index.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['@aws-sdk/*'],
    outfile: out,
    logLevel: 'warning',
  });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(out);
  } finally {
    rmSync(out, { force: true });
  }
}
