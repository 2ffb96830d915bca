// One GET, the way the benchmark's load generator asks (plain, or with the same headers, e.g. Accept-Encoding),
// to check a route answers 200 and to learn its body (as sent: compressed when asked) before loading it.
import { request } from "node:http";

export interface FetchedBody {
  status: number;
  body: Buffer;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** From sending the request to the first body byte, and to the last. */
  firstByteMs: number;
  milliseconds: number;
}

export function fetchBody(url: string, headers: Record<string, string> = {}): Promise<FetchedBody> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers }, (response) => {
      const chunks: Buffer[] = [];
      let firstByteMs: number | undefined;
      response.on("data", (chunk: Buffer) => {
        firstByteMs ??= performance.now() - started;
        chunks.push(chunk);
      });
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          contentType: response.headers["content-type"],
          contentEncoding: response.headers["content-encoding"],
          firstByteMs: firstByteMs ?? performance.now() - started,
          milliseconds: performance.now() - started,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}
