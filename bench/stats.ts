// The few statistics every benchmark here uses: medians of interleaved, paired measurements.

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A new array in random order (Fisher-Yates): each round runs the contenders in another order. */
export function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Rounds to `digits` significant digits: the noise of a shared machine makes more meaningless. */
export function significant(x: number, digits = 3): number {
  return Number(x.toPrecision(digits));
}

/** Milliseconds since `start` (from `process.hrtime.bigint()`). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
