// One pino logger for the process; JSON lines on stdout.
import { type Logger, pino } from "pino";

export type { Logger };

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    level: options.level ?? process.env.LOG_LEVEL ?? "info",
    base: options.name ? { name: options.name } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** A logger that writes nothing: the default in tests. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
