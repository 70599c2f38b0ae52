// Cold require time: a fresh `node` per sample requires one handler bundle, which loads the SDK
// client and creates its clients at load, as a Lambda does at a cold start. Every round runs each
// contender and a bare `node -e 0` once, in a new random order, and pairs each contender with the
// hand-written handler of the same round; the figures are medians of those paired differences,
// with their interquartile range as the spread.
// The process first loads, untimed, every AWS SDK module the bundle requires (the bundles leave
// `@aws-sdk/*` to the Lambda runtime; read from the bundle itself: `client-dynamodb` for every
// handler, `util-dynamodb` and `lib-dynamodb` where a handler or its library imports them). The
// SDK is the same for every handler, the hand-written one included, and its load (tens of ms,
// varying by more than that on a busy machine) would otherwise drown a 1 ms difference, or charge
// one handler for a module another gets for free. Then it times its own `require` of the bundle:
// the library's code and the clients it creates at load. Both in wall time and in CPU time
// (process.cpuUsage: every thread of the process, so V8's background compilation counts); CPU
// time leaves out the time the process waits for a core, most of the wall time's spread on a
// shared machine.
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';
import { median, msSince, quantile, shuffled, significant } from './stats';

/** A median and its interquartile range, in ms. */
export interface Spread {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
}

export interface RequireTime {
  readonly name: string;
  /** Median extra wall ms of `node -e "require(bundle)"` over `node -e 0`. */
  readonly overNodeMs: number;
  /** Wall ms of the `require` call over the hand-written handler's in the same round. */
  readonly overReferenceMs: Spread;
  /** CPU ms of the `require` call over the hand-written handler's in the same round. */
  readonly overReferenceCpuMs: Spread;
  /** Median wall and CPU ms of the `require` call itself. */
  readonly requireMs: number;
  readonly requireCpuMs: number;
}

interface Sample {
  readonly wallMs: number;
  readonly requireMs: number;
  readonly requireCpuMs: number;
}

const BASELINE = '0';

/** The `@aws-sdk/*` modules a bundle requires, each once, in the order it first names them. */
export function sdkModulesOf(file: string): string[] {
  const names = [...readFileSync(file, 'utf8').matchAll(/require\(\s*["'`](@aws-sdk\/[^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  return [...new Set(names)];
}

/** Loads the SDK modules the bundle requires, then requires the bundle and prints the wall and CPU ms the require took. */
const requireScript = (file: string) => sdkModulesOf(file).map((m) => `require(${JSON.stringify(m)});`).join(' ')
  + ' const c = process.cpuUsage(), t = process.hrtime.bigint();'
  + ` require(${JSON.stringify(file)});`
  + ' const w = Number(process.hrtime.bigint() - t) / 1e6, u = process.cpuUsage(c);'
  + ' process.stdout.write(w + " " + (u.user + u.system) / 1000);';

/** Wall time of one fresh node process running `script`, and the ms it printed. */
function run(script: string): Sample {
  const start = process.hrtime.bigint();
  // The handlers create their clients at load, as at a Lambda cold start; they need a table name and a region.
  const out = spawnSync(process.execPath, ['-e', script], {
    // The model file `SingleTable.connect` ships with a function, for the handler written without generated code.
    env: { ...process.env, TABLE_NAME: 'bench-orders', AWS_REGION: 'us-east-1', SINGLE_TABLE_MODEL: join(__dirname, 'model', 'manifest.model.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const wallMs = msSince(start);
  if (out.status !== 0) throw new Error(`node -e ${script} failed: ${out.stderr}`);
  const [requireMs = 0, requireCpuMs = 0] = out.stdout.toString().split(' ').map(Number);
  return { wallMs, requireMs, requireCpuMs };
}

const spread = (xs: readonly number[]): Spread => ({
  median: significant(median(xs)),
  p25: significant(quantile(xs, 0.25)),
  p75: significant(quantile(xs, 0.75)),
});

export function measureRequireTimes(bundles: readonly { name: string; file: string }[], reference: string, rounds: number): RequireTime[] {
  for (const b of bundles) {
    if (!sdkModulesOf(b.file).includes('@aws-sdk/client-dynamodb')) throw new Error(`${b.name}: the bundle ${b.file} does not require @aws-sdk/client-dynamodb; is @aws-sdk/* still external?`);
  }
  const scripts = new Map<string, string>([[BASELINE, BASELINE], ...bundles.map((b) => [b.name, requireScript(b.file)] as [string, string])]);
  for (const script of scripts.values()) run(script); // warm the file cache before the first timed round
  const samples = new Map<string, Sample[]>([...scripts.keys()].map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of shuffled([...scripts.keys()])) samples.get(name)!.push(run(scripts.get(name)!));
  }
  const base = samples.get(BASELINE)!;
  const ref = samples.get(reference)!;
  return bundles.map((b) => {
    const own = samples.get(b.name)!;
    return {
      name: b.name,
      overNodeMs: significant(median(own.map((s, i) => s.wallMs - base[i].wallMs))),
      overReferenceMs: spread(own.map((s, i) => s.requireMs - ref[i].requireMs)),
      overReferenceCpuMs: spread(own.map((s, i) => s.requireCpuMs - ref[i].requireCpuMs)),
      requireMs: significant(median(own.map((s) => s.requireMs))),
      requireCpuMs: significant(median(own.map((s) => s.requireCpuMs))),
    };
  });
}

/** "+1.2 ms (0.8 to 1.9)": a paired difference as the results table prints it. */
export const spreadText = (s: Spread) => `${s.median >= 0 ? '+' : ''}${s.median} (${s.p25} to ${s.p75})`;
