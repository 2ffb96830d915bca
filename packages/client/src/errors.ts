// What the client throws. An answer that is not a success is a `SluiceApiError` whichever of Sluice's two error
// envelopes it carries (the swap flow's `{error: {code, message, status, details?}}` or the partner API's
// `{errorCode, errorMessage}`), so callers branch on `code` and quote `requestId` to the operator.

/** Sluice answered with an error status. */
export class SluiceApiError extends Error {
  override name = "SluiceApiError";
  /** The HTTP status. */
  readonly status: number;
  /** `VALIDATION_FAILED`, `NO_QUOTES`… (swap flow), `noResultsFound`… (partner API), `HTTP_<status>` otherwise. */
  readonly code: string;
  /** The swap flow's structured details (for example `details.reason`, `details.issues[]`), when given. */
  readonly details: Record<string, unknown> | undefined;
  /** The answer's `X-Request-Id`: the id of the server's log line for this attempt. */
  readonly requestId: string | null;
  /** Which envelope the body had; `unknown` when it was neither (a proxy's page, an empty body). */
  readonly envelope: "swap" | "partner" | "unknown";
  /** The parsed body as received (the text when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown> | undefined;
    requestId: string | null;
    envelope: "swap" | "partner" | "unknown";
    body: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.envelope = init.envelope;
    this.body = init.body;
  }
}

/** The error of an answer with status `status`, request id `requestId` and body `body` (parsed JSON or text). */
export function apiErrorOf(status: number, requestId: string | null, body: unknown): SluiceApiError {
  const common = { status, requestId, body };
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === "string") {
    const { code, message, details } = body.error;
    return new SluiceApiError({
      ...common,
      code,
      message: typeof message === "string" ? message : code,
      details: isRecord(details) ? details : undefined,
      envelope: "swap",
    });
  }
  if (isRecord(body) && typeof body.errorCode === "string") {
    const message = typeof body.errorMessage === "string" ? body.errorMessage : body.errorCode;
    return new SluiceApiError({ ...common, code: body.errorCode, message, envelope: "partner" });
  }
  return new SluiceApiError({
    ...common,
    code: `HTTP_${status}`,
    message: `HTTP ${status} without a Sluice error body`,
    envelope: "unknown",
  });
}

/** `waitForOrder` gave up: the order was still `open` after `timeoutMs`. */
export class OrderWaitTimeoutError extends Error {
  override name = "OrderWaitTimeoutError";
  constructor(
    readonly orderId: string,
    readonly timeoutMs: number,
    /** The last status seen (`open`), or null when the order was never listed. */
    readonly lastStatus: string | null,
  ) {
    super(`order ${orderId} still ${lastStatus ?? "not listed"} after ${timeoutMs} ms`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The order stream could not be used: it answered an error status or something that is not `text/event-stream` (an
 * older server's 404, a proxy that strips SSE), or it dropped `drops` times in a row without delivering an event.
 * `waitForOrder` falls back to polling on it.
 */
export class OrderStreamUnavailableError extends Error {
  override name = "OrderStreamUnavailableError";
  constructor(
    message: string,
    /** The answer's error (status, code, X-Request-Id) when the stream was refused; the last failure otherwise. */
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
