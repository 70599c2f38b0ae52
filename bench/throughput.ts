// Input-building throughput: how many PutItem / Query inputs per second each library builds
// (nothing is sent). Every round gives each library one time slice per operation, in a new random
// order, and compares it with the hand-written reference of the same round; the figure is the
// median of those per-round ratios, so slow phases of a shared machine hit everyone alike.
import { sampleOrders, STATUSES } from './model/order';
import type { Peer } from './peers';
import { median, msSince, quantile, shuffled, significant } from './stats';

export type Operation = 'put' | 'query';

export interface Throughput {
  readonly name: string;
  readonly operation: Operation;
  /** Median ops/s over the rounds. */
  readonly opsPerSecond: number;
  /** Median of (this library's ops/s / the reference's ops/s) per round: 0.5 means half as fast. */
  readonly ratio: number;
  /** The interquartile range of those per-round ratios: the spread of `ratio`. */
  readonly ratioP25: number;
  readonly ratioP75: number;
}

export interface ThroughputOptions {
  readonly rounds: number;
  readonly sliceMs: number;
}

const ORDERS = sampleOrders(1000);
export const BATCH = 200;
// Holds every built input, so no engine can skip building one.
let sink: unknown;

/** The inputs one operation is built from, cycled through. */
const inputsOf = (op: Operation): readonly unknown[] => (op === 'put' ? ORDERS : STATUSES);

/**
 * A loop of BATCH builds compiled once per builder. A loop shared by every library calls five
 * builders from one call site, which V8 then dispatches megamorphically; that overhead, and any
 * per-call wrapper, is added to every library alike and so flattens the ratios towards 1 (most for
 * the hand-written Query input, a single object literal). Its own copy of the loop gives each
 * builder a monomorphic call site, so a ratio compares the builders, not the loop. Every result is
 * stored in a new array the loop returns, so no build can be optimized away as unused; the loop
 * walks the inputs without a division per build, and the clock is read once per BATCH builds.
 * `loopOverheadNs` measures what is left of the loop's own cost.
 */
export function compileLoop(build: (input: any) => unknown, inputs: readonly unknown[]): (from: number) => unknown[] {
  const loop = new Function('build', 'inputs', `return function batch(from) {
    const out = new Array(${BATCH});
    let j = from % inputs.length;
    for (let i = 0; i < ${BATCH}; i++) {
      out[i] = build(inputs[j]);
      if (++j === inputs.length) j = 0;
    }
    return out;
  };`) as (b: typeof build, i: readonly unknown[]) => (from: number) => unknown[];
  return loop(build, inputs);
}

/**
 * Nanoseconds per build of the loop alone (a builder that returns its input), against which the
 * reference's time per build is read: it shows how much of a ratio the loop itself could blur.
 */
export function loopOverheadNs(op: Operation, sliceMs: number, rounds: number): number {
  const loop = compileLoop((x) => x, inputsOf(op));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let ops = 0;
    const start = process.hrtime.bigint();
    do {
      sink = loop(ops)[BATCH - 1];
      ops += BATCH;
    } while (msSince(start) < sliceMs);
    times.push((msSince(start) * 1e6) / ops);
  }
  return median(times);
}

/** Ops per second of one builder over one slice; OneTable returns promises, which are awaited as a caller must. */
async function slice(peer: Peer, op: Operation, loop: (from: number) => unknown[], ms: number): Promise<number> {
  const build = op === 'put' ? peer.buildPut : peer.buildQuery;
  const inputs = inputsOf(op);
  // An async builder (OneTable's) is awaited build by build, as a caller must.
  const isAsync = build(inputs[0] as never) instanceof Promise;
  let ops = 0;
  const start = process.hrtime.bigint();
  do {
    if (isAsync) {
      for (let i = 0; i < BATCH; i++) sink = await build(inputs[(ops + i) % inputs.length] as never);
    } else {
      sink = loop(ops)[BATCH - 1];
    }
    ops += BATCH;
  } while (msSince(start) < ms);
  if (sink === undefined) throw new Error(`${peer.name} built no ${op} input`);
  return (ops * 1000) / msSince(start);
}

export async function measureThroughput(peers: readonly Peer[], reference: string, options: ThroughputOptions): Promise<Throughput[]> {
  const results: Throughput[] = [];
  for (const op of ['put', 'query'] as const) {
    const byName = new Map(peers.map((p) => [p.name, p]));
    const loops = new Map(peers.map((p) => [p.name, compileLoop(op === 'put' ? p.buildPut : p.buildQuery, inputsOf(op))]));
    for (const [name, loop] of loops) await slice(byName.get(name)!, op, loop, options.sliceMs); // JIT warm-up, not counted
    const ops = new Map<string, number[]>(peers.map((p) => [p.name, []]));
    const ratios = new Map<string, number[]>(peers.map((p) => [p.name, []]));
    for (let r = 0; r < options.rounds; r++) {
      const round = new Map<string, number>();
      for (const name of shuffled([...loops.keys()])) round.set(name, await slice(byName.get(name)!, op, loops.get(name)!, options.sliceMs));
      for (const [name, value] of round) {
        ops.get(name)!.push(value);
        ratios.get(name)!.push(value / round.get(reference)!);
      }
    }
    for (const p of peers) {
      const own = ratios.get(p.name)!;
      results.push({
        name: p.name,
        operation: op,
        opsPerSecond: significant(median(ops.get(p.name)!)),
        ratio: median(own),
        ratioP25: quantile(own, 0.25),
        ratioP75: quantile(own, 0.75),
      });
    }
  }
  return results;
}
