// Where a server's CPU went, from a V8 CPU profile (cpu-profiler.mjs writes one per server process): the self time of
// every sample, grouped by what ran it — a package of node_modules by its name, Node's own code, the server's bundle by
// function name — so a per-request hook's cost reads as its share of the busy time.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** When profiling started, in µs of the system's monotonic clock (the one `process.hrtime` reads). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A span of the monotonic clock in µs (`process.hrtime.bigint() / 1000n` in any process of the machine: V8 stamps
 * its samples with the same clock), e.g. a load's start and end, so start-up is left out of the split.
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** Now on the monotonic clock V8's samples are stamped with, in µs. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface ProfileShare {
  /** A package (`pino`, `@fastify/cors`), `node:<module>`, `sluice:<function>`, or V8's own `(garbage collector)`… */
  what: string;
  ms: number;
  /** Of the busy time (every sample but idle). */
  share: number;
}

/**
 * Self time per package, Node module or bundle function, largest first; idle left out. With a window, only the
 * samples taken inside it.
 */
export function summarizeProfile(
  file: string,
  top = 25,
  window?: ProfileWindow,
): { busyMs: number; shares: ProfileShare[] } {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let busyUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const node = byId.get(id);
    if (!node) return;
    const what = ownerOf(node.callFrame);
    if (what === "(idle)") return;
    const us = profile.timeDeltas[index] ?? 0;
    busyUs += us;
    totals.set(what, (totals.get(what) ?? 0) + us);
  });
  const shares = [...totals.entries()]
    .map(([what, us]) => ({ what, ms: us / 1000, share: us / busyUs }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
  return { busyMs: busyUs / 1000, shares };
}

function ownerOf(frame: { functionName: string; url: string }): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName || "anonymous"}`;
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + "node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith("node:")) return url;
  if (url.includes("/dist/sluice-")) return `sluice:${functionName || "anonymous"}`;
  return url;
}
