// One streamed GET read to the end, as a client downloading a long list would: time to first byte, bytes and
// MB/s, how many times a marker occurs in the body (e.g. one per record, counted across chunk boundaries), and
// the serving process's RSS sampled while it streams, each sample with how far the download had got. A server
// that streams holds its RSS flat while the bytes grow; one that builds the body first grows with it.
import { request } from "node:http";
import { rssMb } from "./processes.ts";

export interface RssSample {
  /** Milliseconds since the request was sent. */
  atMs: number;
  bytes: number;
  rssMb: number;
}

export interface StreamedDownload {
  status: number;
  /** False when the time budget ran out first: every figure then covers the part received. */
  complete: boolean;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  megabytesPerSecond: number;
  markers: number;
  /** The body's last bytes (to check the document was closed). */
  tail: string;
  rss: RssSample[];
}

export function downloadStream(
  url: string,
  options: {
    marker: string;
    pid: number;
    sampleEveryMs?: number;
    /** Gives up (closing the connection) after this long; a suite's run time stays bounded. */
    maxMs: number;
  },
): Promise<StreamedDownload> {
  const marker = Buffer.from(options.marker);
  const started = performance.now();
  const rss: RssSample[] = [{ atMs: 0, bytes: 0, rssMb: rssMb(options.pid) }];
  let bytes = 0;
  let markers = 0;
  let firstByteMs: number | undefined;
  // The end of the previous chunk, in case a marker straddles two chunks.
  let carry: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);
  const sampler = setInterval(() => {
    rss.push({ atMs: performance.now() - started, bytes, rssMb: rssMb(options.pid) });
  }, options.sampleEveryMs ?? 100);
  return new Promise<StreamedDownload>((resolve, reject) => {
    let budget: NodeJS.Timeout | undefined;
    const req = request(url, { method: "GET" }, (response) => {
      let done = false;
      const finish = (complete: boolean) => {
        if (done) return;
        done = true;
        const totalMs = performance.now() - started;
        clearInterval(sampler);
        clearTimeout(budget);
        rss.push({ atMs: totalMs, bytes, rssMb: rssMb(options.pid) });
        resolve({
          status: response.statusCode ?? 0,
          complete,
          bytes,
          firstByteMs: firstByteMs ?? totalMs,
          totalMs,
          megabytesPerSecond: bytes / 1e6 / (totalMs / 1000),
          markers,
          tail: tail.toString("utf8"),
          rss,
        });
      };
      budget = setTimeout(() => {
        finish(false);
        response.destroy();
      }, options.maxMs);
      response.on("data", (chunk: Buffer) => {
        firstByteMs ??= performance.now() - started;
        bytes += chunk.length;
        const window = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
        for (let at = window.indexOf(marker); at !== -1; at = window.indexOf(marker, at + marker.length)) {
          markers++;
        }
        carry = window.subarray(Math.max(0, window.length - (marker.length - 1)));
        tail = Buffer.concat([tail, chunk]).subarray(-200);
      });
      response.on("error", (error) => {
        if (bytes === 0) reject(error);
      });
      response.on("end", () => finish(true));
    });
    req.on("error", (error) => {
      clearInterval(sampler);
      clearTimeout(budget);
      reject(error);
    });
    req.end();
  });
}

/** The RSS sample nearest to having received `share` (0..1) of the bytes. */
export function rssAtShare(download: StreamedDownload, share: number): number {
  const wanted = download.bytes * share;
  let best = download.rss[0]!;
  for (const sample of download.rss) {
    if (Math.abs(sample.bytes - wanted) < Math.abs(best.bytes - wanted)) best = sample;
  }
  return best.rssMb;
}
