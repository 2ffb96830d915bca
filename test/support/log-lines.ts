// A logger whose lines a test reads back: each line pino writes, parsed, in order.
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";

export function capturingLogger<Line = Record<string, unknown>>(
  level = "info",
): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Line);
        done();
      },
    }),
  );
  return { logger, lines };
}
