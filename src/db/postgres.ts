// PostgreSQL through node-postgres. Every connection is bounded: opening it (connect timeout), leaving it unused (idle
// timeout), and on request connections each statement (the server's statement_timeout, and on this side a query the
// server has not answered shortly after that drops its connection, so a network partition cannot hold a request).
// No database event can kill the process: every connection keeps an 'error' listener for its whole life, also while
// a transaction or a lock holds it, and the pool replaces broken connections. Advisory locks live on dedicated
// sessions with TCP keepalives at both ends, so PostgreSQL releases the lock of a holder that went silent.
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Logger } from "../logger.ts";
import { OutageLog } from "../outages.ts";
import {
  type AdvisoryLock,
  type LockWaitPolicy,
  lockSession,
  lockTransaction,
  tryLockSession,
} from "./advisory-locks.ts";
import type { Database, Db, Listening, NotificationHandlers, WriteStatement } from "./client.ts";
import * as schema from "./schema.ts";
import { asClientFailure, asDatabaseUnavailable, DatabaseUnavailableError } from "./unavailable.ts";

export interface PostgresTimeouts {
  /** Opening a connection, authentication included; also the longest wait for a free pooled connection. */
  connectMs: number;
  /** A pooled connection unused this long is closed. */
  idleMs: number;
  /** statement_timeout of request connections; undefined: none (commands, imports, migrations). */
  statementMs: number | undefined;
  /** The longest wait for an advisory lock another session holds (migrations, imports). */
  lockWaitMs: number;
  /** TCP keepalive idle time of every connection, on this side and on PostgreSQL's. */
  keepAliveMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectMs: 5000,
  idleMs: 10_000,
  statementMs: undefined,
  lockWaitMs: 60_000,
  keepAliveMs: 10_000,
};

/** How much longer than the server's own statement timeout this side waits before calling the connection dead. */
const ANSWER_GRACE_MS = 1000;
/** PostgreSQL's keepalive probes once a connection has been silent for keepAliveMs: this many, one a second. */
const KEEPALIVE_PROBES = 10;

export interface PostgresOptions {
  url: string;
  poolSize: number;
  timeouts: PostgresTimeouts;
  logger: Logger;
  /** The database's outages, shared by its pools (default: a new one on `logger`). */
  outage?: OutageLog;
}

/** node-postgres's pipeline switch and the socket under a client: not in its typings. */
interface PipelinedClient {
  pipeline: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
}

/**
 * BEGIN, the statements and COMMIT sent at once, in one write, and their answers read as they come: one round trip
 * instead of one per statement (each a write and a wake-up on both sides). A statement that fails leaves the
 * transaction aborted, so the statements after it fail and COMMIT rolls back: all or nothing, as one by one. The
 * first failure is thrown once every answer is in.
 */
async function sentTogether(client: pg.PoolClient, statements: readonly WriteStatement[]): Promise<void> {
  const raw = client as unknown as PipelinedClient;
  const { stream } = raw.connection;
  raw.pipeline = true;
  let sent: Array<Promise<unknown>> = [];
  stream.cork();
  try {
    sent = [
      client.query("begin"),
      ...statements.map(({ text, params, name }) =>
        name
          ? client.query({ name, text, values: params as unknown[] })
          : client.query(text, params as unknown[]),
      ),
      client.query("commit"),
    ];
  } finally {
    stream.uncork();
  }
  const outcomes = await Promise.allSettled(sent);
  raw.pipeline = false;
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
}

