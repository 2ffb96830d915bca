// What the output states about the machine a run was measured on: the numbers only mean something next to
// the core count and the load other work put on it at the same time.
import { cpus, loadavg, totalmem } from "node:os";

export interface MachineFacts {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
}

export function machineFacts(): MachineFacts {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** The 1-minute load average: above the core count, other processes were competing for the CPU. */
export function loadAverage(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}
