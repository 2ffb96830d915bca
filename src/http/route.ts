// What one entry of the route table (routes.ts) is: method, path, schema, handler, and the API it belongs to.
// `route()` checks the handler against the schema (request types from it, answers typed by its responses) and keeps
// how to mount it; the server mounts every entry the same way.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from "fastify";
import type { $ZodType } from "zod/v4/core";
import { InvalidApiKeyError, PartnerInvalidApiKeyError } from "../api-keys/errors.ts";
import type { LimitClass } from "../limits/classes.ts";
import { PartnerRateLimitedError, RateLimitedError } from "../limits/errors.ts";
import type { ErrorClass } from "../shared/errors.ts";
import { isPartnerPath, PartnerErrorSchema, SwapErrorSchema } from "./errors.ts";
import { type ErrorStatusAnswer, errorStatusAnswers, type RouteFailures } from "./route-answers.ts";
import type { SluiceTypeProvider } from "./type-provider.ts";

/** The application type routes are mounted on and tests work with. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  SluiceTypeProvider
>;

/**
 * Which API a route belongs to, and so which server serves it: the public API under /api/v1 and in the OpenAPI
 * document (HOST/PORT), the internal one (internal solvers, /metrics) under /api-internal/v1 and never documented,
 * on its own listener (INTERNAL_HOST/INTERNAL_PORT).
 */
export type Listener = "public" | "internal";

export const API_PREFIX = "/api/v1";
export const INTERNAL_API_PREFIX = "/api-internal/v1";

export const LISTENER_PREFIX: Record<Listener, string> = {
  public: API_PREFIX,
  internal: INTERNAL_API_PREFIX,
};

/** A handler whose request and answer types are its schema's. */
export type Handler<Schema extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  unknown,
  Schema,
  SluiceTypeProvider,
  FastifyBaseLogger
>;

export interface RouteDefinition<Schema extends FastifySchema> {
  method: "GET" | "POST";
  /** The path below the listener's prefix, e.g. `/quote` for /api/v1/quote. */
  url: string;
  listener: Listener;
  /** Served at the port's root instead of under the listener's prefix (only /metrics, where scrapers look). */
  atRoot?: true;
  /**
   * The class the public API's request limits count the route in (request-limits.ts): its caller's key is checked
   * and its rate limited. None: never limited (health, metrics, docs, the dev helpers, the internal API).
   */
  limit?: LimitClass;
  /**
   * Fastify's schema, plus what the route's failures are (`errors` its service can throw, `database` when it needs
   * one, `chain` when it reads the chain): every error status they lead to is added to `response` (see
   * route-answers.ts).
   */
  schema: Schema & RouteFailures;
  handler: Handler<Schema>;
  /** Runs before the body is read: a refusal (no credentials, wrong deployment) whatever the request's shape. */
  onRequest?: (request: FastifyRequest) => Promise<void>;
  /** A body larger than the server's limit this route takes (the registry import's tree). */
  bodyLimit?: number;
  /** A route's own serializers (the /quote fast path); by default each response schema checks and serializes. */
  serializerCompiler?: FastifySerializerCompiler<$ZodType>;
}

/** One mounted thing of the table: a route, or the docs' static files. */
export interface RouteEntry {
  method: "GET" | "POST";
  /** The full path, e.g. `/api/v1/quote`. */
  path: string;
  listener: Listener;
  limit?: LimitClass;
  /** Every error status the route can answer and its codes; undefined for routes that declare no responses. */
  errorAnswers?: readonly ErrorStatusAnswer[];
  /** What the route's own statuses (200, 304, …) mean, for the document. */
  descriptions?: Partial<Record<number, string>>;
  mount(app: App): void;
}

export function route<Schema extends FastifySchema>(definition: RouteDefinition<Schema>): RouteEntry {
  const { listener, atRoot, url, limit, ...options } = definition;
  const path = `${atRoot ? "" : LISTENER_PREFIX[listener]}${url}`;
  const { errors: ownErrors, database, chain, descriptions, ...declared } = options.schema;
  const envelope = isPartnerPath(path) ? "partner" : "swap";
  // The partner API's reads are answered by the thousand from caches: their successes are logged at debug.
  const routineLog = envelope === "partner" && definition.method === "GET" ? (true as const) : undefined;
  const errors = limit ? [...(ownErrors ?? []), ...LIMIT_ERRORS[envelope][limit]] : ownErrors;
  const errorAnswers = declared.response
    ? errorStatusAnswers({
        method: definition.method,
        envelope,
        validatesInput: Boolean(declared.body || declared.querystring || declared.params || declared.headers),
        failures: {
          ...(errors ? { errors } : {}),
          ...(database ? { database } : {}),
          ...(chain ? { chain } : {}),
        },
      })
    : undefined;
  const withAnswers = errorAnswers
    ? { ...declared, response: { ...envelopesOf(errorAnswers), ...(declared.response as object) } }
    : declared;
  // The internal API is never in the public document.
  const schema = listener === "internal" ? { ...withAnswers, hide: true } : withAnswers;
  return {
    method: definition.method,
    path,
    listener,
    ...(limit ? { limit } : {}),
    ...(errorAnswers ? { errorAnswers } : {}),
    ...(descriptions ? { descriptions } : {}),
    mount: (app) => {
      const { serializerCompiler, schema: _declared, ...rest } = options;
      app.route({
        ...rest,
        url: path,
        schema: schema as Schema,
        ...(limit || routineLog
          ? { config: { ...(limit ? { limit } : {}), ...(routineLog ? { routineLog } : {}) } }
          : {}),
        // Fastify's types give a route's serializer compiler the route's schema; it is called with each response's.
        ...(serializerCompiler
          ? { serializerCompiler: serializerCompiler as unknown as FastifySerializerCompiler<Schema> }
          : {}),
      });
    },
  };
}

/** What the request limits can answer on a limited route, per envelope and class (streams: a key check only). */
const LIMIT_ERRORS: Record<"swap" | "partner", Record<LimitClass, readonly ErrorClass[]>> = {
  swap: {
    quote: [InvalidApiKeyError, RateLimitedError],
    read: [InvalidApiKeyError, RateLimitedError],
    stream: [InvalidApiKeyError],
  },
  partner: {
    quote: [PartnerInvalidApiKeyError, PartnerRateLimitedError],
    read: [PartnerInvalidApiKeyError, PartnerRateLimitedError],
    stream: [PartnerInvalidApiKeyError],
  },
};

/** Each error status's envelope schema (a status the route declares itself keeps its own). */
function envelopesOf(answers: readonly ErrorStatusAnswer[]) {
  return Object.fromEntries(
    answers.map((answer) => [
      answer.status,
      answer.envelope === "swap" ? SwapErrorSchema : PartnerErrorSchema,
    ]),
  );
}