export function openPostgres(options: PostgresOptions): Database {
  const { timeouts, logger } = options;
  const outage = options.outage ?? new OutageLog(logger, "database");
  const shared: PostgresOptions = { ...options, outage };
  const { statementMs } = timeouts;
  const pool = new ClassifyingPool({
    ...connectionConfig(options.url, timeouts, "sluice"),
    max: options.poolSize,
    idleTimeoutMillis: timeouts.idleMs,
    ...(statementMs !== undefined ? { statement_timeout: statementMs } : {}),
    Client: BoundedClient as never,
    answerWithinMs: statementMs === undefined ? undefined : statementMs + ANSWER_GRACE_MS,
    outage,
  } as pg.PoolConfig & { outage: OutageLog });
  pool.on("connect", (client) => {
    // An idle connection that breaks is replaced; if the database is out of reach, the next query says so (once).
    client.on("error", (error) =>
      logger[asDatabaseUnavailable(asClientFailure(error)) ? "debug" : "warn"](
        { err: error },
        "database connection lost",
      ),
    );
  });
  // The pool's own report of an idle connection's error: the listener above has logged it already.
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const policy: LockWaitPolicy = { timeoutMs: timeouts.lockWaitMs, logger };
  let maintenance: Database | undefined;

  const database: Database = {
    kind: "postgres",
    db,
    async query(text, params, queryOptions) {
      const result = queryOptions?.name
        ? await pool.query({ name: queryOptions.name, text, values: params as unknown[] })
        : await pool.query(text, params as unknown[]);
      return result.rows;
    },
    async writeTogether(statements) {
      // One statement is a transaction of its own: no BEGIN and COMMIT round trips.
      const [only] = statements;
      if (statements.length === 1 && only) {
        await database.query(only.text, only.params, only.name ? { name: only.name } : undefined);
        return;
      }
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await sentTogether(client, statements);
      } catch (error) {
        failure = error as Error;
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        // A failed write's connection is closed, not reused: nothing it was left in reaches another caller.
        client.release(failure);
      }
    },
    get maintenance(): Database {
      if (statementMs === undefined) return database;
      maintenance ??= openPostgres({
        ...options,
        outage,
        poolSize: 2,
        timeouts: { ...timeouts, statementMs: undefined },
      });
      return maintenance;
    },
    async tryAdvisoryLock(lock) {
      const session = await openLockSession(shared, lock);
      try {
        if (!(await tryLockSession(session.client, lock))) {
          await session.close();
          return null;
        }
      } catch (error) {
        await session.close();
        throw error;
      }
      return {
        get lost() {
          return session.lost();
        },
        release: session.close,
      };
    },
    async withAdvisoryLock(lock, fn) {
      const session = await openLockSession(shared, lock);
      try {
        await lockSession(session.client, lock, policy);
        // The work done under the lock (migrations) has no time limit.
        session.client.answerWithinMs = undefined;
        return await fn(drizzlePg(session.client, { schema }) as unknown as Db);
      } finally {
        await session.close();
      }
    },
    lockTransaction: (tx, lock) => lockTransaction(tx, lock, policy),
    async readConsistently(fn) {
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await client.query("begin isolation level repeatable read read only");
        const result = await fn(async (text, params) => (await client.query(text, params)).rows);
        await client.query("commit");
        return result;
      } catch (error) {
        failure = error as Error;
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release(failure);
      }
    },
    listen: (channel, handlers) => listenWithReconnect(shared, channel, handlers),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await maintenance?.close();
      await pool.end();
    },
  };
  return database;
}

type Callback = (error: unknown, ...results: unknown[]) => unknown;

/**
 * Runs `call` (a node-postgres method taking a callback last, or returning a promise without one) so that what it
 * fails with is classified where the client raised it (asClientFailure), the database's outage told of each
 * failure that means it is out of reach and of each success, and `settled` called once either way.
 */
function classified(
  outage: OutageLog,
  call: (...args: unknown[]) => unknown,
  args: unknown[],
  settled: () => void = () => {},
): unknown {
  const report = (error: unknown): unknown => {
    const failure = asClientFailure(error);
    if (failure instanceof DatabaseUnavailableError) outage.failed(failure);
    return failure;
  };
  const callback = args.at(-1);
  if (typeof callback === "function") {
    args[args.length - 1] = (error: unknown, ...results: unknown[]) => {
      settled();
      if (error) return (callback as Callback)(report(error), ...results);
      outage.succeeded();
      return (callback as Callback)(error, ...results);
    };
    return call(...args);
  }
  const result = call(...args) as Promise<unknown> | undefined;
  if (!result || typeof result.then !== "function") return result;
  return result.then(
    (value) => {
      settled();
      outage.succeeded();
      return value;
    },
    (error: unknown) => {
      settled();
      throw report(error);
    },
  );
}

/** A pool whose connect (the path of every pooled query) fails with classified errors (see BoundedClient). */
class ClassifyingPool extends pg.Pool {
  constructor(config: pg.PoolConfig & { outage: OutageLog }) {
    super(config);
    const connect = this.connect.bind(this) as (...args: unknown[]) => unknown;
    this.connect = ((...args: unknown[]) => classified(config.outage, connect, args)) as pg.Pool["connect"];
  }
}

/**
 * A node-postgres client whose connect and queries fail with classified errors: a DatabaseUnavailableError when the
 * database is out of reach (told to the database's OutageLog), the driver's own error otherwise. It gives up on a
 * query the server has not answered within `answerWithinMs` of sending it: it destroys the connection, which fails
 * the query (and any queued behind it) with DatabaseUnavailableError.
 */
class BoundedClient extends pg.Client {
  answerWithinMs: number | undefined;

