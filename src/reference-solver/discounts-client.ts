// An internal solver's client of Sluice's internal discount API (DESIGN.md §4), in the real backend's shapes
// (rfq-backend-internal.openapi.json): `GET {internalApiUrl}/discounts` (the discounts live at the latest block) and
// `POST {internalApiUrl}/discounts` with `{discountIds: [id]}` — the batch shape with one entry, as vault-solver
// sends it — for the signer's signature and a fresh 90-second protocol co-signature of one discount. Every call
// carries the solver's id and its own shared secret. Bodies are read with the API's own schemas.
//
// The list is cached briefly: quote requests arrive in bursts and every discount leg of each is checked against
// it. A fill plans with a fresh list. A resolved discount is checked against the id it was asked for (the id is
// the EIP-712 digest of the terms), so the signatures always belong to the discount the fill was planned with.
import { performance } from "node:perf_hooks";
import { type Address, getAddress, type Hex } from "viem";
import type { z } from "zod";
import { type DiscountSwap, discountId as digestOf } from "../chain/order.ts";
import {
  discountSwapInputOf,
  LiveDiscountListSchema,
  ResolvedDiscountBatchSchema,
  SOLVER_ID_HEADER,
  SOLVER_SECRET_HEADER,
} from "../discounts/schemas.ts";

/** A live discount as the solver uses it. */
export interface ListedDiscount {
  discountId: Hex;
  adapter: Address;
  tokenToRedeem: Address;
  /** Of the gross oracle output. */
  ppm: bigint;
}

/** Everything of an Executor `DiscountSwapInput` but `recipient` and `amountIn`. */
export interface ResolvedDiscountLeg {
  discountId: Hex;
  adapter: Address;
  discountSwap: DiscountSwap;
  protocolSignature: Hex;
}

/** The internal API could not be reached or answered something else than the documented answer. */
export class InternalApiError extends Error {
  override name = "InternalApiError";
}

/** Resolve answered 404: the discount is unknown or no longer live (`reason` as Sluice gives it). */
export class DiscountNotLiveError extends Error {
  override name = "DiscountNotLiveError";
  constructor(
    readonly discountId: Hex,
    readonly reason: string,
  ) {
    super(`discount ${discountId} is not live: ${reason}`);
  }
}

export interface InternalDiscountsClientOptions {
  /** e.g. `http://127.0.0.1:8080/api-internal/v1` */
  internalApiUrl: string;
  solverId: string;
  sharedSecret: string;
  /** The chain the discounts' EIP-712 domain names. */
  chainId: number;
  /** How long a fetched list answers quote requests (default 2 s). */
  listTtlMs?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

export class InternalDiscountsClient {
  readonly #options: InternalDiscountsClientOptions;
  readonly #baseUrl: string;
  readonly #listTtlMs: number;
  readonly #timeoutMs: number;
  #cached: { at: number; list: Promise<ListedDiscount[]> } | undefined;

  constructor(options: InternalDiscountsClientOptions) {
    this.#options = options;
    this.#baseUrl = options.internalApiUrl.replace(/\/+$/, "");
    this.#listTtlMs = options.listTtlMs ?? 2_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** The live discounts; from the brief cache unless `fresh`. Concurrent callers share one request. */
  list(options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<ListedDiscount[]> {
    const now = performance.now();
    if (!options.fresh && this.#cached && now - this.#cached.at < this.#listTtlMs) return this.#cached.list;
    const list = this.#fetchList(options.signal);
    const entry = { at: now, list };
    this.#cached = entry;
    // A failure is not kept: the next caller asks again.
    list.catch(() => {
      if (this.#cached === entry) this.#cached = undefined;
    });
    return list;
  }

  async resolve(discountId: Hex, signal?: AbortSignal): Promise<ResolvedDiscountLeg> {
    const url = `${this.#baseUrl}/discounts`;
    const request = { method: "POST" as const, body: { discountIds: [discountId] } };
    const { status, body } = await this.#call(url, request, signal);
    if (status === 404) {
      const reason = (body as { error?: { details?: { reason?: unknown } } } | undefined)?.error?.details
        ?.reason;
      throw new DiscountNotLiveError(discountId, typeof reason === "string" ? reason : "not_found");
    }
    if (status !== 200) throw new InternalApiError(`POST ${url} answered ${status}`);
    const batch = parse(ResolvedDiscountBatchSchema, body, url);
    const [resolved] = batch.discounts;
    if (!resolved || batch.discounts.length !== 1) {
      throw new InternalApiError(`POST ${url} answered ${batch.discounts.length} discounts for one`);
    }
    const { adapter, discountSwap, protocolSignature } = discountSwapInputOf(resolved);
    const digest = digestOf({ chainId: this.#options.chainId, adapter }, discountSwap.discount);
    if (digest.toLowerCase() !== discountId.toLowerCase()) {
      throw new InternalApiError(`POST ${url} resolved ${discountId} to other terms (digest ${digest})`);
    }
    return {
      discountId: digest,
      adapter,
      discountSwap,
      protocolSignature,
    };
  }

  async #fetchList(signal: AbortSignal | undefined): Promise<ListedDiscount[]> {
    const url = `${this.#baseUrl}/discounts`;
    const { status, body } = await this.#call(url, { method: "GET" }, signal);
    if (status !== 200) throw new InternalApiError(`GET ${url} answered ${status}`);
    return parse(LiveDiscountListSchema, body, url).discounts.map((entry) => ({
      discountId: entry.discountId.toLowerCase() as Hex,
      adapter: getAddress(entry.adapter),
      tokenToRedeem: getAddress(entry.tokenToRedeem),
      ppm: BigInt(entry.discount),
    }));
  }

  async #call(
    url: string,
    request: { method: "GET" | "POST"; body?: unknown },
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; body: unknown }> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: {
          [SOLVER_ID_HEADER]: this.#options.solverId,
          [SOLVER_SECRET_HEADER]: this.#options.sharedSecret,
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      signal?.throwIfAborted();
      throw new InternalApiError(`${request.method} ${url} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new InternalApiError(
        `${request.method} ${url} answered ${response.status} with a body that is not JSON`,
      );
    }
    return { status: response.status, body };
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown, url: string): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InternalApiError(`${url}: unexpected body at ${issue?.path.join(".")}: ${issue?.message}`);
}
