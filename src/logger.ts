// One pino logger for the process; JSON lines on stdout.
import { type Logger, pino } from "pino";

export type { Logger };

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: options.name ? { name: options.name } : {},
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // Written asynchronously: a synchronous write per request line cost more than most handlers.
    // pino flushes what is buffered when the process exits.
    pino.destination({ dest: 1, sync: false }),
  );
}

/** A logger that writes nothing: the default in tests. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