  constructor(config: pg.ClientConfig & { answerWithinMs?: number | undefined; outage: OutageLog }) {
    super(config);
    this.answerWithinMs = config.answerWithinMs;
    const { outage } = config;
    const connect = this.connect.bind(this) as (...args: unknown[]) => unknown;
    this.connect = ((...args: unknown[]) => classified(outage, connect, args)) as pg.Client["connect"];
    const send = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const limitMs = this.answerWithinMs;
      // Submittables (cursors, streams) run for as long as their reader wants, and report to it.
      if (typeof (args[0] as pg.Submittable | undefined)?.submit === "function") return send(...args);
      if (limitMs === undefined) return classified(outage, send, args);
      const timer = setTimeout(() => {
        this.connection.stream.destroy(
          new DatabaseUnavailableError(`no answer from the database within ${limitMs} ms`),
        );
      }, limitMs);
      return classified(outage, send, args, () => clearTimeout(timer));
    }) as pg.Client["query"];
  }
}

interface LockSessionConnection {
  client: BoundedClient;
  /** Why the session ended, once it has: its locks are gone with it. */
  lost(): Error | undefined;
  /** Ends the session, which releases its locks; a connection the network has swallowed is dropped. */
  close(): Promise<void>;
}

/** A connection of its own for session-level locks: it sits idle while holding them, outside the pool. */
async function openLockSession(options: PostgresOptions, lock: AdvisoryLock): Promise<LockSessionConnection> {
  const { timeouts, logger } = options;
  const client = new BoundedClient({
    ...connectionConfig(options.url, timeouts, `sluice ${lock.name} lock`),
    answerWithinMs: timeouts.lockWaitMs + ANSWER_GRACE_MS,
    outage: options.outage ?? new OutageLog(logger, "database"),
  });
  let lost: Error | undefined;
  let closing = false;
  client.on("error", (error) => {
    lost ??= error;
    logger.warn({ err: error, lock: lock.name }, `lost the database session holding the ${lock.name} lock`);
  });
  client.on("end", () => {
    if (!closing) lost ??= new DatabaseUnavailableError(`the session holding the ${lock.name} lock closed`);
  });
  const close = async () => {
    closing = true;
    const timer = setTimeout(() => client.connection.stream.destroy(), timeouts.connectMs);
    await client.end().catch(() => {});
    clearTimeout(timer);
  };
  try {
    await client.connect();
  } catch (error) {
    await close();
    throw error;
  }
  return { client, lost: () => lost, close };
}

/** How long a dropped listening connection waits before it connects again. */
const LISTEN_RECONNECT_MS = 1000;

/**
 * LISTEN on a connection of its own (named `sluice listen` in pg_stat_activity), re-opened after it drops, for as long
 * as it is not stopped.
 */
async function listenWithReconnect(
  options: PostgresOptions,
  channel: string,
  handlers: NotificationHandlers,
): Promise<Listening> {
  const { timeouts, logger } = options;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let listening = false;

  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client(connectionConfig(options.url, timeouts, "sluice listen"));
    client = current;
    let down = false;
    const dropped = (error: Error) => {
      if (down || stopped) return;
      down = true;
      const failure = asClientFailure(error);
      if (failure instanceof DatabaseUnavailableError) options.outage?.failed(failure);
      // Said once when a listening connection is lost; the attempts that fail while it is down are the outage's.
      logger[listening ? "warn" : "debug"](
        { err: error, channel },
        "lost the database connection listening for changes; reconnecting",
      );
      listening = false;
      handlers.onDisconnected(error);
      current.connection.stream.destroy();
      retry = setTimeout(connect, LISTEN_RECONNECT_MS);
    };
    current.on("error", dropped);
    current.on("end", () => dropped(new DatabaseUnavailableError("the listening connection closed")));
    current.on("notification", (message) => {
      if (message.channel === channel) handlers.onNotify();
    });
    try {
      await current.connect();
      await current.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      dropped(error as Error);
      return;
    }
    if (stopped) return;
    listening = true;
    handlers.onConnected();
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      if (!current) return;
      // A connection the network has swallowed never answers the goodbye: it is dropped after the connect timeout.
      const timer = setTimeout(() => current.connection.stream.destroy(), timeouts.connectMs);
      await current.end().catch(() => {});
      clearTimeout(timer);
    },
  };
}

/**
 * Connection settings shared by the pool and the lock sessions. PostgreSQL's keepalive settings travel in the startup
 * `options`, joined to any the URL carries (node-postgres lets the URL's replace the config's).
 */
function connectionConfig(url: string, timeouts: PostgresTimeouts, applicationName: string): pg.ClientConfig {
  const parsed = new URL(url);
  const own = parsed.searchParams.get("options");
  parsed.searchParams.delete("options");
  const idleSeconds = Math.max(1, Math.ceil(timeouts.keepAliveMs / 1000));
  const keepalives = `-c tcp_keepalives_idle=${idleSeconds} -c tcp_keepalives_interval=1 -c tcp_keepalives_count=${KEEPALIVE_PROBES}`;
  return {
    connectionString: parsed.toString(),
    options: own ? `${own} ${keepalives}` : keepalives,
    application_name: applicationName,
    connectionTimeoutMillis: timeouts.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.keepAliveMs,
  };
}
