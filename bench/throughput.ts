// Input-building throughput: how many PutItem / Query inputs per second each library builds
// (nothing is sent). Every round gives each library one time slice per operation, in a new random
// order, and compares it with the hand-written reference of the same round; the figure is the
// median of those per-round ratios, so slow phases of a shared machine hit everyone alike.
import { sampleOrders, STATUSES } from './model/order';
import type { Peer } from './peers';
import { median, msSince, shuffled, significant } from './stats';

export type Operation = 'put' | 'query';

export interface Throughput {
  readonly name: string;
  readonly operation: Operation;
  /** Median ops/s over the rounds. */
  readonly opsPerSecond: number;
  /** Median of (this library's ops/s / the reference's ops/s) per round: 0.5 means half as fast. */
  readonly ratio: number;
}

export interface ThroughputOptions {
  readonly rounds: number;
  readonly sliceMs: number;
}

const ORDERS = sampleOrders(1000);
const BATCH = 50;
// Holds every built input, so no engine can skip building one.
let sink: unknown;

function operation(peer: Peer, op: Operation): (i: number) => unknown {
  return op === 'put' ? (i) => peer.buildPut(ORDERS[i % ORDERS.length]) : (i) => peer.buildQuery(STATUSES[i % STATUSES.length]);
}

/** Ops per second of `build` over one slice; OneTable returns promises, which are awaited as a caller must. */
async function slice(build: (i: number) => unknown, ms: number): Promise<number> {
  let ops = 0;
  const start = process.hrtime.bigint();
  do {
    for (let i = 0; i < BATCH; i++) {
      sink = build(ops + i);
      if (sink instanceof Promise) sink = await sink;
    }
    ops += BATCH;
  } while (msSince(start) < ms);
  return (ops * 1000) / msSince(start);
}

export async function measureThroughput(peers: readonly Peer[], reference: string, options: ThroughputOptions): Promise<Throughput[]> {
  const results: Throughput[] = [];
  for (const op of ['put', 'query'] as const) {
    const builders = new Map(peers.map((p) => [p.name, operation(p, op)]));
    for (const build of builders.values()) await slice(build, options.sliceMs); // JIT warm-up, not counted
    const ops = new Map<string, number[]>(peers.map((p) => [p.name, []]));
    const ratios = new Map<string, number[]>(peers.map((p) => [p.name, []]));
    for (let r = 0; r < options.rounds; r++) {
      const round = new Map<string, number>();
      for (const name of shuffled([...builders.keys()])) round.set(name, await slice(builders.get(name)!, options.sliceMs));
      for (const [name, value] of round) {
        ops.get(name)!.push(value);
        ratios.get(name)!.push(value / round.get(reference)!);
      }
    }
    for (const p of peers) {
      results.push({ name: p.name, operation: op, opsPerSecond: significant(median(ops.get(p.name)!)), ratio: median(ratios.get(p.name)!) });
    }
  }
  return results;
}
