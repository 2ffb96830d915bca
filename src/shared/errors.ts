// The base of every named failure Sluice answers to a client, in the spirit of viem's BaseError: a class per
// failure kind, a short message, structured details and an optional cause. A domain error says what went wrong and
// nothing about transport: the HTTP layer's one table (http/error-table.ts) gives each class its status and code.

/** Structured facts about a failure; a client sees them as `details` (none: the key is left out). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** One field a request got wrong, as `details.issues[]` lists them. */
export interface ValidationIssue {
  path: string;
  message: string;
}

export interface BaseErrorOptions {
  details?: ErrorDetails;
  cause?: unknown;
}

export abstract class BaseError extends Error {
  override name = "BaseError";
  /** The message a client reads; `message` is the same text. */
  readonly shortMessage: string;
  readonly details: ErrorDetails;

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = options.details ?? {};
  }
}

/** A class of named failures, as the HTTP error table keys them. */
export type ErrorClass<E extends BaseError = BaseError> = abstract new (...args: never[]) => E;
