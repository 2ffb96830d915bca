// One plain GET, the way the benchmark's load generator asks (no Accept-Encoding: the server answers
// identity), to check a route answers 200 and to learn its body before loading it.
import { request } from "node:http";

export interface FetchedBody {
  status: number;
  body: Buffer;
  contentType: string | undefined;
  /** From sending the request to the first body byte, and to the last. */
  firstByteMs: number;
  milliseconds: number;
}

export function fetchBody(url: string): Promise<FetchedBody> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET" }, (response) => {
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
          firstByteMs: firstByteMs ?? performance.now() - started,
          milliseconds: performance.now() - started,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}
