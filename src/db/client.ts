// Opens the service's database: PostgreSQL through `pg` when a URL is given, otherwise PGlite (PostgreSQL
// compiled to WASM) in a data directory or in memory. Both speak the same SQL and run the same migrations.
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { type Logger, silentLogger } from "../logger.ts";
import type { AdvisoryLock } from "./advisory-locks.ts";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { pgliteOpenFailed, preparePgliteDataDir } from "./pglite-data-dir.ts";
import { pgliteTemplateArchive } from "./pglite-template.ts";
import { DEFAULT_POSTGRES_TIMEOUTS, openPostgres, type PostgresTimeouts } from "./postgres.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle `db.transaction` passes to its callback: writes that commit or roll back together. */
export type DbTransaction = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type DatabaseKind = "pglite" | "postgres";

export type DatabaseOptions =
  | {
      kind: "postgres";
      url: string;
      poolSize?: number;
      /** DEFAULT_POSTGRES_TIMEOUTS where not given (no statement timeout). */
      timeouts?: Partial<PostgresTimeouts>;
      /** Where lost connections and lock waits are reported (default: nowhere). */
      logger?: Logger;
    }
  | {
      kind: "pglite";
      dataDir: string;
      /** The directory's lock, when the caller took it already (lockEmbeddedDatabase); released on close. */
      lock?: DataDirLock;
    }
  | { kind: "pglite"; memory: true };

export interface QueryOptions {
  /**
   * Runs `text` as a named prepared statement on PostgreSQL: each connection parses it once, and PostgreSQL may keep
   * its plan. One name must always mean one text. PGlite ignores it.
   */
  name?: string;
}

/** One statement of a write several domains make together: each domain builds its own (its SQL, its rows). */
export interface WriteStatement {
  text: string;
  params: unknown[];
  /** As QueryOptions.name: a prepared statement on PostgreSQL. */
  name?: string;
}

export interface Database {
  readonly kind: DatabaseKind;
  /** Drizzle over the same connection(s). */
  readonly db: Db;
  /** Raw parameterised SQL for hot read paths; rows come back as plain objects. */
  query<Row extends Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /**
   * Runs the statements in order in one transaction: all of them are stored or none. Lets each domain own the SQL of
   * its tables while a write that concerns several (a round's answers and the scorecards' counts of them) stays whole.
   */
  writeTogether(statements: readonly WriteStatement[]): Promise<void>;
  /** The same database without statement timeouts, for migrations and imports (itself when it has none). */
  readonly maintenance: Database;
  /** A session-level advisory lock held on a dedicated connection until released or lost; null if held elsewhere. */
  tryAdvisoryLock(lock: AdvisoryLock): Promise<SessionLock | null>;
  /**
   * Runs `fn` on a dedicated session holding a session-level advisory lock, waiting for another holder at most the
   * lock timeout (a logged wait, then LockWaitTimeoutError).
   */
  withAdvisoryLock<T>(lock: AdvisoryLock, fn: (session: Db) => Promise<T>): Promise<T>;
  /** Takes a transaction-level advisory lock in `tx`, waiting as `withAdvisoryLock` does. */
  lockTransaction(tx: Pick<Db, "execute">, lock: AdvisoryLock): Promise<void>;
  /** Runs `fn`'s queries in one read-only repeatable-read transaction: all of them see one snapshot. */
  readConsistently<T>(fn: (query: RawQuery) => Promise<T>): Promise<T>;
  /**
   * Listens to NOTIFY on `channel` (sent by any session of this database) on a connection of its own, kept open and
   * re-opened when it drops. Notifications sent while it is down are lost: `onConnected` says when it is (again)
   * listening, so the caller reads what it may have missed. Resolves once the first attempt has been made.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<Listening>;
  /** The request pool's connections now (PostgreSQL; PGlite has no pool): the pool gauges read it at each scrape. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open (idle or in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection: above 0 for long, the pool is too small or the database too slow. */
  waiting: number;
}

export type RawQuery = <Row extends Record<string, unknown>>(
  text: string,
  params?: unknown[],
) => Promise<Row[]>;

export interface NotificationHandlers {
  onNotify(): void;
  onConnected(): void;
  onDisconnected(error: Error): void;
}

export interface Listening {
  stop(): Promise<void>;
}

export interface SessionLock {
  /** Set once the session holding the lock has ended or broken: the lock is gone with it. */
  readonly lost: Error | undefined;
  release(): Promise<void>;
}

