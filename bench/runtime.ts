// `npx ts-node bench/runtime.ts` (`-- --quick` for a short run): the runtime helper's own figures,
// written to bench/results/runtime.json.
//  1. PutItem and Query input building for the benchmark's Order (bench/model) against the
//     hand-written AttributeValue builder (bench/peers/hand-written.ts): interleaved rounds, each
//     round timing both for the same slice of work, the median of the per-round speed ratios;
//     through the generated access functions the bench handler calls (the targets' path), and
//     through the generic operations; every builder bundled as a Lambda runs it (bench/peers/bundled.ts).
//  2. Minified size of the example handler bundled as NodejsFunction does (@aws-sdk/* external),
//     with the bytes each module contributes.
//  3. Cold require of the runtime vs of the SDK alone: pairs of fresh node processes in
//     alternating order, the median of the paired differences. Plus the one-time load of the
//     example's compiled model file that openTable does at cold start.
import { execFileSync } from 'child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { Order, sampleOrders } from './model/order';
import { bundledPeers } from './peers/bundled';
import { BATCH, compileLoop } from './throughput';
import { loadModel } from '../lib/runtime/table/load-model';
import { bundle } from '../test/support/bundle';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 7 : 31;
const OPS_PER_ROUND = quick ? 5_000 : 20_000;
const REQUIRE_PAIRS = quick ? 10 : 40;
const RESULTS = path.join(__dirname, 'results');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Keeps results alive so the optimizer cannot drop the work. */
let sink = 0;

// Each builder runs in a loop of its own (see compileLoop): one loop calling both would time the
// dispatch between them too.
const loops = new Map<(x: any) => object, (from: number) => unknown>();

function timeOps<T>(inputs: T[], build1: (x: T) => object): number {
  let loop = loops.get(build1);
  if (!loop) loops.set(build1, loop = compileLoop(build1, inputs));
  const start = process.hrtime.bigint();
  for (let i = 0; i < OPS_PER_ROUND; i += BATCH) sink += loop(i) === undefined ? 1 : 0;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median over rounds of (hand-written time / our time): our speed as a fraction of hand-written. */
function speedRatio<T>(inputs: T[], mine: (x: T) => object, reference: (x: T) => object) {
  for (let i = 0; i < 3; i++) timeOps(inputs, mine), timeOps(inputs, reference); // warm-up: JIT both
  const ratios: number[] = [];
  const oursNs: number[] = [];
  const refNs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on a warmer or cooler machine.
    const [a, b] = r % 2 ? [timeOps(inputs, reference), timeOps(inputs, mine)] : [0, 0];
    const [m, h] = r % 2 ? [b, a] : [timeOps(inputs, mine), timeOps(inputs, reference)];
    ratios.push(h / m);
    oursNs.push((m * 1e6) / OPS_PER_ROUND);
    refNs.push((h * 1e6) / OPS_PER_ROUND);
  }
  return { ratio: median(ratios), oneIn: 1 / median(ratios), oursNsPerOp: median(oursNs), handWrittenNsPerOp: median(refNs) };
}

