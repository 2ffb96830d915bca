// Bulk ingest of one points snapshot, used by the file import, the partner sync, the demo data and the
// benchmark generator. Rows are streamed in batches into a temporary staging table (one `unnest` insert per
// batch), then grouped into the snapshot's per-receiver rows and its aggregates with `insert … select …
// group by`, all in one transaction: a snapshot is either complete or absent.
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

/** Ingests one snapshot inside an open transaction. Use `ingestSnapshot` unless you own the transaction. */
export class SnapshotWriter {
  #inputRows = 0;

  private constructor(
    private readonly session: SqlSession,
    private readonly target: Required<SnapshotTarget>,
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
    const existing = await selectRows(
      session,
      sql`select 1 from points_snapshots where points_type = ${target.pointsType} and block_number = ${target.blockNumber}`,
    );
    if (existing.length > 0) throw new SnapshotExistsError(target.pointsType, target.blockNumber);
    // Temporary: private to this session and never WAL-logged; dropped again by `finish`.
    await session.execute(sql`
      create temporary table points_ingest_rows (
        vault text collate "C" not null,
        receiver text collate "C" not null,
        receiver_type text collate "C" not null,
        points numeric(78, 0) not null
      ) on commit drop`);
    return new SnapshotWriter(session, { ...target, decimals });
  }

  get decimals(): number {
    return this.target.decimals;
  }

  /** Stages a batch of rows (a few thousand per call keeps statements and memory small). */
  async append(rows: readonly PointsRow[]): Promise<void> {
    if (rows.length === 0) return;
    const vaults: string[] = [];
    const receivers: string[] = [];
    const receiverTypes: string[] = [];
    const points: bigint[] = [];
    for (const [offset, row] of rows.entries()) {
      const problem = rowProblem(row);
      if (problem) throw new InvalidPointsRowError(`row ${this.#inputRows + offset + 1}: ${problem}`);
      vaults.push(row.vault);
      receivers.push(row.receiver);
      receiverTypes.push(row.receiverType);
      points.push(row.points);
    }
    await this.session.execute(sql`
      insert into points_ingest_rows (vault, receiver, receiver_type, points)
      select * from unnest(
        ${textArrayLiteral(vaults)}::text[],
        ${textArrayLiteral(receivers)}::text[],
        ${textArrayLiteral(receiverTypes)}::text[],
        ${integerArrayLiteral(points)}::numeric[])`);
    this.#inputRows += rows.length;
  }

  /**
   * Stages the rows `query` selects, as columns (vault, receiver, receiver_type, points) — rows that are
   * already in the database (a sync's staged pages) and were validated on their way in.
   */
  async appendQuery(query: SQL): Promise<void> {
    const [row] = await selectRows<{ count: string }>(
      this.session,
      sql`with staged as (
            insert into points_ingest_rows (vault, receiver, receiver_type, points) ${query} returning 1
          ) select count(*)::text as count from staged`,
    );
    this.#inputRows += Number(row?.count ?? 0);
  }

  /** Writes the snapshot, its rows and aggregates, and bumps the points generation. */
  async finish(): Promise<SnapshotSummary> {
    const { session, target } = this;
    const [snapshot] = await selectRows<{ id: number }>(
      session,
      sql`insert into points_snapshots (points_type, block_number, total_points, receiver_rows)
          values (${target.pointsType}, ${target.blockNumber}, 0, 0) returning id`,
    );
    if (!snapshot) throw new Error("points snapshot insert returned no id");
    const id = snapshot.id;
    // Duplicate (vault, receiver, receiver type) rows — e.g. one per network in a partner feed — add up.
    const [balances] = await selectRows<{ count: string }>(
      session,
      sql`with stored as (
            insert into points_balances (snapshot_id, vault, receiver, receiver_type, points)
            select ${id}::int, vault, receiver, receiver_type, sum(points)
            from points_ingest_rows group by vault, receiver, receiver_type
            order by vault, receiver, receiver_type
            returning 1
          ) select count(*)::text as count from stored`,
    );
    await session.execute(sql`
      insert into points_vault_totals (snapshot_id, vault, points)
      select ${id}::int, vault, sum(points) from points_ingest_rows group by vault`);
    await session.execute(sql`
      insert into points_vault_type_totals (snapshot_id, vault, receiver_type, points)
      select ${id}::int, vault, receiver_type, sum(points) from points_ingest_rows group by vault, receiver_type`);
    await session.execute(sql`
      insert into points_vaults (address)
      select vault from points_vault_totals where snapshot_id = ${id}::int
      on conflict (address) do nothing`);
    const [totals] = await selectRows<{ total: string; vaults: string }>(
      session,
      sql`update points_snapshots set
            total_points = coalesce((select sum(points) from points_vault_totals where snapshot_id = ${id}::int), 0),
            receiver_rows = ${Number(balances?.count ?? 0)}
          where id = ${id}::int
          returning total_points::text as total,
            (select count(*) from points_vault_totals where snapshot_id = ${id}::int)::text as vaults`,
    );
    await session.execute(sql`drop table points_ingest_rows`);
    await bumpGeneration(session, "points");
    return {
      snapshotId: id,
      pointsType: target.pointsType,
      blockNumber: target.blockNumber,
      decimals: target.decimals,
      inputRows: this.#inputRows,
      receiverRows: Number(balances?.count ?? 0),
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
