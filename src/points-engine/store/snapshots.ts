// The own type's published points (points_engine_snapshots, points_engine_vault_type_totals): a snapshot every
// `snapshotEveryBlocks` blocks as per vault × receiver type aggregates with its total and Σ emitted — no per-receiver
// copies — and the same aggregates at the engine's position, replaced at every step (block_number CURRENT). A
// snapshot is written in its step's transaction: readers see all of it or none.
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { SqlSession } from "../../shared/sql-session.ts";

/** The block_number under which the aggregates at the engine's position are kept. */
export const CURRENT = -1n;

export interface VaultTypeAmount {
  vault: string;
  receiverType: string;
  points: bigint;
}

export interface EngineSnapshot {
  blockNumber: bigint;
  blockTimestamp: bigint;
  total: bigint;
  emitted: bigint;
  vaults: VaultTypeAmount[];
}

export interface SnapshotHeader {
  blockNumber: bigint;
  blockTimestamp: bigint;
  total: bigint;
  emitted: bigint;
  publishedAt: Date;
}

export async function publishSnapshot(tx: SqlSession, snapshot: EngineSnapshot, now: Date): Promise<void> {
  await tx.execute(sql`
    insert into points_engine_snapshots (block_number, block_timestamp, total, emitted, published_at)
    values (${snapshot.blockNumber.toString()}::bigint, ${snapshot.blockTimestamp.toString()}::bigint,
            ${snapshot.total.toString()}::numeric, ${snapshot.emitted.toString()}::numeric,
            ${now.toISOString()}::timestamptz)`);
  await insertAmounts(tx, snapshot.blockNumber, snapshot.vaults);
}

/** Replaces the aggregates at the engine's position. */
export async function writeCurrentAmounts(
  tx: SqlSession,
  amounts: readonly VaultTypeAmount[],
): Promise<void> {
  await tx.execute(
    sql`delete from points_engine_vault_type_totals where block_number = ${CURRENT.toString()}::bigint`,
  );
  await insertAmounts(tx, CURRENT, amounts);
}

async function insertAmounts(
  tx: SqlSession,
  block: bigint,
  amounts: readonly VaultTypeAmount[],
): Promise<void> {
  if (amounts.length === 0) return;
  const json = JSON.stringify(
    amounts.map((amount) => ({ v: amount.vault, t: amount.receiverType, p: amount.points.toString() })),
  );
  await tx.execute(sql`
    insert into points_engine_vault_type_totals (block_number, vault, receiver_type, points)
    select ${block.toString()}::bigint, r.v, r.t, r.p::numeric from jsonb_to_recordset(${json}::jsonb) as r(v text, t text, p text)`);
}

/** Forgets the snapshots above `forkPoint` (a rewind). */
export async function deleteSnapshotsAbove(tx: SqlSession, forkPoint: bigint): Promise<void> {
  const above = forkPoint.toString();
  await tx.execute(sql`delete from points_engine_vault_type_totals where block_number > ${above}::bigint`);
  await tx.execute(sql`delete from points_engine_snapshots where block_number > ${above}::bigint`);
}

/** Every snapshot's header, ascending by block (the serving side's index of them). */
export function listSnapshots(database: Database): Promise<SnapshotHeader[]> {
  return listSnapshotsWhere(database, "order by points_engine_snapshots.block_number");
}

/** The newest snapshot's header; undefined before the first. */
export async function lastSnapshot(database: Database): Promise<SnapshotHeader | undefined> {
  const [row] = await listSnapshotsWhere(
    database,
    "order by points_engine_snapshots.block_number desc limit 1",
  );
  return row;
}

async function listSnapshotsWhere(database: Database, tail: string): Promise<SnapshotHeader[]> {
  const rows = await database.query<{
    block_number: string;
    block_timestamp: string;
    total: string;
    emitted: string;
    published_at: Date | string;
  }>(
    `select block_number::text as block_number, block_timestamp::text as block_timestamp, total::text as total,
            emitted::text as emitted, published_at from points_engine_snapshots ${tail}`,
  );
  return rows.map((row) => ({
    blockNumber: BigInt(row.block_number),
    blockTimestamp: BigInt(row.block_timestamp),
    total: BigInt(row.total),
    emitted: BigInt(row.emitted),
    publishedAt: new Date(row.published_at),
  }));
}

/** The per vault × receiver type amounts of a snapshot (or CURRENT), optionally of one vault. */
export async function readAmounts(
  database: Database,
  block: bigint,
  vault?: string,
): Promise<VaultTypeAmount[]> {
  const rows = await database.query<{ vault: string; receiver_type: string; points: string }>(
    `select vault, receiver_type, points::text as points from points_engine_vault_type_totals
      where block_number = $1 ${vault === undefined ? "" : "and vault = $2"}
      order by vault, receiver_type`,
    vault === undefined ? [block.toString()] : [block.toString(), vault],
  );
  return rows.map((row) => ({
    vault: row.vault,
    receiverType: row.receiver_type,
    points: BigInt(row.points),
  }));
}