async function requireTimes() {
  mkdirSync(RESULTS, { recursive: true });
  const runtimeFile = path.join(RESULTS, 'runtime-bundle.tmp');
  // The runtime as Lambda loads it: one minified file, the SDK required from node_modules, and
  // only what a put + query handler reaches (openTable, putItem, query), from the package's ES module build (as a
  // user's `import ... from 'cdk-single-table/runtime'` resolves; it needs a compile first).
  await build({
    stdin: { contents: "export { openTable, putItem, query } from 'cdk-single-table/runtime';", resolveDir: path.join(__dirname, '..'), loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['@aws-sdk/*'],
    outfile: runtimeFile,
    logLevel: 'silent',
  });
  const timed = (what: string) => Number(execFileSync(process.execPath, ['-e',
    `const t=process.hrtime.bigint();require(${JSON.stringify(what)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`], { cwd: path.join(__dirname, '..') }).toString());
  const sdk: number[] = [];
  const runtime: number[] = [];
  const diffs: number[] = [];
  for (let i = 0; i < REQUIRE_PAIRS; i++) {
    const pair = i % 2 ? [timed(runtimeFile), timed('@aws-sdk/client-dynamodb')].reverse() : [timed('@aws-sdk/client-dynamodb'), timed(runtimeFile)];
    sdk.push(pair[0]);
    runtime.push(pair[1]);
    diffs.push(pair[1] - pair[0]);
  }
  // What openTable does at cold start besides the require: parse the model file (as a bundled JSON
  // module is, once) and load it (format check, deep freeze).
  const text = readFileSync(path.join(__dirname, '..', 'examples', 'manifest.model.json'), 'utf8');
  const loads: number[] = [];
  for (let i = 0; i < (quick ? 20 : 100); i++) {
    const start = process.hrtime.bigint();
    sink += loadModel(JSON.parse(text)).fingerprint.length;
    loads.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return {
    pairs: REQUIRE_PAIRS,
    sdkMs: median(sdk),
    runtimeIncludingSdkMs: median(runtime),
    addedMsMedianOfPairedDifferences: median(diffs),
    exampleModelLoadMsMedian: median(loads),
    exampleModelFirstLoadMs: loads[0],
  };
}

async function main() {
  const orders = sampleOrders(1000);
  const statuses = orders.map((o) => o.status);
  // The builders as a Lambda runs them: bundled (see bench/peers/bundled.ts).
  const { PEERS, OURS, OURS_GENERIC, REFERENCE } = bundledPeers();
  const peer = (name: string) => PEERS.find((p) => p.name === name)! as { buildPut: (o: Order) => object; buildQuery: (s: string) => object };
  const [handWritten, oursAccess, ours] = [peer(REFERENCE), peer(OURS), peer(OURS_GENERIC)];
  const put = speedRatio(orders, oursAccess.buildPut, handWritten.buildPut);
  const query = speedRatio(statuses, oursAccess.buildQuery, handWritten.buildQuery);
  const genericPut = speedRatio(orders, ours.buildPut, handWritten.buildPut);
  const genericQuery = speedRatio(statuses, ours.buildQuery, handWritten.buildQuery);
  const handler = await bundle('examples/handler.ts');
  const byModule = Object.entries(handler.inputs).sort((a, b) => b[1] - a[1]);
  const group = (prefix: string) => byModule.filter(([f]) => f.startsWith(prefix)).reduce((n, [, b]) => n + b, 0);
  const requires = await requireTimes();
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
    config: { rounds: ROUNDS, opsPerRound: OPS_PER_ROUND },
    // The targets are judged on the generated access functions (the module's putItem and query up to send).
    putItemInput: { ...put, path: 'generated access functions', target: '>= 1/3 of hand-written speed', met: put.ratio >= 1 / 3 },
    queryInput: { ...query, path: 'generated access functions', target: '>= 1/3 of hand-written speed', met: query.ratio >= 1 / 3 },
    genericPutItemInput: { ...genericPut, path: 'generic operations (putItem)' },
    genericQueryInput: { ...genericQuery, path: 'generic operations (query)' },
    exampleHandlerBundle: {
      bytes: handler.bytes,
      target: '<= 24 KB (24576 bytes) minified',
      met: handler.bytes <= 24 * 1024,
      groups: {
        runtime: group('lib/runtime/'),
        keys: group('lib/keys/'),
        manifestCompiler: group('lib/manifest/'),
        exampleManifestAndHandler: group('examples/'),
      },
      byModule: Object.fromEntries(byModule),
    },
    requireTime: { ...requires, target: '<= +1.5 ms over requiring the SDK', met: requires.addedMsMedianOfPairedDifferences <= 1.5 },
    sink,
  };
  writeFileSync(path.join(RESULTS, 'runtime.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(JSON.stringify({
    putItemInput: results.putItemInput,
    queryInput: results.queryInput,
    genericPutItemInput: results.genericPutItemInput,
    genericQueryInput: results.genericQueryInput,
    bundle: { bytes: handler.bytes, groups: results.exampleHandlerBundle.groups },
    requireTime: results.requireTime,
  }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
