// Cold require time: a fresh `node` that requires one bundle, minus a fresh `node -e 0` in the
// same round (process start, which dwarfs a require, cancels out of each pair). Contenders run in
// a new random order every round, and each figure is the median of its paired differences.
// Against the reference (the SDK client and a few lines), the processes also time the require
// itself: process start varies by tens of ms on a busy machine, which would drown a 1 ms target.
import { spawnSync } from 'child_process';
import { median, msSince, shuffled, significant } from './stats';

export interface RequireTime {
  readonly name: string;
  /** Median extra wall ms of `node -e "require(bundle)"` over `node -e 0`. */
  readonly overNodeMs: number;
  /** Median extra ms of the `require` call over the reference's in the same round (the reference requires just the SDK client). */
  readonly overReferenceMs: number;
}

const BASELINE = '0';

/** Requires a bundle and prints how long the require took, in ms. */
const requireScript = (file: string) =>
  `const t = process.hrtime.bigint(); require(${JSON.stringify(file)}); process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));`;

/** Wall time of one fresh node process running `script`, and the ms it printed (a require's own time). */
function run(script: string): { wallMs: number; requireMs: number } {
  const start = process.hrtime.bigint();
  // The handlers create their clients at load, as at a Lambda cold start; they need a table name and a region.
  const out = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, TABLE_NAME: 'bench-orders', AWS_REGION: 'us-east-1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const wallMs = msSince(start);
  if (out.status !== 0) throw new Error(`node -e ${script} failed: ${out.stderr}`);
  return { wallMs, requireMs: Number(out.stdout.toString() || 0) };
}

export function measureRequireTimes(bundles: readonly { name: string; file: string }[], reference: string, rounds: number): RequireTime[] {
  const scripts = new Map<string, string>([[BASELINE, BASELINE], ...bundles.map((b) => [b.name, requireScript(b.file)] as [string, string])]);
  for (const script of scripts.values()) run(script); // warm the file cache before the first timed round
  const overNode = new Map<string, number[]>(bundles.map((b) => [b.name, []]));
  const overReference = new Map<string, number[]>(bundles.map((b) => [b.name, []]));
  for (let r = 0; r < rounds; r++) {
    const times = new Map<string, { wallMs: number; requireMs: number }>();
    for (const name of shuffled([...scripts.keys()])) times.set(name, run(scripts.get(name)!));
    for (const b of bundles) {
      overNode.get(b.name)!.push(times.get(b.name)!.wallMs - times.get(BASELINE)!.wallMs);
      overReference.get(b.name)!.push(times.get(b.name)!.requireMs - times.get(reference)!.requireMs);
    }
  }
  return bundles.map((b) => ({
    name: b.name,
    overNodeMs: significant(median(overNode.get(b.name)!)),
    overReferenceMs: significant(median(overReference.get(b.name)!)),
  }));
}
