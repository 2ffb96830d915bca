// How an admin route that does a command's work answers (imports, points sync, cooldown overrides): one JSON line
// per progress report as the work goes, then one line with the result or with the failure's message. The command
// beside the server prints the progress as it would have printed its own and fails with the same message, so it
// reads the same whether it wrote the database itself or the running server did.
import { PassThrough } from "node:stream";

export type JobLine<Progress, Result> =
  | { event: "progress"; progress: Progress }
  | { event: "done"; result: Result }
  | { event: "failed"; message: string };

export const JOB_STREAM_MEDIA_TYPE = "application/x-ndjson";

/** Runs `work` and answers its progress and its end as job lines (bigints as decimal strings). */
export function jobStream<Progress, Result>(
  work: (report: (progress: Progress) => void) => Promise<Result>,
): PassThrough {
  const body = new PassThrough();
  const write = (line: JobLine<Progress, Result>) => {
    if (!body.writableEnded) body.write(`${JSON.stringify(line, bigintsAsText)}\n`);
  };
  work((progress) => write({ event: "progress", progress })).then(
    (result) => {
      write({ event: "done", result });
      body.end();
    },
    (error: unknown) => {
      write({ event: "failed", message: error instanceof Error ? error.message : String(error) });
      body.end();
    },
  );
  return body;
}

/** The work failed on the server: its message, as the command would have printed it had it done the work. */
export class AdminJobError extends Error {
  override name = "AdminJobError";
}

/** Reads a job stream: each progress report to `onProgress`, then the result; a failure throws AdminJobError. */
export async function readJobStream<Progress, Result>(
  body: ReadableStream<Uint8Array>,
  onProgress: (progress: Progress) => void = () => {},
): Promise<Result> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = JSON.parse(buffered.slice(0, newline)) as JobLine<Progress, Result>;
      buffered = buffered.slice(newline + 1);
      if (line.event === "progress") onProgress(line.progress);
      else if (line.event === "done") return line.result;
      else throw new AdminJobError(line.message);
      newline = buffered.indexOf("\n");
    }
  }
  throw new AdminJobError("the server ended its answer before the work finished: check its log");
}

function bigintsAsText(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
