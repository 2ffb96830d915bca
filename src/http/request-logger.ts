// A request's logger, made when the request first writes a line. Fastify gives every request a child of the server's
// logger bound to its request id; pino's child() copies and serializes the bindings, and a cached read logged at
// debug under LOG_LEVEL=info writes nothing, so most requests paid for a logger they never used. This one answers
// Fastify's logger interface and makes the child (the same bindings and options) at its first line.
import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions, Logger } from "pino";

type LineLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export class DeferredChildLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child, made once. */
  get logger(): Logger {
    this.#child ??= this.parent.child(this.childBindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  /** Asked without making the child while it would have the parent's level (no level of its own). */
  isLevelEnabled(level: string): boolean {
    if (this.#child || this.options.level) return this.logger.isLevelEnabled(level);
    return this.parent.isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#write("error", args);
  }
  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }
  info(...args: unknown[]): void {
    this.#write("info", args);
  }
  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  bindings(): Bindings {
    return this.#child ? this.#child.bindings() : { ...this.parent.bindings(), ...this.childBindings };
  }

  #write(level: LineLevel, args: unknown[]): void {
    // A line below the level is dropped by the child anyway: no child is made for it.
    if (!this.isLevelEnabled(level)) return;
    const logger = this.logger;
    (logger[level] as (...line: unknown[]) => void).apply(logger, args);
  }
}

/** Fastify's childLoggerFactory: each request's logger, made at its first line. */
export function deferredChildLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredChildLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
