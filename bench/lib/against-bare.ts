// Several processes answering the same route, loaded in alternating one-second rounds (each round in another order,
// so whatever else a shared machine does falls on all of them alike), each process's CPU time read from /proc around
// its own rounds. Gives each target's median requests/s and its CPU per request: the figures a suite compares with a
// bare Fastify process sending the same bytes.
import { quantile } from "./closed-loop.ts";
import { processCpuMs } from "./cpu.ts";
import { runLoad } from "./load.ts";

export interface LoadTarget<Name extends string> {
  name: Name;
  url: string;
  /** The process answering `url`, whose CPU time is read around its rounds. */
  pid: number;
}

export interface TargetFigures {
  /** Median of the rounds' requests/s. */
  rps: number;
  cpuUsPerRequest: number;
}

export async function loadInRounds<Name extends string>(
  targets: ReadonlyArray<LoadTarget<Name>>,
  options: { connections: number; rounds: number; warmupSeconds: number },
): Promise<Map<Name, TargetFigures>> {
  for (const target of targets)
    await runLoad({
      url: target.url,
      connections: options.connections,
      durationSeconds: options.warmupSeconds,
    });
  const rps = new Map(targets.map((target) => [target.name, [] as number[]]));
  const cpu = new Map(targets.map((target) => [target.name, { ms: 0, requests: 0 }]));
  for (let round = 0; round < options.rounds; round++) {
    const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
    for (const target of order) {
      const before = processCpuMs(target.pid);
      const result = await runLoad({ url: target.url, connections: options.connections, durationSeconds: 1 });
      const used = cpu.get(target.name)!;
      used.ms += processCpuMs(target.pid) - before;
      used.requests += result.total;
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${target.name} ${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rps.get(target.name)!.push(result.requestsPerSecond);
    }
  }
  return new Map(
    targets.map((target) => {
      const used = cpu.get(target.name)!;
      return [
        target.name,
        { rps: quantile(rps.get(target.name)!, 0.5), cpuUsPerRequest: (used.ms * 1000) / used.requests },
      ];
    }),
  );
}