// PostgreSQL returns int8 and numeric as strings; keep them strings so bigint-sized values never become doubles.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres")
    return openPostgres({
      url: options.url,
      poolSize: options.poolSize ?? 10,
      timeouts: { ...DEFAULT_POSTGRES_TIMEOUTS, ...options.timeouts },
      logger: options.logger ?? silentLogger(),
    });
  return openPglite("memory" in options ? undefined : options);
}

/**
 * Takes the embedded database's directory lock now (data-dir-lock.ts), for a caller that must know it holds the
 * directory before it starts anything else; the database opened with the returned options owns the lock.
 */
export function lockEmbeddedDatabase(options: DatabaseOptions): DatabaseOptions {
  if (options.kind !== "pglite" || "memory" in options || options.lock) return options;
  return { ...options, lock: acquireDataDirLock(options.dataDir) };
}

async function openPglite(directory: { dataDir: string; lock?: DataDirLock } | undefined): Promise<Database> {
  // One process per data directory: the lock comes before anything reads or writes the directory.
  const lock = directory ? (directory.lock ?? acquireDataDirLock(directory.dataDir)) : undefined;
  let client: PGlite;
  try {
    client = await startPglite(directory?.dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  const database: Database = {
    kind: "pglite",
    db,
    async query(text, params) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as never;
    },
    async writeTogether(statements) {
      const [only] = statements;
      if (statements.length === 1 && only) {
        await client.query(only.text, only.params);
        return;
      }
      await client.transaction(async (tx) => {
        for (const statement of statements) await tx.query(statement.text, statement.params);
      });
    },
    get maintenance() {
      return database;
    },
    // PGlite is a single in-process connection: whoever holds this process holds every lock.
    async tryAdvisoryLock() {
      return { lost: undefined, async release() {} };
    },
    withAdvisoryLock: (_lock, fn) => fn(db),
    async lockTransaction() {},
    readConsistently: (fn) =>
      client.transaction((tx) =>
        fn(async (text, params) => (await tx.query(text, params as unknown[])).rows as never),
      ),
    // One process: the listener never drops.
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, () => handlers.onNotify());
      handlers.onConnected();
      return { stop: () => (closed ? Promise.resolve() : unlisten()) };
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
  return database;
}

/** The environment's database variables (config/env.ts reads and validates them). */
export interface DatabaseEnv {
  DATABASE_URL?: string | undefined;
  DATA_DIR?: string | undefined;
  DB_CONNECT_TIMEOUT_MS: number;
  DB_IDLE_TIMEOUT_MS: number;
  DB_STATEMENT_TIMEOUT_MS: number;
  DB_LOCK_TIMEOUT_MS: number;
  DB_KEEPALIVE_MS: number;
}

/**
 * Who opens the database: the `server` (request connections get the statement timeout) or a `command` (imports and
 * migrations: no statement timeout).
 */
export interface DatabaseUse {
  role: "server" | "command";
  logger: Logger;
}

async function startPglite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir) preparePgliteDataDir(dataDir);
  // In memory, the template comes as an archive to load (no initdb either).
  const archive = dataDir ? undefined : await pgliteTemplateArchive();
  try {
    // One options object: PGlite ignores the options argument when the data directory argument is undefined.
    const client = new PGlite({
      ...(dataDir ? { dataDir } : {}),
      ...(archive ? { loadDataDir: archive } : {}),
      // Same string representation of int8/numeric as on PostgreSQL.
      parsers: { 20: (value: string) => value, 1700: (value: string) => value },
    });
    await client.waitReady;
    return client;
  } catch (error) {
    throw dataDir ? pgliteOpenFailed(dataDir, error) : error;
  }
}

/** Reads the database options from the environment: `DATABASE_URL`, else PGlite under `DATA_DIR`. */
export function databaseOptionsFromEnv(
  env: DatabaseEnv,
  defaultDataDir: string,
  use: DatabaseUse,
): DatabaseOptions {
  if (env.DATABASE_URL) {
    return {
      kind: "postgres",
      url: env.DATABASE_URL,
      timeouts: {
        connectMs: env.DB_CONNECT_TIMEOUT_MS,
        idleMs: env.DB_IDLE_TIMEOUT_MS,
        statementMs: use.role === "server" ? env.DB_STATEMENT_TIMEOUT_MS : undefined,
        lockWaitMs: env.DB_LOCK_TIMEOUT_MS,
        keepAliveMs: env.DB_KEEPALIVE_MS,
      },
      logger: use.logger,
    };
  }
  return { kind: "pglite", dataDir: `${env.DATA_DIR ?? defaultDataDir}/db` };
}
