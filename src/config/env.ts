// The process environment the service reads, parsed once and validated, so a typo fails at start.
import { z } from "zod";
import { DEFAULT_RPC_TIMEOUT_MS } from "../chain/client.ts";
import { DEFAULT_BLOCK_POLL_MS } from "../chain/heads.ts";
import { SHIPPED_NETWORKS } from "../deployment/load.ts";
import { DEFAULT_HTTP_TIMEOUTS, HEARTBEAT_INTERVAL_MS, type HttpTimeouts } from "./http-timeouts.ts";

/** A duration in milliseconds, at least `min`, at most a day. */
const milliseconds = (min: number) => z.coerce.number().int().min(min).max(86_400_000);

/** The internal listener's port when INTERNAL_PORT is not set (a devnet takes a free one instead). */
export const DEFAULT_INTERNAL_PORT = 8081;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** The internal listener (the internal discount API, /metrics): never on the public port. */
  INTERNAL_HOST: z.string().min(1).default("127.0.0.1"),
  /** `0` picks a free one; unset: 8081 (DEFAULT_INTERNAL_PORT), except on the devnet, which picks a free one. */
  INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** `solver-secret`: x-solver-id + that solver's x-rfq-shared-secret; `network`: none, the network is the guard. */
  INTERNAL_API_AUTH: z.enum(["solver-secret", "network"]).default("solver-secret"),
  /** `1` lets `network` mode listen on a public address (refused otherwise). */
  INTERNAL_API_ALLOW_PUBLIC: z.enum(["0", "1"]).default("0"),
  /** Host names (or `name:port`), comma-separated, the internal listener answers to besides its own (host-guard.ts). */
  INTERNAL_ALLOWED_HOSTS: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  /** The API's public origin (e.g. https://api.example.com): the URLs Sluice hands out; required off the devnet. */
  PUBLIC_URL: z.string().url().optional(),
  /** How long one RPC URL (RPC_URLS) gets to answer one request before the next is tried. */
  RPC_TIMEOUT_MS: milliseconds(100).default(DEFAULT_RPC_TIMEOUT_MS),
  /**
   * A WebSocket RPC endpoint: new heads are pushed from it (eth_subscribe newHeads) instead of polled. `off`: polled
   * even on the devnet, which otherwise subscribes to its anvil.
   */
  RPC_WS_URL: z
    .union([z.literal("off"), z.string().regex(/^wss?:\/\/\S+$/, "must be a ws:// or wss:// URL, or off")])
    .optional(),
  /** Without a subscription (no RPC_WS_URL, or it is lost): how often eth_blockNumber is polled for new heads. */
  BLOCK_POLL_MS: milliseconds(10).default(DEFAULT_BLOCK_POLL_MS),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How long to keep accepting requests (with /health answering 503) after SIGTERM before closing the listener. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** Then in-flight requests get this long to finish before the connections still open are closed. */
  SHUTDOWN_TIMEOUT_MS: milliseconds(1).default(DEFAULT_HTTP_TIMEOUTS.shutdownMs),
  /** A request's line and headers must arrive within this long (at most HTTP_REQUEST_TIMEOUT_MS). */
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(1).default(DEFAULT_HTTP_TIMEOUTS.headersMs),
  /** A whole request, headers and body, must arrive within this long. */
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(1).default(DEFAULT_HTTP_TIMEOUTS.requestMs),
  /** A socket without traffic for this long is closed; longer than the 15 s heartbeat of long-lived responses. */
  HTTP_IDLE_TIMEOUT_MS: milliseconds(1)
    .default(DEFAULT_HTTP_TIMEOUTS.idleMs)
    .refine(
      (value) => value > HEARTBEAT_INTERVAL_MS,
      `must be more than ${HEARTBEAT_INTERVAL_MS} (long-lived responses send a heartbeat every 15 s)`,
    ),
  /** A kept-alive connection waiting for its next request is closed after this long. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(1).default(DEFAULT_HTTP_TIMEOUTS.keepAliveMs),
  /** Load the demo registry and points dataset into an empty embedded database (default: on without DATABASE_URL). */
  SLUICE_DEMO_DATA: z.enum(["0", "1"]).optional(),
  /** Where the demo registry's metadata tree lives. */
  DEMO_REGISTRY_DIR: z.string().optional(),
  /** Base URL for registry icons (`meta.icon`). */
  REGISTRY_ICON_BASE_URL: z.string().url().optional(),
  /** A shipped network whose deployment `serve` runs; with neither this nor DEPLOYMENT_FILE, `serve` runs the devnet. */
  DEPLOYMENT: z.enum(SHIPPED_NETWORKS).optional(),
  /** An operator's deployment file, merged over DEPLOYMENT's shipped facts (or standing alone). */
  DEPLOYMENT_FILE: z.string().min(1).optional(),
  /** Order streams (GET /orders/stream) one replica holds at most; beyond it, 503. */
  STREAM_MAX_CONNECTIONS: z.coerce.number().int().min(0).default(10_000),
  /** Order streams one client address holds on one replica at most; beyond it, 429. */
  STREAM_MAX_PER_IP: z.coerce.number().int().min(1).default(100),
  /** A solver's own streams (with its credentials) one replica holds at most, whatever their address; beyond, 429. */
  STREAM_MAX_PER_SOLVER: z.coerce.number().int().min(1).default(10),
  /** Database connections the order streams read on at once, out of the pool (10 on PostgreSQL). */
  STREAM_DB_CONNECTIONS: z.coerce.number().int().min(1).default(2),
  /** Order changes are kept this long: a stream resumes from any id not older. */
  STREAM_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
  /**
   * The proxies in front of the public API, comma-separated addresses or CIDRs (e.g. `10.0.0.0/8`): a request from
   * one of them is the client X-Forwarded-For names (its rate limits, its logs). Unset: X-Forwarded-For is ignored.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/,
      "must list proxy addresses or CIDRs, comma-separated",
    )
    .optional(),
  /**
   * `off`: no API key is checked and no request is rate limited (a venue behind a gateway that does both, or a
   * benchmark's baseline). /quote's load shedding stays on.
   */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /**
   * `off`: this replica never runs the Reactor indexer (another replica on the same database does; a replica that
   * runs it takes the indexer lease, so at most one indexes either way).
   */
  INDEXER: z.enum(["on", "off"]).default("on"),
  /** `off`: this replica never runs the points engine; it serves the own points another replica computes. */
  POINTS_ENGINE: z.enum(["on", "off"]).default("on"),
  /** The anonymous tier's POST /quote and POST /order per client address per minute (and a key's without its own). */
  RATE_LIMIT_QUOTES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** The anonymous tier's reads per client address per second (and a key's without its own). */
  RATE_LIMIT_READS_PER_SECOND: z.coerce.number().int().min(1).default(50),
  /** /quote rounds one replica runs at once at most; beyond it, 503 OVERLOADED at once. */
  QUOTE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(200),
  /** Event-loop delay (ms) beyond which /quote rounds are shed (503 OVERLOADED); 0: never. */
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(200),
  // Readiness (GET /ready, src/readiness): each check is bounded by the timeout, so a hung dependency fails it.
  /** The longest one readiness check may take before it counts as failed. */
  READY_CHECK_TIMEOUT_MS: milliseconds(1).default(800),
  /** The chain head must have come from the RPC this recently; older, the check asks the RPC itself. */
  READY_HEAD_MAX_AGE_MS: milliseconds(1).default(1000),
  /** The head's block must be at most this old (its timestamp); 0 checks nothing. Not checked on local chains. */
  READY_MAX_BLOCK_AGE_SECONDS: z.coerce.number().int().min(0).default(120),
  /** How many blocks the indexer (on any replica) may be behind the confirmed head before the venue is not ready. */
  READY_MAX_INDEXER_LAG_BLOCKS: z.coerce.number().int().min(0).default(10),
  READY_MAX_POINTS_ENGINE_LAG_BLOCKS: z.coerce.number().int().min(0).default(10),
  // PostgreSQL only (src/db/postgres.ts).
  /** Opening a connection, authentication included; also the longest wait for a free pooled connection. */
  DB_CONNECT_TIMEOUT_MS: milliseconds(1).default(5000),
  /** A pooled connection unused this long is closed. */
  DB_IDLE_TIMEOUT_MS: milliseconds(1).default(10_000),
  /** statement_timeout of the server's request connections (not of imports, migrations or commands). */
  DB_STATEMENT_TIMEOUT_MS: milliseconds(1).default(10_000),
  /** The longest wait for an advisory lock another session holds (migrations, registry imports). */
  DB_LOCK_TIMEOUT_MS: milliseconds(1).default(60_000),
  /** TCP keepalive idle time of every connection; PostgreSQL drops a silent client 10 s (10 probes) after it. */
  DB_KEEPALIVE_MS: milliseconds(1000).default(10_000),
});

