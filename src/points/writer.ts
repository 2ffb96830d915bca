// Bulk ingest of one points snapshot, used by the file import, the partner sync, the demo data and the
// benchmark generator. Rows are streamed in batches (one `unnest` insert of a few thousand rows each)
// straight into the snapshot's per-receiver rows; the aggregates are then computed with `insert … select …
// group by`, all in one transaction: a snapshot is either complete or absent. (1M rows take well under a
// minute on PostgreSQL.)
import { type SQL, sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Database } from "../db/client.ts";
import { bumpGeneration } from "../db/generations.ts";
import { MAX_SAFE_INTEGER, MAX_UINT256 } from "../http/wire.ts";
import { MAX_POINTS_DECIMALS } from "./amounts.ts";
import { integerArrayLiteral, type SqlSession, selectRows, textArrayLiteral } from "./sql-session.ts";

/** One input row: points of a receiver (of a receiver type) in a vault, in the type's smallest unit. */
export interface PointsRow {
  vault: Address;
  receiver: Address;
  receiverType: string;
  points: bigint;
}

export interface SnapshotTarget {
  pointsType: string;
  blockNumber: number;
  /** Decimals of the points type; required when the type is new, checked when it exists. */
  decimals?: number;
}

export interface SnapshotSummary {
  snapshotId: number;
  pointsType: string;
  blockNumber: number;
  decimals: number;
  /** Rows received, before duplicates of (vault, receiver, receiver type) were summed. */
  inputRows: number;
  /** Stored per-receiver rows. */
  receiverRows: number;
  vaults: number;
  totalPoints: bigint;
}

export class PointsTypeError extends Error {
  override name = "PointsTypeError";
}

export class SnapshotExistsError extends Error {
  override name = "SnapshotExistsError";
  constructor(
    readonly pointsType: string,
    readonly blockNumber: number,
  ) {
    super(
      `points type ${pointsType} already has a snapshot at block ${blockNumber}; snapshots are immutable`,
    );
  }
}

export class InvalidPointsRowError extends Error {
  override name = "InvalidPointsRowError";
}

const POINTS_TYPE_PATTERN = /^\S(?:.{0,98}\S)?$/;
const ADDRESS_PATTERN = /^0x[0-9a-f]{40}$/;
const DEFAULT_BATCH_SIZE = 5_000;

/** Returns the decimals of `name`, creating the type when `decimals` is given and the type is new. */
export async function ensurePointsType(
  session: SqlSession,
  name: string,
  decimals?: number,
): Promise<number> {
  if (!POINTS_TYPE_PATTERN.test(name)) {
    throw new PointsTypeError(
      `invalid points type ${JSON.stringify(name)}: 1 to 100 characters, no outer spaces`,
    );
  }
  if (
    decimals !== undefined &&
    !(Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_POINTS_DECIMALS)
  ) {
    throw new PointsTypeError(`decimals must be an integer from 0 to ${MAX_POINTS_DECIMALS}`);
  }
  if (decimals !== undefined) {
    await session.execute(
      sql`insert into points_types (name, decimals) values (${name}, ${decimals}) on conflict (name) do nothing`,
    );
  }
  const [row] = await selectRows<{ decimals: number }>(
    session,
    sql`select decimals from points_types where name = ${name}`,
  );
  if (!row) throw new PointsTypeError(`points type ${name} is new: give its decimals`);
  if (decimals !== undefined && row.decimals !== decimals) {
    throw new PointsTypeError(`points type ${name} has ${row.decimals} decimals, not ${decimals}`);
  }
  return row.decimals;
}

/**
 * Ingests one snapshot inside an open transaction. Use `ingestSnapshot` unless you own the transaction.
 * Rows go straight into `points_balances` under the new snapshot's id (repeats of a (vault, receiver,
 * receiver type) add up); the aggregates are computed from them by `finish`.
 */
export class SnapshotWriter {
  #inputRows = 0;

  private constructor(
    private readonly session: SqlSession,
    private readonly target: Required<SnapshotTarget>,
    private readonly snapshotId: number,
  ) {}

  static async open(session: SqlSession, target: SnapshotTarget): Promise<SnapshotWriter> {
    if (
      !Number.isSafeInteger(target.blockNumber) ||
      target.blockNumber < 0 ||
      target.blockNumber > MAX_SAFE_INTEGER
    ) {
      throw new InvalidPointsRowError(`block number must be an integer from 0 to ${MAX_SAFE_INTEGER}`);
    }
    const decimals = await ensurePointsType(session, target.pointsType, target.decimals);
    // Totals are filled in by `finish`; until the transaction commits nobody sees this row.
    const [snapshot] = await selectRows<{ id: number }>(
      session,
      sql`insert into points_snapshots (points_type, block_number, total_points, receiver_rows)
          values (${target.pointsType}, ${target.blockNumber}, 0, 0)
          on conflict on constraint points_snapshots_type_block_unique do nothing
          returning id`,
    );
    if (!snapshot) throw new SnapshotExistsError(target.pointsType, target.blockNumber);
    return new SnapshotWriter(session, { ...target, decimals }, snapshot.id);
  }

  get decimals(): number {
    return this.target.decimals;
  }

