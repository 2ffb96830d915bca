// The ledger's current records (points_engine_records): written by the engine's steps, read back whole to restore the
// ledger at start, and by receiver or by vault to answer /points/* for the current block on any replica.
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type SqlSession, selectRows } from "../../shared/sql-session.ts";
import type { RecordValue } from "./tables.ts";

/** One ledger record as stored: kind + key name it; vault and receiver index it when it belongs to one. */
export interface StoredRecord {
  kind: string;
  key: string;
  vault?: string | undefined;
  receiver?: string | undefined;
  value: RecordValue;
}

/** Rows per statement: one JSON parameter each, so a backfill's large batch never builds one huge message. */
const ROWS_PER_STATEMENT = 5_000;

/** The last change of each key wins: one statement may not update a row twice. */
export function latestPerKey(records: Iterable<StoredRecord>): StoredRecord[] {
  const byKey = new Map<string, StoredRecord>();
  for (const record of records) byKey.set(`${record.kind}\u0000${record.key}`, record);
  return [...byKey.values()];
}

/** Inserts or replaces `records` (each key once: see latestPerKey). */
export async function upsertRecords(tx: SqlSession, records: readonly StoredRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const json = JSON.stringify(
      records.slice(start, start + ROWS_PER_STATEMENT).map((record) => ({
        kind: record.kind,
        key: record.key,
        vault: record.vault ?? null,
        receiver: record.receiver ?? null,
        value: record.value,
      })),
    );
    await tx.execute(sql`
      insert into points_engine_records (kind, key, vault, receiver, value)
      select r.kind, r.key, r.vault, r.receiver, r.value
        from jsonb_to_recordset(${json}::jsonb) as r(kind text, key text, vault text, receiver text, value jsonb)
      on conflict (kind, key) do update
        set vault = excluded.vault, receiver = excluded.receiver, value = excluded.value`);
  }
}

/** Every record: the ledger's whole state, to restore it. */
export async function readAllRecords(session: SqlSession): Promise<StoredRecord[]> {
  return (
    await selectRows<RecordRow>(
      session,
      sql`select kind, key, vault, receiver, value from points_engine_records order by kind, key`,
    )
  ).map(fromRow);
}

/** The records that belong to no receiver: networks, vaults, pairs, prices (small; what every valuation needs). */
export async function readSharedRecords(database: Database): Promise<StoredRecord[]> {
  const rows = await database.query<RecordRow>(
    "select kind, key, vault, receiver, value from points_engine_records where receiver is null order by kind, key",
  );
  return rows.map(fromRow);
}

/** One receiver's records, in every vault. */
export async function readReceiverRecords(database: Database, receiver: string): Promise<StoredRecord[]> {
  const rows = await database.query<RecordRow>(
    "select kind, key, vault, receiver, value from points_engine_records where receiver = $1 order by kind, key",
    [receiver],
    { name: "points_engine_receiver_records" },
  );
  return rows.map(fromRow);
}

/**
 * One keyset page of a vault's receivers' records: the records of at most `limit` receivers after `afterReceiver`,
 * ascending by receiver.
 */
export async function readVaultReceiverRecords(
  database: Database,
  vault: string,
  afterReceiver: string | null,
  limit: number,
): Promise<{ records: StoredRecord[]; lastReceiver: string | null; receivers: number }> {
  const rows = await database.query<RecordRow>(
    `with page as (
       select distinct receiver from points_engine_records
        where vault = $1 and receiver is not null and receiver > $2
        order by receiver limit $3
     )
     select r.kind, r.key, r.vault, r.receiver, r.value
       from points_engine_records r join page p on p.receiver = r.receiver
      where r.vault = $1
      order by r.receiver, r.kind, r.key`,
    [vault, afterReceiver ?? "", limit],
  );
  const records = rows.map(fromRow);
  const receivers = new Set(records.map((record) => record.receiver));
  return { records, lastReceiver: records.at(-1)?.receiver ?? null, receivers: receivers.size };
}

interface RecordRow extends Record<string, unknown> {
  kind: string;
  key: string;
  vault: string | null;
  receiver: string | null;
  value: RecordValue | string;
}

function fromRow(row: RecordRow): StoredRecord {
  return {
    kind: row.kind,
    key: row.key,
    ...(row.vault === null ? {} : { vault: row.vault }),
    ...(row.receiver === null ? {} : { receiver: row.receiver }),
    // PGlite and pg both parse jsonb; a string is parsed here should a driver not.
    value: typeof row.value === "string" ? (JSON.parse(row.value) as RecordValue) : row.value,
  };
}
