// Bulk ingest of one points snapshot, used by the file import, the partner sync, the demo data and the
// benchmark generator. Rows are streamed in batches (one `unnest` insert of a few thousand rows each)
// straight into the snapshot's per-receiver rows; the aggregates are then computed with `insert … select …
// group by`, all in one transaction: a snapshot is either complete or absent. (1M rows take well under a
// minute on PostgreSQL.)
import { type SQL, sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Database } from "../db/client.ts";
import { bumpGeneration } from "../db/generations.ts";
import { integerArrayLiteral, type SqlSession, selectRows, textArrayLiteral } from "../shared/sql-session.ts";
import { MAX_SAFE_INTEGER, MAX_UINT256 } from "../shared/wire.ts";
import { MAX_POINTS_DECIMALS } from "./amounts.ts";

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
  private constructor(
    private readonly batch: SnapshotBatchWriter,
    private readonly blockNumber: number,
  ) {}

  static async open(session: SqlSession, target: SnapshotTarget): Promise<SnapshotWriter> {
    const batch = await SnapshotBatchWriter.open(session, {
      pointsType: target.pointsType,
      decimals: target.decimals,
      blockNumbers: [target.blockNumber],
    });
    return new SnapshotWriter(batch, target.blockNumber);
  }

  get decimals(): number {
    return this.batch.decimals;
  }

  /** Adds a batch of rows (a few thousand per call keeps statements and memory small). */
  async append(rows: readonly PointsRow[]): Promise<void> {
    await this.batch.appendTo(this.blockNumber, rows);
  }

  /**
   * Adds the rows `query` selects, as columns (vault, receiver, receiver_type, points) — rows that are
   * already in the database (a sync's staged pages) and were validated on their way in.
   */
  async appendQuery(query: SQL): Promise<void> {
    await this.batch.appendQuery(this.blockNumber, query);
  }

  /** Computes the snapshot's aggregates and totals, and bumps the points generation. */
  async finish(): Promise<SnapshotSummary> {
    const [summary] = await this.batch.finish();
    return summary!;
  }
}

/** One input row of a batch of snapshots: the row and the block of the snapshot it belongs to. */
export interface BatchPointsRow extends PointsRow {
  blockNumber: number;
}

/**
 * Ingests several snapshots of one points type inside an open transaction, with a constant number of
 * statements however many snapshots there are: many small snapshots (the demo data's hundreds) cost
 * what one snapshot of all their rows costs. The same statements serve the single snapshot of
 * `SnapshotWriter`, so both store exactly the same rows and aggregates.
 */
export class SnapshotBatchWriter {
  readonly #inputRows = new Map<number, number>();

  private constructor(
    private readonly session: SqlSession,
    readonly pointsType: string,
    readonly decimals: number,
    /** Snapshot id per block number, in the order the blocks were given. */
    private readonly snapshotIds: ReadonlyMap<number, number>,
  ) {}

  static async open(
    session: SqlSession,
    target: { pointsType: string; decimals?: number; blockNumbers: readonly number[] },
  ): Promise<SnapshotBatchWriter> {
    const { pointsType, blockNumbers } = target;
    for (const blockNumber of blockNumbers) {
      if (!Number.isSafeInteger(blockNumber) || blockNumber < 0 || blockNumber > MAX_SAFE_INTEGER) {
        throw new InvalidPointsRowError(`block number must be an integer from 0 to ${MAX_SAFE_INTEGER}`);
      }
    }
    if (new Set(blockNumbers).size !== blockNumbers.length) {
      throw new InvalidPointsRowError("each block number may appear once in a batch of snapshots");
    }
    const decimals = await ensurePointsType(session, pointsType, target.decimals);
    // Totals are filled in by `finish`; until the transaction commits nobody sees these rows.
    const created = await selectRows<{ id: number; block_number: string | number }>(
      session,
      sql`insert into points_snapshots (points_type, block_number, total_points, receiver_rows)
          select ${pointsType}, block_number, 0, 0
          from unnest(${integerArrayLiteral(blockNumbers)}::bigint[]) as blocks(block_number)
          on conflict on constraint points_snapshots_type_block_unique do nothing
          returning id, block_number`,
    );
    const snapshotIds = new Map(created.map((row) => [Number(row.block_number), row.id]));
    const existing = blockNumbers.find((blockNumber) => !snapshotIds.has(blockNumber));
    if (existing !== undefined) throw new SnapshotExistsError(pointsType, existing);
    const ordered = new Map(blockNumbers.map((blockNumber) => [blockNumber, snapshotIds.get(blockNumber)!]));
    return new SnapshotBatchWriter(session, pointsType, decimals, ordered);
  }

  /** Adds rows of any of the batch's snapshots (a few thousand per call keeps statements and memory small). */
  async append(rows: readonly BatchPointsRow[]): Promise<void> {
    await this.#insert(rows, (row) => row.blockNumber);
  }

  /** Adds rows of one of the batch's snapshots. */
  async appendTo(blockNumber: number, rows: readonly PointsRow[]): Promise<void> {
    await this.#insert(rows, () => blockNumber);
  }