  /** Adds a batch of rows (a few thousand per call keeps statements and memory small). */
  async append(rows: readonly PointsRow[]): Promise<void> {
    if (rows.length === 0) return;
    // One statement cannot update the same row twice, so repeats within the batch are added up here.
    const positions = new Map<string, { row: PointsRow; points: bigint }>();
    for (const [offset, row] of rows.entries()) {
      const problem = rowProblem(row);
      if (problem) throw new InvalidPointsRowError(`row ${this.#inputRows + offset + 1}: ${problem}`);
      const key = `${row.vault}${row.receiver}\u0000${row.receiverType}`;
      const seen = positions.get(key);
      if (seen) seen.points += row.points;
      else positions.set(key, { row, points: row.points });
    }
    const vaults: string[] = [];
    const receivers: string[] = [];
    const receiverTypes: string[] = [];
    const points: bigint[] = [];
    for (const position of positions.values()) {
      vaults.push(position.row.vault);
      receivers.push(position.row.receiver);
      receiverTypes.push(position.row.receiverType);
      points.push(position.points);
    }
    await this.session.execute(sql`
      insert into points_balances (snapshot_id, vault, receiver, receiver_type, points)
      select ${this.snapshotId}::int, vault, receiver, receiver_type, points from unnest(
        ${textArrayLiteral(vaults)}::text[],
        ${textArrayLiteral(receivers)}::text[],
        ${textArrayLiteral(receiverTypes)}::text[],
        ${integerArrayLiteral(points)}::numeric[]) as batch(vault, receiver, receiver_type, points)
      on conflict on constraint points_balances_pk
      do update set points = points_balances.points + excluded.points`);
    this.#inputRows += rows.length;
  }

  /**
   * Adds the rows `query` selects, as columns (vault, receiver, receiver_type, points) — rows that are
   * already in the database (a sync's staged pages) and were validated on their way in.
   */
  async appendQuery(query: SQL): Promise<void> {
    const [row] = await selectRows<{ count: string }>(
      this.session,
      sql`with source as (${query}),
          stored as (
            insert into points_balances (snapshot_id, vault, receiver, receiver_type, points)
            select ${this.snapshotId}::int, vault, receiver, receiver_type, sum(points)
            from source group by vault, receiver, receiver_type
            on conflict on constraint points_balances_pk
            do update set points = points_balances.points + excluded.points
          )
          select count(*)::text as count from source`,
    );
    this.#inputRows += Number(row?.count ?? 0);
  }

  /** Computes the snapshot's aggregates and totals, and bumps the points generation. */
  async finish(): Promise<SnapshotSummary> {
    const { session, target, snapshotId: id } = this;
    const [grouped] = await selectRows<{ rows: string }>(
      session,
      sql`with grouped as (
            select vault, receiver_type, sum(points) as points, count(*) as rows
            from points_balances where snapshot_id = ${id}::int
            group by vault, receiver_type
          ),
          stored as (
            insert into points_vault_type_totals (snapshot_id, vault, receiver_type, points)
            select ${id}::int, vault, receiver_type, points from grouped
          )
          select coalesce(sum(rows), 0)::text as rows from grouped`,
    );
    const receiverRows = Number(grouped?.rows ?? 0);
    await session.execute(sql`
      insert into points_vault_totals (snapshot_id, vault, points)
      select ${id}::int, vault, sum(points) from points_vault_type_totals
      where snapshot_id = ${id}::int group by vault`);
    await session.execute(sql`
      insert into points_vaults (address)
      select vault from points_vault_totals where snapshot_id = ${id}::int
      on conflict (address) do nothing`);
    const [totals] = await selectRows<{ total: string; vaults: string }>(
      session,
      sql`update points_snapshots set
            total_points = coalesce((select sum(points) from points_vault_totals where snapshot_id = ${id}::int), 0),
            receiver_rows = ${receiverRows}
          where id = ${id}::int
          returning total_points::text as total,
            (select count(*) from points_vault_totals where snapshot_id = ${id}::int)::text as vaults`,
    );
    await bumpGeneration(session, "points");
    return {
      snapshotId: id,
      pointsType: target.pointsType,
      blockNumber: target.blockNumber,
      decimals: target.decimals,
      inputRows: this.#inputRows,
      receiverRows,
      vaults: Number(totals?.vaults ?? 0),
      totalPoints: BigInt(totals?.total ?? "0"),
    };
  }
}

export interface IngestOptions {
  batchSize?: number;
  /** Called after each staged batch with the number of rows staged so far. */
  onProgress?: (rowsStaged: number) => void;
}

/**
 * Ingests a snapshot from a stream of rows in one transaction. The rows may come from a generator, so a
 * million-row snapshot never has to exist in memory at once; an error thrown by the stream (a bad row in a
 * file) rolls everything back.
 */
export async function ingestSnapshot(
  database: Database,
  target: SnapshotTarget,
  rows: Iterable<PointsRow> | AsyncIterable<PointsRow>,
  options: IngestOptions = {},
): Promise<SnapshotSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  return database.db.transaction(async (tx) => {
    const writer = await SnapshotWriter.open(tx, target);
    let batch: PointsRow[] = [];
    let staged = 0;
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= batchSize) {
        await writer.append(batch);
        staged += batch.length;
        batch = [];
        options.onProgress?.(staged);
      }
    }
    await writer.append(batch);
    staged += batch.length;
    options.onProgress?.(staged);
    return writer.finish();
  });
}

function rowProblem(row: PointsRow): string | undefined {
  if (!ADDRESS_PATTERN.test(row.vault))
    return `vault ${JSON.stringify(row.vault)} is not a lowercase address`;
  if (!ADDRESS_PATTERN.test(row.receiver))
    return `receiver ${JSON.stringify(row.receiver)} is not a lowercase address`;
  if (!POINTS_TYPE_PATTERN.test(row.receiverType)) {
    return `receiver type ${JSON.stringify(row.receiverType)} must be 1 to 100 characters without outer spaces`;
  }
  if (typeof row.points !== "bigint" || row.points < 0n || row.points > MAX_UINT256) {
    return "points must be a bigint from 0 to 2^256 - 1";
  }
  return undefined;
}
