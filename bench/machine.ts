// The machine a run was measured on, written next to the results: ratios travel between machines
// better than times, but neither means much without it.
import { cpus, loadavg, totalmem } from 'os';

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load when the run started: other work on a shared machine skews times. */
  readonly loadAverage: number[];
  readonly date: string;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    date: new Date().toISOString(),
  };
}
