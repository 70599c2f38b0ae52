// `npm run bench` (`-- --quick` for a short run): every side-by-side benchmark in one run, on one
// model (bench/model). Prints a table and writes bench/results/bench.json with the machine.
// `-- --dynalite` adds the sharded-query sweep on dynalite (bench/sharded-query.ts), which serves
// one request at a time and so times the engine more than the fan-out.
// Never part of `npm test`; test/bench/models.test.ts proves the libraries build the same inputs.
import { execFileSync } from 'child_process';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { HANDLERS, measureBundles } from './bundles';
import { describeMachine } from './machine';
import { OURS, OURS_GENERIC, REFERENCE } from './peers';
import { bundledPeers } from './peers/bundled';
import { measureRequireTimes, spreadText } from './require-time';
import { runShardedFanOut } from './sharded-fanout';
import { runShardedQuery } from './sharded-query';
import { significant } from './stats';
import { measureSynth } from './synth';
import { loopOverheadNs, measureThroughput } from './throughput';

const quick = process.argv.includes('--quick');
const withDynalite = process.argv.includes('--dynalite');
const CONFIG = quick
  ? { requireRounds: 15, throughputRounds: 5, sliceMs: 50, synthRounds: 5, sharded: { rounds: 5, roundTripsMs: [0, 5] }, fanOut: { rounds: 7 } }
  : {
    requireRounds: 60,
    throughputRounds: 20,
    sliceMs: 100,
    synthRounds: 15,
    sharded: { rounds: 25, roundTripsMs: [0, 2, 5, 10] },
    fanOut: { rounds: 15 },
  };

// The runtime's targets (ms over the hand-written handler, input building against hand-written) and
// its bundle guards (bytes minified, through the package): the budgets test/runtime/bundle.test.ts
// holds every bundle to, just above what each shape measures, so a run shows a regression here too.
const TARGETS = {
  putQueryBytes: 23_200,
  getBytes: 8_550,
  exampleBytes: 47_500,
  minBuildRatio: 1 / 3,
  requireOverSdkMs: 1.5,
  fanOutRatio: 1.1,
  quickStartBytes: 47_500,
  quickStartRequireMs: 2,
  quickStartBuildRatio: 1 / 4,
};
const OURS_GET = 'cdk-single-table (get only)';
const OURS_EXAMPLE = 'cdk-single-table (example app)';

/** 0.25 -> "1/4", 1.3 -> "1.3x": a speed ratio as the results table prints it. */
const ratioText = (r: number) => (r >= 1 ? `${significant(r, 2)}x` : `1/${significant(1 / r, 2)}`);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * bench/runtime.ts, the runtime's own figures (module sizes, require of the runtime alone, the
 * manifest compile at cold start), runs as its author wrote it, in its own process, and prints
 * its summary; its JSON is folded into bench.json rather than measured twice.
 */
function runRuntimeBench(): unknown {
  const args = ['-r', 'ts-node/register/transpile-only', join(__dirname, 'runtime.ts'), ...(quick ? ['--quick'] : [])];
  execFileSync(process.execPath, args, { cwd: join(__dirname, '..'), stdio: 'inherit' });
  return JSON.parse(readFileSync(join(__dirname, 'results', 'runtime.json'), 'utf8'));
}

