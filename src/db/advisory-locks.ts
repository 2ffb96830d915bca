// Every PostgreSQL advisory lock Sluice takes, and the only code that calls pg_advisory* / pg_try_advisory* (a test
// checks). Named locks use the one-bigint key space; per-item locks hash a name into the two-int4 key space, which
// PostgreSQL keeps apart from the bigint one (objsubid 2 instead of 1 in pg_locks), so a hash can never meet a
// named key.
import { sql } from "drizzle-orm";
import type { Logger } from "../logger.ts";
import type { Db } from "./client.ts";

export interface AdvisoryLock {
  /** Unique among ADVISORY_LOCKS. */
  readonly key: bigint;
  /** What it guards, for logs and errors ("the registry import lock"). */
  readonly name: string;
}

export const ADVISORY_LOCKS = {
  /** Serialises replicas migrating at the same time. */
  migrations: { key: 0x5c1c_e000_0001n, name: "migrations" },
  /** One replica at a time runs the Reactor indexer. */
  indexer: { key: 0x5c1c_e000_0002n, name: "indexer" },
  /** Serialises registry imports (a second replace would insert keys the first just inserted). */
  registryImport: { key: 0x5c1c_e000_0003n, name: "registry import" },
  /** One replica (or one `sluice points engine backfill`) at a time runs the points engine. */
  pointsEngine: { key: 0x5c1c_e000_0004n, name: "points engine" },
} as const satisfies Record<string, AdvisoryLock>;

/** The first int4 of a hashed per-item lock: which kind of item the hashed name belongs to. */
export const HASHED_LOCK_NAMESPACES = {
  /** A discount's (adapter, tokenToRedeem) pair: publishes and cancels of one pair run one at a time. */
  discountPair: 1,
} as const;
export type HashedLockNamespace = (typeof HASHED_LOCK_NAMESPACES)[keyof typeof HASHED_LOCK_NAMESPACES];

/** How long to wait for a lock another session holds, and where to say so. */
export interface LockWaitPolicy {
  timeoutMs: number;
  logger: Pick<Logger, "warn">;
}

/** A dedicated connection (pg.Client) that holds session-level locks. */
export interface LockSession {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A transaction: transaction-level locks are released at its commit or rollback. */
export type LockTransaction = Pick<Db, "execute">;

export class LockWaitTimeoutError extends Error {
  override name = "LockWaitTimeoutError";
  constructor(
    readonly lock: AdvisoryLock,
    readonly timeoutMs: number,
    readonly holder: string,
  ) {
    super(
      `gave up waiting for the ${lock.name} lock after ${timeoutMs} ms: ${holder} holds it ` +
        "(DB_LOCK_TIMEOUT_MS sets how long to wait)",
    );
  }
}

/** Takes `lock` on the session if no other session holds it. */
export async function tryLockSession(session: LockSession, lock: AdvisoryLock): Promise<boolean> {
  const result = await session.query("select pg_try_advisory_lock($1::bigint) as locked", [
    lock.key.toString(),
  ]);
  return (result.rows[0] as { locked: boolean } | undefined)?.locked === true;
}

/**
 * Takes `lock` on the session, waiting for another holder at most `policy.timeoutMs` (then LockWaitTimeoutError);
 * a wait is logged first, naming the holder's backend.
 */
export async function lockSession(
  session: LockSession,
  lock: AdvisoryLock,
  policy: LockWaitPolicy,
): Promise<void> {
  if (await tryLockSession(session, lock)) return;
  const holder = await announceWait(lock, policy, async (text) => (await session.query(text)).rows);
  await session.query("select set_config('lock_timeout', $1, false)", [`${policy.timeoutMs}ms`]);
  try {
    await session.query("select pg_advisory_lock($1::bigint)", [lock.key.toString()]);
  } catch (error) {
    throw isLockTimeout(error) ? new LockWaitTimeoutError(lock, policy.timeoutMs, holder) : error;
  }
  await session.query("reset lock_timeout");
}

/** Takes `lock` until the end of the transaction, waiting as `lockSession` does. */
export async function lockTransaction(
  tx: LockTransaction,
  lock: AdvisoryLock,
  policy: LockWaitPolicy,
): Promise<void> {
  const key = lock.key.toString();
  const tried = await rowsOf<{ locked: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock(${key}::bigint) as locked`,
  );
  if (tried[0]?.locked) return;
  const holder = await announceWait(lock, policy, (text) => rowsOf(tx, sql.raw(text)));
  // The limit is for this wait only: the transaction's own setting is back before anything else runs in it.
  const previous = await rowsOf<{ value: string }>(tx, sql`select current_setting('lock_timeout') as value`);
  await tx.execute(sql`select set_config('lock_timeout', ${`${policy.timeoutMs}ms`}, true)`);
  try {
    await tx.execute(sql`select pg_advisory_xact_lock(${key}::bigint)`);
  } catch (error) {
    throw isLockTimeout(error) ? new LockWaitTimeoutError(lock, policy.timeoutMs, holder) : error;
  }
  await tx.execute(sql`select set_config('lock_timeout', ${previous[0]?.value ?? "0"}, true)`);
}

/** Takes the per-item lock of `name` in `namespace` until the end of the transaction (two-int4 key space). */
export async function lockHashedTransaction(
  tx: LockTransaction,
  namespace: HashedLockNamespace,
  name: string,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${namespace}::int4, hashtext(${name}))`);
}

/** Logs that this session waits for `lock` and for whom; returns the holder's description for the timeout error. */
async function announceWait(
  lock: AdvisoryLock,
  policy: LockWaitPolicy,
  select: (text: string) => Promise<unknown[]>,
): Promise<string> {
  const rows = (await select(holderQuery(lock))) as HolderRow[];
  const holder = rows[0] ? describeHolder(rows[0]) : "another session";
  policy.logger.warn(
    { lock: lock.name, key: `0x${lock.key.toString(16)}`, holder, timeoutMs: policy.timeoutMs },
    `waiting for the ${lock.name} lock, held by ${holder}; giving up after ${policy.timeoutMs} ms`,
  );
  return holder;
}

interface HolderRow {
  pid: number;
  application_name: string | null;
  client_addr: string | null;
  backend_start: Date | string | null;
}

/** The backend holding a bigint-keyed advisory lock in this database (pg_locks splits the key into two oids). */
function holderQuery(lock: AdvisoryLock): string {
  const high = lock.key >> 32n;
  const low = lock.key & 0xffff_ffffn;
  return `select l.pid, a.application_name, host(a.client_addr) as client_addr, a.backend_start
            from pg_locks l left join pg_stat_activity a on a.pid = l.pid
           where l.locktype = 'advisory' and l.granted and l.objsubid = 1
             and l.classid = ${high}::oid and l.objid = ${low}::oid
             and l.database = (select oid from pg_database where datname = current_database())
           limit 1`;
}

function describeHolder(row: HolderRow): string {
  const app = row.application_name ? ` "${row.application_name}"` : "";
  const from = row.client_addr ? ` from ${row.client_addr}` : "";
  const since = row.backend_start ? `, connected ${new Date(row.backend_start).toISOString()}` : "";
  return `PostgreSQL backend ${row.pid}${app}${from}${since}`;
}

/** SQLSTATE 55P03 lock_not_available: lock_timeout expired. */
function isLockTimeout(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === "55P03") return true;
  }
  return false;
}

async function rowsOf<Row>(
  tx: LockTransaction,
  query: Parameters<LockTransaction["execute"]>[0],
): Promise<Row[]> {
  // Both drivers answer `{ rows }`; drizzle's shared type leaves the result opaque.
  const result = (await tx.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
