// The few statistics every benchmark here uses: medians of interleaved, paired measurements.

/** The value below which a fraction `q` of `xs` lies (linear interpolation between the ranks). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) throw new Error('quantile of no values');
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
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