  async #insert<Row extends PointsRow>(
    rows: readonly Row[],
    blockNumberOf: (row: Row) => number,
  ): Promise<void> {
    if (rows.length === 0) return;
    // One statement cannot update the same row twice, so repeats within the call are added up here.
    const positions = new Map<string, { row: PointsRow; snapshotId: number; points: bigint }>();
    for (const row of rows) {
      const blockNumber = blockNumberOf(row);
      const snapshotId = this.snapshotIds.get(blockNumber);
      if (snapshotId === undefined) {
        throw new InvalidPointsRowError(`block ${blockNumber} is not a snapshot of this batch`);
      }
      const inputRows = this.#inputRows.get(blockNumber) ?? 0;
      const problem = rowProblem(row);
      if (problem) throw new InvalidPointsRowError(`row ${inputRows + 1}: ${problem}`);
      this.#inputRows.set(blockNumber, inputRows + 1);
      const key = `${snapshotId}\u0000${row.vault}${row.receiver}\u0000${row.receiverType}`;
      const seen = positions.get(key);
      if (seen) seen.points += row.points;
      else positions.set(key, { row, snapshotId, points: row.points });
    }
    const snapshotIds: number[] = [];
    const vaults: string[] = [];
    const receivers: string[] = [];
    const receiverTypes: string[] = [];
    const points: bigint[] = [];
    for (const position of positions.values()) {
      snapshotIds.push(position.snapshotId);
      vaults.push(position.row.vault);
      receivers.push(position.row.receiver);
      receiverTypes.push(position.row.receiverType);
      points.push(position.points);
    }
    await this.session.execute(sql`
      insert into points_balances (snapshot_id, vault, receiver, receiver_type, points)
      select snapshot_id, vault, receiver, receiver_type, points from unnest(
        ${integerArrayLiteral(snapshotIds)}::int[],
        ${textArrayLiteral(vaults)}::text[],
        ${textArrayLiteral(receivers)}::text[],
        ${textArrayLiteral(receiverTypes)}::text[],
        ${integerArrayLiteral(points)}::numeric[]) as batch(snapshot_id, vault, receiver, receiver_type, points)
      on conflict on constraint points_balances_pk
      do update set points = points_balances.points + excluded.points`);
  }

  /** Adds the rows `query` selects (columns vault, receiver, receiver_type, points) to one snapshot. */
  async appendQuery(blockNumber: number, query: SQL): Promise<void> {
    const snapshotId = this.snapshotIds.get(blockNumber);
    if (snapshotId === undefined) {
      throw new InvalidPointsRowError(`block ${blockNumber} is not a snapshot of this batch`);
    }
    const [row] = await selectRows<{ count: string }>(
      this.session,
      sql`with source as (${query}),
          stored as (
            insert into points_balances (snapshot_id, vault, receiver, receiver_type, points)
            select ${snapshotId}::int, vault, receiver, receiver_type, sum(points)
            from source group by vault, receiver, receiver_type
            on conflict on constraint points_balances_pk
            do update set points = points_balances.points + excluded.points
          )
          select count(*)::text as count from source`,
    );
    this.#inputRows.set(blockNumber, (this.#inputRows.get(blockNumber) ?? 0) + Number(row?.count ?? 0));
  }

  /** Computes every snapshot's aggregates and totals, and bumps the points generation once. */
  async finish(): Promise<SnapshotSummary[]> {
    const { session } = this;
    const snapshotIds = [...this.snapshotIds.values()];
    const ids = integerArrayLiteral(snapshotIds);
    const grouped = await selectRows<{ snapshot_id: number; rows: string }>(
      session,
      sql`with grouped as (
            select snapshot_id, vault, receiver_type, sum(points) as points, count(*) as rows
            from points_balances where snapshot_id = any(${ids}::int[])
            group by snapshot_id, vault, receiver_type
          ),
          stored as (
            insert into points_vault_type_totals (snapshot_id, vault, receiver_type, points)
            select snapshot_id, vault, receiver_type, points from grouped
          )
          select snapshot_id, sum(rows)::text as rows from grouped group by snapshot_id`,
    );
    const receiverRows = new Map(grouped.map((row) => [row.snapshot_id, Number(row.rows)]));
    await session.execute(sql`
      insert into points_vault_totals (snapshot_id, vault, points)
      select snapshot_id, vault, sum(points) from points_vault_type_totals
      where snapshot_id = any(${ids}::int[]) group by snapshot_id, vault`);
    await session.execute(sql`
      insert into points_vaults (address)
      select distinct vault from points_vault_totals where snapshot_id = any(${ids}::int[])
      on conflict (address) do nothing`);
    const totals = await selectRows<{ id: number; total: string; vaults: string }>(
      session,
      sql`with totals as (
            select snapshot.id, snapshot.receiver_rows, coalesce(sum(vault_totals.points), 0) as total,
              count(vault_totals.vault) as vaults
            from unnest(
              ${ids}::int[],
              ${integerArrayLiteral(snapshotIds.map((id) => receiverRows.get(id) ?? 0))}::int[]
            ) as snapshot(id, receiver_rows)
            left join points_vault_totals vault_totals on vault_totals.snapshot_id = snapshot.id
            group by snapshot.id, snapshot.receiver_rows
          )
          update points_snapshots set total_points = totals.total, receiver_rows = totals.receiver_rows
          from totals where points_snapshots.id = totals.id
          returning points_snapshots.id, totals.total::text as total, totals.vaults::text as vaults`,
    );
    const totalsById = new Map(totals.map((row) => [row.id, row]));
    await bumpGeneration(session, "points");
    return [...this.snapshotIds].map(([blockNumber, id]) => {
      const stored = totalsById.get(id);
      return {
        snapshotId: id,
        pointsType: this.pointsType,
        blockNumber,
        decimals: this.decimals,
        inputRows: this.#inputRows.get(blockNumber) ?? 0,
        receiverRows: receiverRows.get(id) ?? 0,
        vaults: Number(stored?.vaults ?? 0),
        totalPoints: BigInt(stored?.total ?? "0"),
      };
    });
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
