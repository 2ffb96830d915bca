// One pino logger for the process; JSON lines on stdout.
import { type Logger, pino } from "pino";

export type { Logger };

export function createLogger(
  options: { level?: string; name?: string; destination?: "stdout" | "stderr" } = {},
): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: options.name ? { name: options.name } : {},
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    logDestination(options.destination === "stderr" ? 2 : 1),
  );
}

/** Lines wait at most this long in the buffer when fewer than LOG_BUFFER_BYTES arrive. */
const LOG_FLUSH_INTERVAL_MS = 200;
const LOG_BUFFER_BYTES = 4096;

/**
 * stdout (or stderr), written asynchronously in blocks of a few KB: one write syscall per request line cost a fifth of a
 * small route's CPU. A timer flushes what a quiet process has buffered, so no line waits more than
 * LOG_FLUSH_INTERVAL_MS; pino flushes the rest when the process exits.
 */
function logDestination(fd: 1 | 2) {
  const destination = pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Not open yet or already closed: the next tick or the exit flush writes it.
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

/** A logger that writes nothing: the default in tests. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
