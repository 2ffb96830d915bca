// The request limits of the public API, run before anything else of a limited route (its `limit` class in the route
// table): who the caller is (a solver's credentials: never limited; an `x-api-key`: that integrator, 401 when it is
// not a live key; none: the client address), then the caller's count in the route's class. Every limited answer
// carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; one over the limit is a 429 RATE_LIMITED in the
// route's envelope with Retry-After. Streams are limited by how many a caller holds (stream-connections.ts), keyed by
// the caller found here.
//
// One plain onRequest callback of our own rather than @fastify/rate-limit: the plugin's check awaits a promise at each
// step (key, limit, window, store), a cost every read paid (docs/benchmarks.md), while here an anonymous read is
// resolved and counted synchronously (in-memory counters answer at once) and only a key lookup or a shared-window
// lease waits. The plugin's address normalization is kept (anonymous-callers.ts). What a caller's count needs (its
// counter key, its limit's header text) is made once per caller, not per request.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from "fastify";
import type { ApiKeyDirectory } from "../api-keys/directory.ts";
import { InvalidApiKeyError, PartnerInvalidApiKeyError } from "../api-keys/errors.ts";
import { API_KEY_HEADER } from "../api-keys/secret.ts";
import { SOLVER_ID_HEADER, SOLVER_SECRET_HEADER } from "../discounts/schemas.ts";
import { authenticateSolver } from "../discounts/solver-auth.ts";
import { AnonymousCallers } from "../limits/anonymous-callers.ts";
import {
  allowancesOf,
  type Caller,
  type CallerLimits,
  type ClassAllowance,
  type CountedClass,
  type LimitClass,
  WINDOW_MS,
} from "../limits/classes.ts";
import { PartnerRateLimitedError, RateLimitedError } from "../limits/errors.ts";
import type { WindowCount, WindowCounter } from "../limits/window-counters.ts";
import { StreamClientLimitError } from "../orders/errors.ts";
import type { SolverDirectory } from "../solvers/directory.ts";
import { isPartnerPath } from "./errors.ts";
import type { App } from "./route.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's limit class (route table); none: never limited. */
    limit?: LimitClass;
  }
  interface FastifyRequest {
    /** Who a limited route's request is from, once the limits have run. */
    caller?: Caller;
  }
}

export const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] as const;

export interface RequestLimitsOptions {
  /** The anonymous tier's allowance per client address, and a key's where it sets none. */
  anonymous: CallerLimits;
  counters: Record<CountedClass, WindowCounter>;
  keys: ApiKeyDirectory;
  /** The deployment's solvers, whose authenticated calls are never limited (none on a partner-only Sluice). */
  solvers?: Pick<SolverDirectory, "byId">;
}

export class RequestLimits {
  readonly #anonymous: AnonymousCallers;

  constructor(private readonly options: RequestLimitsOptions) {
    this.#anonymous = new AnonymousCallers(options.anonymous);
  }

  /** Registers the limits on the public server; routes mounted afterwards are limited by their class. */
  register(app: App): void {
    app.decorateRequest("caller", undefined);
    // On the limited routes only, first of their own hooks (after the server's: a refusal carries the request id and
    // the CORS headers): a route without a class runs nothing of it.
    app.addHook("onRoute", (route) => {
      const limitClass = route.config?.limit;
      if (!limitClass) return;
      const limit = this.#hook(limitClass, isPartnerPath(route.url));
      const own =
        route.onRequest === undefined
          ? []
          : Array.isArray(route.onRequest)
            ? route.onRequest
            : [route.onRequest];
      route.onRequest = [limit, ...own];
    });
  }

  #hook(limitClass: LimitClass, partner: boolean): onRequestHookHandler {
    return (request, reply, done) => {
      let caller: Caller | Promise<Caller>;
      try {
        caller = this.#callerOf(request, partner);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (caller instanceof Promise)
        caller.then((found) => this.#count(request, reply, found, limitClass, partner, done), done);
      else this.#count(request, reply, caller, limitClass, partner, done);
    };
  }

  #count(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    limitClass: LimitClass,
    partner: boolean,
    done: HookHandlerDoneFunction,
  ): void {
    request.caller = caller;
    if (caller.kind === "solver" || limitClass === "stream") {
      done();
      return;
    }
    const allowance = caller.allowances[limitClass];
    const counted = this.options.counters[limitClass].incr(
      allowance.key,
      WINDOW_MS[limitClass],
      allowance.limit,
    );
    if (counted instanceof Promise)
      counted.then((count) => answer(reply, count, limitClass, allowance, partner, done), done);
    else answer(reply, counted, limitClass, allowance, partner, done);
  }

  /** The caller, at once unless an API key must be looked up. */
  #callerOf(request: FastifyRequest, partner: boolean): Caller | Promise<Caller> {
    const { headers } = request;
    if (this.options.solvers && headers[SOLVER_ID_HEADER] !== undefined && headers[SOLVER_SECRET_HEADER]) {
      try {
        const solver = authenticateSolver(this.options.solvers, headers);
        return { kind: "solver", id: `solver:${solver.id}` };
      } catch {
        // Wrong credentials are no solver: the request is limited as any other (its route refuses it if it must).
      }
    }
    const header = headers[API_KEY_HEADER];
    if (header === undefined) return this.#anonymous.of(request.ip);
    return this.#keyCaller(header, partner);
  }

  async #keyCaller(header: string | string[], partner: boolean): Promise<Caller> {
    const key = typeof header === "string" ? await this.options.keys.find(header) : undefined;
    if (!key) throw partner ? new PartnerInvalidApiKeyError() : new InvalidApiKeyError();
    const { anonymous } = this.options;
    const id = `key:${key.name}`;
    const limits = {
      quote: key.quotesPerMinute ?? anonymous.quote,
      read: key.readsPerSecond ?? anonymous.read,
    };
    return { kind: "key", id, integrator: key.name, limits, allowances: allowancesOf(id, limits) };
  }
}

/**
 * The class and integrator of a refusal by a rate limit (a class's count, or a caller's concurrent streams), for
 * sluice_rate_limit_rejections_total; undefined for any other failure.
 */
export function rateLimitRejection(
  request: FastifyRequest,
  error: unknown,
): { class: LimitClass; integrator: string } | undefined {
  const limitClass =
    error instanceof RateLimitedError
      ? error.limitClass
      : error instanceof StreamClientLimitError
        ? "stream"
        : undefined;
  if (!limitClass) return undefined;
  const caller = request.caller;
  return { class: limitClass, integrator: caller?.kind === "key" ? caller.integrator : "anonymous" };
}

/** The RateLimit-* headers of a counted request, and its refusal when over the limit. */
function answer(
  reply: FastifyReply,
  count: WindowCount,
  limitClass: CountedClass,
  allowance: ClassAllowance,
  partner: boolean,
  done: HookHandlerDoneFunction,
): void {
  const { limit } = allowance;
  const resetSeconds = Math.max(1, Math.ceil(count.ttl / 1000));
  reply.header("ratelimit-limit", allowance.limitText);
  reply.header("ratelimit-remaining", String(Math.max(0, limit - count.current)));
  reply.header("ratelimit-reset", String(resetSeconds));
  if (count.current <= limit) {
    done();
    return;
  }
  reply.header("retry-after", resetSeconds);
  done(
    partner
      ? new PartnerRateLimitedError(limitClass, limit, resetSeconds)
      : new RateLimitedError(limitClass, limit, resetSeconds),
  );
}
