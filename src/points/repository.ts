// Read queries of the points endpoints. Each one is an index lookup on a primary key or on the receiver
// index, parameterised by snapshot ids the in-memory SnapshotIndex has already chosen.
import { and, eq, sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Database } from "../db/client.ts";
import { integerArrayLiteral } from "../shared/sql-session.ts";
import { SnapshotIndex, type SnapshotRef } from "./snapshot-index.ts";
import { pointsBalances } from "./tables.ts";

/** Items per piece of a vault's receiver list: about 13 KB of JSON, well inside one read of the socket. */
export const VAULT_RECEIVERS_PIECE = 100;

// Addresses come back exactly as stored: lowercase, validated on ingest.
export interface VaultAmount {
  snapshotId: number;
  vault: Address;
  points: string;
}

export interface SnapshotAmount {
  snapshotId: number;
  points: string;
}

export interface ReceiverTypeAmount {
  snapshotId: number;
  receiverType: string;
  points: string;
}

export class PointsRepository {
  /**
   * The hottest query: a named prepared statement, so PostgreSQL plans it once per connection rather than
   * on every request (planning costs more than running this index lookup).
   */
  readonly #receiverPointsByVault;

  constructor(private readonly database: Database) {
    this.#receiverPointsByVault = database.db
      .select({
        snapshotId: pointsBalances.snapshotId,
        vault: pointsBalances.vault,
        points: sql<string>`sum(${pointsBalances.points})::text`,
      })
      .from(pointsBalances)
      .where(
        and(
          eq(pointsBalances.receiver, sql.placeholder("receiver")),
          sql`${pointsBalances.snapshotId} = any(${sql.placeholder("snapshotIds")}::int[])`,
        ),
      )
      .groupBy(pointsBalances.snapshotId, pointsBalances.vault)
      .prepare("points_receiver_by_vault");
  }

  /** Every snapshot and every vault any snapshot has points in. */
  async loadSnapshotIndex(): Promise<SnapshotIndex> {
    const [snapshots, vaults] = await Promise.all([
      this.database.query<{ id: number; points_type: string; block_number: string }>(
        "select id, points_type, block_number from points_snapshots",
      ),
      this.database.query<{ address: string }>("select address from points_vaults"),
    ]);
    const refs: SnapshotRef[] = snapshots.map((row) => ({
      id: row.id,
      pointsType: row.points_type,
      blockNumber: Number(row.block_number),
    }));
    return new SnapshotIndex(
      refs,
      vaults.map((row) => row.address),
    );
  }

  /** A receiver's points per vault in each of the snapshots (all receiver types added up). */
  async receiverPointsByVault(receiver: string, snapshotIds: readonly number[]): Promise<VaultAmount[]> {
    const rows = await this.#receiverPointsByVault.execute({
      receiver,
      snapshotIds: integerArrayLiteral(snapshotIds),
    });
    return rows as VaultAmount[];
  }

  /** Every vault's total in each of the snapshots. */
  async vaultTotals(snapshotIds: readonly number[]): Promise<VaultAmount[]> {
    const rows = await this.database.query<{ snapshot_id: number; vault: Address; points: string }>(
      `select snapshot_id, vault, points::text as points
       from points_vault_totals where snapshot_id = any($1::int[])`,
      [integerArrayLiteral(snapshotIds)],
    );
    return rows.map((row) => ({ snapshotId: row.snapshot_id, vault: row.vault, points: row.points }));
  }

  /** One vault's total in each of the snapshots where it has points. */
  async vaultTotal(vault: string, snapshotIds: readonly number[]): Promise<SnapshotAmount[]> {
    const rows = await this.database.query<{ snapshot_id: number; points: string }>(
      `select snapshot_id, points::text as points
       from points_vault_totals where vault = $1 and snapshot_id = any($2::int[])`,
      [vault, integerArrayLiteral(snapshotIds)],
    );
    return rows.map((row) => ({ snapshotId: row.snapshot_id, points: row.points }));
  }

  /** One vault's totals per receiver type in each of the snapshots. */
  async vaultTotalsByReceiverType(
    vault: string,
    snapshotIds: readonly number[],
  ): Promise<ReceiverTypeAmount[]> {
    const rows = await this.database.query<{ snapshot_id: number; receiver_type: string; points: string }>(
      `select snapshot_id, receiver_type, points::text as points
       from points_vault_type_totals where vault = $1 and snapshot_id = any($2::int[])`,
      [vault, integerArrayLiteral(snapshotIds)],
    );
    return rows.map((row) => ({
      snapshotId: row.snapshot_id,
      receiverType: row.receiver_type,
      points: row.points,
    }));
  }

  /**
   * One keyset page of a vault's receivers in a snapshot, ascending by receiver, each receiver's receiver
   * types added up, as the JSON items of PointsByReceiverSchema in pieces of at most `piece` items joined by
   * commas. Keyset pages (not a server cursor) so PGlite's single connection is never held. The database
   * builds the JSON, so the server handles a few strings instead of thousands of row objects (the large
   * vault's list is 300,000 rows); pieces rather than one string per page because a message of hundreds of
   * KB makes the driver grow its read buffer by doubling and leaves large buffers that outlive the young
   * generation, and the process's memory would then rise with the bytes sent until a full collection.
   * Receivers and amounts are stored validated (lowercase hex, digits): nothing needs escaping.
   */
  async vaultReceiversJsonPage(
    snapshotId: number,
    vault: string,
    afterReceiver: string | null,
    limit: number,
    piece: number,
  ): Promise<{ pieces: string[]; lastReceiver: string | null; rows: number }> {
    const rows = await this.database.query<{ json: string; last: string; rows: number }>(
      `with page as (
         select receiver, sum(points) as points
         from points_balances
         where snapshot_id = $1 and vault = $2 and receiver > $3
         group by receiver
         order by receiver
         limit $4
       ), numbered as (
         select receiver, points, (row_number() over (order by receiver) - 1) / $5 as piece from page
       )
       select string_agg('{"receiver_address":"' || receiver || '","points":"' || points::text || '"}', ','
                         order by receiver) as json,
              max(receiver) as last, count(*)::int as rows
       from numbered
       group by piece
       order by piece`,
      [snapshotId, vault, afterReceiver ?? "", limit, piece],
    );
    return {
      pieces: rows.map((row) => row.json),
      lastReceiver: rows.at(-1)?.last ?? null,
      rows: rows.reduce((sum, row) => sum + row.rows, 0),
    };
  }

  /** Whether the registry lists the vault (approved or not). */
  async registryKnowsVault(vault: string): Promise<boolean> {
    const rows = await this.database.query("select 1 from registry_vaults where address = $1", [vault]);
    return rows.length > 0;
  }
}
