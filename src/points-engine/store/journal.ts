// The undo journal (points_engine_journal): before a block's changes are written, each changed record as it was
// (null when it did not exist yet). A rewind to a fork point restores, per key, the image from before the oldest
// removed block that changed it, and forgets the removed blocks' entries. Entries of blocks at or below finality
// can no longer be needed and are pruned.
import { sql } from "drizzle-orm";
import { type SqlSession, selectRows } from "../../shared/sql-session.ts";
import { type StoredRecord, upsertRecords } from "./records.ts";
import type { RecordValue } from "./tables.ts";

const KEYS_PER_STATEMENT = 5_000;

/** Records, before `block` changes them, each key's current value (or its absence); a key's first image wins. */
export async function journalBeforeImages(
  tx: SqlSession,
  block: bigint,
  changes: readonly Pick<StoredRecord, "kind" | "key">[],
): Promise<void> {
  for (let start = 0; start < changes.length; start += KEYS_PER_STATEMENT) {
    const keys = JSON.stringify(
      changes.slice(start, start + KEYS_PER_STATEMENT).map(({ kind, key }) => ({ kind, key })),
    );
    await tx.execute(sql`
      insert into points_engine_journal (block_number, kind, key, vault, receiver, before)
      select ${block.toString()}::bigint, k.kind, k.key, r.vault, r.receiver, r.value
        from jsonb_to_recordset(${keys}::jsonb) as k(kind text, key text)
        left join points_engine_records r on r.kind = k.kind and r.key = k.key
      on conflict do nothing`);
  }
}

/** Restores every record changed above `forkPoint` to its value at `forkPoint`; returns how many were restored. */
export async function rewindJournal(tx: SqlSession, forkPoint: bigint): Promise<number> {
  const rows = await selectRows<{
    kind: string;
    key: string;
    vault: string | null;
    receiver: string | null;
    before: RecordValue | string | null;
  }>(
    tx,
    sql`select distinct on (kind, key) kind, key, vault, receiver, before
          from points_engine_journal where block_number > ${forkPoint.toString()}::bigint
         order by kind, key, block_number asc`,
  );
  const absent = rows.filter((row) => row.before === null);
  const restored: StoredRecord[] = rows.flatMap((row) =>
    row.before === null
      ? []
      : [
          {
            kind: row.kind,
            key: row.key,
            ...(row.vault === null ? {} : { vault: row.vault }),
            ...(row.receiver === null ? {} : { receiver: row.receiver }),
            value: typeof row.before === "string" ? (JSON.parse(row.before) as RecordValue) : row.before,
          },
        ],
  );
  if (absent.length > 0) {
    const keys = JSON.stringify(absent.map(({ kind, key }) => ({ kind, key })));
    await tx.execute(sql`
      delete from points_engine_records r
       using jsonb_to_recordset(${keys}::jsonb) as k(kind text, key text)
       where r.kind = k.kind and r.key = k.key`);
  }
  await upsertRecords(tx, restored);
  await tx.execute(
    sql`delete from points_engine_journal where block_number > ${forkPoint.toString()}::bigint`,
  );
  return rows.length;
}

/** Forgets the images of blocks at or below `finalBlock`: no reorg reaches them. */
export async function pruneJournal(tx: SqlSession, finalBlock: bigint): Promise<void> {
  await tx.execute(
    sql`delete from points_engine_journal where block_number <= ${finalBlock.toString()}::bigint`,
  );
}

/** Forgets the whole journal (a rewind to the start block). */
export async function clearJournal(tx: SqlSession): Promise<void> {
  await tx.execute(sql`delete from points_engine_journal`);
}
