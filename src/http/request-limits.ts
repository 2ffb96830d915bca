// The request limits of the public API, run before anything else of a limited route (its `limit` class in the route
// table): who the caller is (a solver's credentials: never limited; an `x-api-key`: that integrator, 401 when it is
// not a live key; none: the client address), then the caller's count in the route's class through
// @fastify/rate-limit. Every limited answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; one over
// the limit is a 429 RATE_LIMITED in the route's envelope with Retry-After. Streams are limited by how many a caller
// holds (stream-connections.ts), keyed by the caller found here.
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiKeyDirectory } from "../api-keys/directory.ts";
import { InvalidApiKeyError, PartnerInvalidApiKeyError } from "../api-keys/errors.ts";
import { API_KEY_HEADER } from "../api-keys/secret.ts";
import { SOLVER_ID_HEADER, SOLVER_SECRET_HEADER } from "../discounts/schemas.ts";
import { authenticateSolver } from "../discounts/solver-auth.ts";
import {
  type Caller,
  type CallerLimits,
  type CountedClass,
  type LimitClass,
  WINDOW_MS,
} from "../limits/classes.ts";
import { PartnerRateLimitedError, RateLimitedError } from "../limits/errors.ts";
import { rateLimitStore } from "../limits/rate-limit-store.ts";
import type { WindowCounter } from "../limits/window-counters.ts";
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

type Check = ReturnType<App["createRateLimit"]>;

export class RequestLimits {
  #checks: Record<CountedClass, Check> | undefined;

  constructor(private readonly options: RequestLimitsOptions) {}

  /** Registers the limiter on the public server; routes mounted afterwards are limited by their class. */
  async register(app: App): Promise<void> {
    app.decorateRequest("caller", undefined);
    await app.register(rateLimit, { global: false, store: rateLimitStore(this.options.counters) });
    const check = (limitClass: CountedClass): Check =>
      app.createRateLimit({
        limitClass,
        timeWindow: WINDOW_MS[limitClass],
        keyGenerator: (request: FastifyRequest) => `${limitClass}:${request.caller!.id}`,
        max: (request: FastifyRequest) => {
          const caller = request.caller!;
          return caller.kind === "solver" ? Number.MAX_SAFE_INTEGER : caller.limits[limitClass];
        },
      } as Parameters<App["createRateLimit"]>[0]);
    this.#checks = { quote: check("quote"), read: check("read") };
    // On the limited routes only, first of their own hooks (after the server's: a refusal carries the request id and
    // the CORS headers): a route without a class runs nothing of it.
    app.addHook("onRoute", (route) => {
      const limitClass = route.config?.limit;
      if (!limitClass) return;
      const partner = isPartnerPath(route.url);
      const limit = (request: FastifyRequest, reply: FastifyReply) =>
        this.#limit(request, reply, limitClass, partner);
      const own =
        route.onRequest === undefined
          ? []
          : Array.isArray(route.onRequest)
            ? route.onRequest
            : [route.onRequest];
      route.onRequest = [limit, ...own];
    });
  }

  async #limit(
    request: FastifyRequest,
    reply: FastifyReply,
    limitClass: LimitClass,
    partner: boolean,
  ): Promise<void> {
    const caller = await this.#callerOf(request, partner);
    request.caller = caller;
    if (caller.kind === "solver" || limitClass === "stream") return;
    const result = await this.#checks![limitClass](request);
    if (result.isAllowed) return;
    const resetSeconds = Math.max(1, result.ttlInSeconds);
    reply.header("ratelimit-limit", result.max);
    reply.header("ratelimit-remaining", result.remaining);
    reply.header("ratelimit-reset", resetSeconds);
    if (!result.isExceeded) return;
    reply.header("retry-after", resetSeconds);
    throw partner
      ? new PartnerRateLimitedError(limitClass, result.max, resetSeconds)
      : new RateLimitedError(limitClass, result.max, resetSeconds);
  }

  async #callerOf(request: FastifyRequest, partner: boolean): Promise<Caller> {
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
    if (header === undefined)
      return { kind: "ip", id: `ip:${normalizeIP(request.ip)}`, limits: this.options.anonymous };
    const key = typeof header === "string" ? await this.options.keys.find(header) : undefined;
    if (!key) throw partner ? new PartnerInvalidApiKeyError() : new InvalidApiKeyError();
    const { anonymous } = this.options;
    return {
      kind: "key",
      id: `key:${key.name}`,
      integrator: key.name,
      limits: { quote: key.quotesPerMinute ?? anonymous.quote, read: key.readsPerSecond ?? anonymous.read },
    };
  }
}