async function main(): Promise<void> {
  const machine = describeMachine();
  console.log(`${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, load ${machine.loadAverage.join(' ')}${quick ? ' (quick run)' : ''}`);

  console.log('\nbundling the minimal handlers ...');
  const bundles = await measureBundles(HANDLERS);
  console.log(`cold require, ${CONFIG.requireRounds} rounds ...`);
  const requireTimes = measureRequireTimes(bundles, REFERENCE, CONFIG.requireRounds);
  console.log(`input building, ${CONFIG.throughputRounds} rounds of ${CONFIG.sliceMs} ms slices ...`);
  // Each library as a Lambda runs it: bundled (see bench/peers/bundled.ts).
  const throughput = await measureThroughput(bundledPeers().PEERS, REFERENCE, { rounds: CONFIG.throughputRounds, sliceMs: CONFIG.sliceMs });
  const loopNs = { put: loopOverheadNs('put', CONFIG.sliceMs, CONFIG.throughputRounds), query: loopOverheadNs('query', CONFIG.sliceMs, CONFIG.throughputRounds) };
  console.log(`synth, ${CONFIG.synthRounds} rounds ...`);
  const synth = measureSynth(CONFIG.synthRounds);
  let shardedQuery;
  if (withDynalite) {
    console.log('sharded query on dynalite (bench/sharded-query.ts) ...');
    shardedQuery = await runShardedQuery(CONFIG.sharded);
  }
  console.log('sharded fan-out on a concurrent in-memory engine (bench/sharded-fanout.ts) ...');
  const shardedFanOut = await runShardedFanOut(CONFIG.fanOut);
  console.log('the runtime on its own (bench/runtime.ts) ...');
  const runtime = runRuntimeBench();

  const speedColumns = (name: string) => {
    const speed = (op: string) => throughput.find((t) => t.name === name && t.operation === op);
    const put = speed('put');
    const query = speed('query');
    const text = (t: typeof put) => (t ? `${ratioText(t.ratio)} (${ratioText(t.ratioP25)} to ${ratioText(t.ratioP75)})` : '');
    return { 'PutItem input': text(put), 'Query input': text(query) };
  };
  const rows = HANDLERS.map(({ name }) => {
    const size = bundles.find((b) => b.name === name)!;
    const req = requireTimes.find((t) => t.name === name)!;
    return {
      'library': name,
      'bundle': kb(size.bytes),
      'gzip': kb(size.gzipBytes),
      'process ms': req.overNodeMs as number | string,
      'require vs hand-written, ms': spreadText(req.overReferenceMs),
      'CPU ms': spreadText(req.overReferenceCpuMs),
      ...speedColumns(name),
    };
  });
  console.log('\nbundle: minified, @aws-sdk/* external; process: median extra wall ms of a process requiring the bundle over `node -e 0`;');
  console.log('require vs hand-written: the require call (every @aws-sdk module the bundle requires loaded before), median of paired differences (interquartile range), wall and CPU;');
  console.log('PutItem / Query input: median speed ratio to the hand-written builder, interleaved rounds, every library bundled by esbuild as a Lambda runs it; cdk-single-table: the generated access functions');
  console.log(`  the bench handler calls (itemPutRequest, patternRequest: the module's putItem / query up to send), ${OURS_GENERIC}: putItem / query up to send`);
  console.table(rows);
  console.log(`synth (construct + app.synth()): SingleTable ${synth.singleTableMs} ms, plain TableV2 ${synth.plainTableV2Ms} ms, ratio ${synth.ratio}x`);
  const referenceNs = (op: 'put' | 'query') => 1e9 / throughput.find((t) => t.name === REFERENCE && t.operation === op)!.opsPerSecond;
  console.log(`input building loop alone: ${significant(loopNs.put, 2)} ns per PutItem build (hand-written ${significant(referenceNs('put'), 3)} ns), `
    + `${significant(loopNs.query, 2)} ns per Query build (hand-written ${significant(referenceNs('query'), 3)} ns)`);
  if (shardedQuery) {
    console.log('sharded query on dynalite, 10 shards, ratio to the unsharded query (parallel / sequential fan-out):');
    console.table(shardedQuery.results.map((r) => ({ 'round trip ms': r.roundTripMs, 'n': r.n, 'parallel': `${r.ratio.parallel}x`, 'sequential': `${r.ratio.sequential}x` })));
  }

  console.log('sharded fan-out, 10 shards vs unsharded, concurrent in-memory engine:');
  console.table(shardedFanOut.results.map((r) => ({ 'client': r.client, 'latency ms': r.latencyMs, 'n': r.n, 'ratio': `${r.ratio}x` })));

  const ours = (op: string) => throughput.find((t) => t.name === OURS && t.operation === op)!.ratio;
  const bytesOf = (name: string) => bundles.find((b) => b.name === name)!.bytes;
  const bundleTarget = (name: string, limit: number) => ({ target: `<= ${limit} bytes`, measured: `${bytesOf(name)} bytes`, met: bytesOf(name) <= limit });
  const oursRequire = requireTimes.find((t) => t.name === OURS)!;
  const genericRequire = requireTimes.find((t) => t.name === OURS_GENERIC)!;
  const generic = (op: string) => throughput.find((t) => t.name === OURS_GENERIC && t.operation === op)!.ratio;
  const fanOut = shardedFanOut.results.filter((r) => r.client === 'send stand-in' && r.latencyMs === 10);
  const targets = {
    putQueryBundle: bundleTarget(OURS, TARGETS.putQueryBytes),
    getBundle: bundleTarget(OURS_GET, TARGETS.getBytes),
    exampleBundle: bundleTarget(OURS_EXAMPLE, TARGETS.exampleBytes),
    // Judged on the path the bench handler runs: the generated access functions.
    putInput: { target: '>= 1/3 of hand-written (generated access functions)', measured: ratioText(ours('put')), met: ours('put') >= TARGETS.minBuildRatio },
    queryInput: { target: '>= 1/3 of hand-written (generated access functions)', measured: ratioText(ours('query')), met: ours('query') >= TARGETS.minBuildRatio },
    require: {
      target: `<= +${TARGETS.requireOverSdkMs} ms over the hand-written handler`,
      measured: `${spreadText(oursRequire.overReferenceMs)} ms wall, ${spreadText(oursRequire.overReferenceCpuMs)} ms CPU`,
      met: oursRequire.overReferenceMs.median <= TARGETS.requireOverSdkMs,
    },
    quickStartBundle: bundleTarget(OURS_GENERIC, TARGETS.quickStartBytes),
    quickStartRequire: {
      target: `<= +${TARGETS.quickStartRequireMs} ms over the hand-written handler (no generated code)`,
      measured: `${spreadText(genericRequire.overReferenceMs)} ms wall, ${spreadText(genericRequire.overReferenceCpuMs)} ms CPU`,
      met: genericRequire.overReferenceMs.median <= TARGETS.quickStartRequireMs,
    },
    quickStartPutInput: { target: '>= 1/4 of hand-written (no generated code)', measured: ratioText(generic('put')), met: generic('put') >= TARGETS.quickStartBuildRatio },
    quickStartQueryInput: { target: '>= 1/4 of hand-written (no generated code)', measured: ratioText(generic('query')), met: generic('query') >= TARGETS.quickStartBuildRatio },
    shardedFanOut: {
      target: `<= ${TARGETS.fanOutRatio}x unsharded at 10 ms (send stand-in)`,
      measured: fanOut.map((r) => `n=${r.n}: ${r.ratio}x`).join(', '),
      met: fanOut.length > 0 && fanOut.every((r) => r.ratio <= TARGETS.fanOutRatio),
    },
  };
  console.log('targets:');
  console.table(targets);

  const out = {
    benchmark: 'side-by-side',
    model: 'Order (username, orderId, status, createdAt, amount); PK CUSTOMER#<username>, SK ORDER#<orderId>, GSI1 ORDER#<orderId>/ORDER#<orderId>, GSI2 ORDER#<status>/<createdAt>',
    machine,
    quick,
    config: CONFIG,
    table: rows,
    targets,
    bundles: bundles.map(({ name, bytes, gzipBytes }) => ({ name, bytes, gzipBytes })),
    requireTime: requireTimes,
    throughput: throughput.map((t) => ({
      ...t,
      ratio: significant(t.ratio),
      ratioP25: significant(t.ratioP25),
      ratioP75: significant(t.ratioP75),
      ratioText: `${ratioText(t.ratio)} (${ratioText(t.ratioP25)} to ${ratioText(t.ratioP75)})`,
    })),
    loopOverheadNs: { put: significant(loopNs.put), query: significant(loopNs.query) },
    synth,
    shardedQuery,
    shardedFanOut,
    runtime,
  };
  writeFileSync(join(__dirname, 'results', 'bench.json'), JSON.stringify(out, null, 2) + '\n');
  console.log('\nwritten: bench/results/bench.json');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
