// The failures of POST /order (a quote that cannot become an order) and of GET /orders (a list request it cannot
// answer).
import type { Address } from "viem";
import type { SignatureFault } from "../chain/signature-check.ts";
import { BaseError, type ValidationIssue } from "../shared/errors.ts";

/** No stored quote has this id (or it is not stored yet and did not arrive in time). */
export class QuoteNotFoundError extends BaseError {
  override name = "QuoteNotFoundError";
  constructor(quoteId: string) {
    super("Unknown quote id", { details: { quoteId } });
  }
}

/** The quote's deadline has passed. */
export class QuoteExpiredError extends BaseError {
  override name = "QuoteExpiredError";
  constructor(deadline: number) {
    super("The quote has expired", { details: { deadline } });
  }
}

/** The submitted quote is not the one issued under its id. */
export class QuoteMismatchError extends BaseError {
  override name = "QuoteMismatchError";
  constructor(issues: ValidationIssue[]) {
    super("The submitted quote differs from the quote issued", { details: { issues } });
  }
}

/**
 * What most often makes a well-formed signature someone else's: a raw `eth_signTypedData_v4` given `signatureData`
 * as it is (its types lack `EIP712Domain`, as the real backend's do), which MetaMask signs with an EMPTY domain.
 */
const EIP712_DOMAIN_HINT =
  " (signing signatureData through a raw eth_signTypedData_v4 call? Add types.EIP712Domain from its domain's fields " +
  "— name string, version string, chainId uint256, verifyingContract address — or the wallet may sign an empty domain)";

/** The signature is not the swapper's over the quote's Request. */
export class InvalidSwapperSignatureError extends BaseError {
  override name = "InvalidSwapperSignatureError";
  constructor(swapper: Address, reason: SignatureFault) {
    // A well-formed signature that recovers to someone else (or that the wallet contract refuses) was most likely made
    // over the wrong domain; an encoding fault is not, and gets no hint.
    const hint = reason === "not_the_signer" || reason === "refused_by_contract" ? EIP712_DOMAIN_HINT : "";
    super(
      `The signature is not the swapper's over this quote's Request, in a form the Reactor accepts${hint}`,
      {
        details: { swapper, reason },
      },
    );
  }
}

/** Why a valid quote can no longer become an order. */
export type QuoteUnavailability =
  | { reason: "nonce_used" }
  | { reason: "no_solver"; solversAsked: number }
  | { reason: "tokens_unsupported" };

const UNAVAILABLE_MESSAGES: Record<QuoteUnavailability["reason"], string> = {
  nonce_used: "The quote's nonce is already used on-chain",
  no_solver: "No solver can honor this quote any more",
  tokens_unsupported: "The quote's tokens are no longer supported by this deployment",
};

/** A quote that was valid but that the chain or the solvers can no longer honor. */
export class QuoteUnavailableError extends BaseError {
  override name = "QuoteUnavailableError";
  readonly reason: QuoteUnavailability["reason"];
  constructor(unavailability: QuoteUnavailability) {
    // The reason picks the message; only the facts beside it (solversAsked) are details.
    const { reason, ...details } = unavailability;
    super(UNAVAILABLE_MESSAGES[reason], { details });
    this.reason = reason;
  }
}

/** GET /orders without any of the filters that bound the list. */
export class MissingOrdersFilterError extends BaseError {
  override name = "MissingOrdersFilterError";
  constructor(filters: readonly string[]) {
    super(`Give at least one of ${filters.join(", ")}`, {
      details: {
        issues: [{ path: "(query)", message: `at least one of ${filters.join(", ")} is required` }],
      },
    });
  }
}

/** A `cursor` this API did not issue. */
export class InvalidCursorError extends BaseError {
  override name = "InvalidCursorError";
  constructor() {
    super("Invalid cursor", {
      details: { issues: [{ path: "cursor", message: "not a cursor this API issued" }] },
    });
  }
}

/** GET /orders/stream without an order filter (and not a solver's stream). */
export class MissingStreamFilterError extends MissingOrdersFilterError {
  override name = "MissingStreamFilterError";
}

/** This replica holds STREAM_MAX_CONNECTIONS streams already: the client retries (here or on another replica). */
export class StreamCapacityError extends BaseError {
  override name = "StreamCapacityError";
  constructor(limit: number) {
    super("Too many order streams on this server; retry later", { details: { limit } });
  }
}

/** One client address holds STREAM_MAX_PER_IP streams on this replica already (a solver: STREAM_MAX_PER_SOLVER). */
export class StreamClientLimitError extends BaseError {
  override name = "StreamClientLimitError";
  constructor(limit: number) {
    super("Too many order streams from this client", { details: { limit } });
  }
}

/** A solver's stream asked for another solver's orders (by `solverId`, or an Executor that is not its own). */
export class OtherSolverStreamError extends BaseError {
  override name = "OtherSolverStreamError";
  constructor(solverId: string, asked: { solverId?: string | undefined; filler?: string | undefined }) {
    super("A solver's stream carries only its own orders", { details: { solverId, ...asked } });
  }
}

/** A Last-Event-ID header that is not an id this API sends. */
export class InvalidLastEventIdError extends BaseError {
  override name = "InvalidLastEventIdError";
  constructor() {
    super("Last-Event-ID must be the id of an event this stream sent", {
      details: { issues: [{ path: "last-event-id", message: "must be a non-negative integer" }] },
    });
  }
}

/** No stored order has this id. */
export class OrderNotFoundError extends BaseError {
  override name = "OrderNotFoundError";
  constructor(orderId: string) {
    super("Unknown order id", { details: { orderId } });
  }
}

/** Why an order cannot be cancelled: it has left `open`/`insufficient-funds`, or its deadline passed by chain time. */
export type NotCancellable =
  | { reason: "status"; orderStatus: string }
  | { reason: "deadline_passed"; deadline: number; chainTime: number };

/** POST /cancel for an order no fill can settle any more: there is nothing to cancel. */
export class OrderNotOpenError extends BaseError {
  override name = "OrderNotOpenError";
  constructor(orderId: string, why: NotCancellable) {
    super(
      why.reason === "status"
        ? `The order is ${why.orderStatus}: only open (or insufficient-funds) orders can be cancelled`
        : "The order's deadline has passed by chain time: it can no longer be filled, and expires by itself",
      { details: { orderId, ...why } },
    );
  }
}