export type Env = z.infer<typeof EnvSchema>;

/** Node refuses a header timeout longer than the request timeout (the headers are part of the request). */
const CheckedEnvSchema = EnvSchema.refine(
  (env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS,
  {
    message: "must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)",
    path: ["HTTP_HEADERS_TIMEOUT_MS"],
  },
);

export class InvalidEnvironmentError extends Error {
  override name = "InvalidEnvironmentError";
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "unset", as shells and container runtimes commonly pass them.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = CheckedEnvSchema.safeParse(present);
  if (!parsed.success) {
    const reasons = parsed.error.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
    throw new InvalidEnvironmentError(`Invalid environment: ${reasons}`);
  }
  return parsed.data;
}

/** The HTTP server's client and shutdown timeouts the environment sets. */
export function httpTimeouts(env: Env): HttpTimeouts {
  return {
    headersMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: env.HTTP_REQUEST_TIMEOUT_MS,
    idleMs: env.HTTP_IDLE_TIMEOUT_MS,
    keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    shutdownMs: env.SHUTDOWN_TIMEOUT_MS,
  };
}

export type InternalApiAuth = Env["INTERNAL_API_AUTH"];

export class InternalListenerExposedError extends Error {
  override name = "InternalListenerExposedError";
}

/** Loopback, RFC 1918, CGNAT, link-local and IPv6 unique-local/link-local addresses, and `localhost`. */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h === "::1") return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h.replace(/^::ffff:/, ""));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 ||
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254)
    );
  }
  return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h);
}

/**
 * In `network` mode the internal API asks no credentials, and resolve hands out protocol co-signatures that let
 * their holder redeem at the discount outside the auction: it may only listen on a loopback or private address,
 * unless the operator says otherwise (INTERNAL_API_ALLOW_PUBLIC=1).
 */
export function checkInternalListener(env: Env): void {
  if (env.INTERNAL_API_AUTH !== "network" || env.INTERNAL_API_ALLOW_PUBLIC === "1") return;
  if (isPrivateHost(env.INTERNAL_HOST)) return;
  throw new InternalListenerExposedError(
    `INTERNAL_API_AUTH=network asks no credentials, so INTERNAL_HOST must be a loopback or private address ` +
      `(got ${env.INTERNAL_HOST}); set INTERNAL_API_ALLOW_PUBLIC=1 if the network in front of it is the guard`,
  );
}
