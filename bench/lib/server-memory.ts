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

/**
 * Reads the server's memory once its RSS has settled: two readings a second apart within 2 % (at most `limitMs`).
 * Right after a start the embedded database's heap is still shrinking back from the demo data's load, and a figure
 * taken then makes whatever follows look smaller than it is.
 */
export async function readSettledServerMemory(
  metricsUrl: string,
  limitMs = 20_000,
): Promise<ServerMemory | undefined> {
  let previous = await readServerMemory(metricsUrl);
  for (const started = Date.now(); previous && Date.now() - started < limitMs; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const next = await readServerMemory(metricsUrl);
    if (!next) return undefined;
    const settled = Math.abs(next.rssMb - previous.rssMb) <= previous.rssMb * 0.02;
    previous = next;
    if (settled) break;
  }
  return previous;
}
