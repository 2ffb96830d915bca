// The server's own view of its memory, from its Prometheus endpoint (prom-client's default process metrics):
// splits the RSS the benchmark samples from outside into the V8 heap, memory outside it, and the rest
// (loaded code, the module loader's thread, allocator slack).
import { fetchBody } from "./http.ts";

export interface ServerMemory {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
}

const METRICS = {
  rssMb: "process_resident_memory_bytes",
  heapTotalMb: "nodejs_heap_size_total_bytes",
  heapUsedMb: "nodejs_heap_size_used_bytes",
  externalMb: "nodejs_external_memory_bytes",
} as const;

/** Reads `metricsUrl`; undefined when the server does not expose these metrics. */
export async function readServerMemory(metricsUrl: string): Promise<ServerMemory | undefined> {
  const { status, body } = await fetchBody(metricsUrl);
  if (status !== 200) return undefined;
  const text = body.toString("utf8");
  const read = (suffix: string) => {
    const match = new RegExp(`^\\w*${suffix} ([0-9.e+]+)$`, "m").exec(text);
    return match?.[1] ? Number(match[1]) / 2 ** 20 : Number.NaN;
  };
  const memory = {
    rssMb: read(METRICS.rssMb),
    heapTotalMb: read(METRICS.heapTotalMb),
    heapUsedMb: read(METRICS.heapUsedMb),
    externalMb: read(METRICS.externalMb),
  };
  return Object.values(memory).some(Number.isNaN) ? undefined : memory;
}
