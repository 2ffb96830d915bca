// `sluice points sync <url>`: pulls a partner's snapshot from its External Points API into a points type.
//
// The API shape (DESIGN.md §6 names the endpoints and the row fields; the rest is our choice):
//   GET {url}/last_block                              → {"last_block": n}
//   GET {url}/api/all?block_number=n&page=k (k ≥ 1)   → {"data": [row, …], "next_page": k' | null}
//   row = {receiver_address, receiver_type, block_number, network_address, vault_address, points}
// A bare array is accepted as a page too. Without `next_page` the next page is k + 1 until a page comes
// back empty. Numbers may be JSON numbers of any size or decimal strings; they are parsed losslessly.
// `points` is in the source's units: `sourceDecimals` implied decimals (default 0, i.e. whole points that
// may carry a fraction), converted exactly to the type's decimals — a value that would lose digits is
// refused. Rows repeating (vault, receiver, receiver type), one per network, are added up.
//
// Resuming: every fetched page is staged in `points_sync_rows` in the same transaction that advances
// `points_syncs.next_page`, so a re-run after a failure continues with the page that failed. The snapshot
// itself is written from the staged rows in one final transaction.
import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { InvalidJsonError, parseJsonKeepingNumberText } from "../shared/exact-json.ts";
import { integerArrayLiteral, type SqlSession, selectRows, textArrayLiteral } from "../shared/sql-session.ts";
import { AddressSchema } from "../shared/wire.ts";
import { InvalidAmountError, parseExactDecimal, scaleToUnits } from "./amounts.ts";
import { IncomingReceiverTypeSchema } from "./schemas.ts";
import { ensurePointsType, type SnapshotSummary, SnapshotWriter } from "./writer.ts";

/** Decimals of a points type the sync creates, unless told otherwise (the common ERC-20 convention). */
export const DEFAULT_SYNCED_TYPE_DECIMALS = 18;

export class PartnerApiError extends Error {
  override name = "PartnerApiError";
}

export interface SyncOptions {
  /** Base URL of the partner's External Points API. */
  url: string;
  pointsType: string;
  /** Implied decimals of the partner's `points` values (default 0). */
  sourceDecimals?: number;
  /** Decimals of the points type if the sync creates it (default 18); checked when it exists. */
  typeDecimals?: number;
  /** Called after each staged page. */
  onPage?: (progress: { page: number; rows: number; stagedRows: number }) => void;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type SyncResult =
  | { status: "up-to-date"; blockNumber: number }
  | {
      status: "synced";
      blockNumber: number /** Whether a stored, unfinished sync was continued. */;
      resumed: boolean;
      snapshot: SnapshotSummary;
    };

const DigitsSchema = z.string().regex(/^\d+$/, "must be a non-negative integer");

const LastBlockSchema = z.object({ last_block: DigitsSchema });

const PageSchema = z.union([
  z.array(z.unknown()),
  z.object({ data: z.array(z.unknown()), next_page: DigitsSchema.nullable().optional() }),
]);

const PartnerRowSchema = z.object({
  receiver_address: AddressSchema,
  receiver_type: IncomingReceiverTypeSchema,
  block_number: DigitsSchema,
  network_address: AddressSchema.nullish(),
  vault_address: AddressSchema,
  points: z.string(),
});

interface SyncProgress {
  id: number;
  blockNumber: number;
  sourceDecimals: number;
  nextPage: number | null;
  stagedRows: number;
}

interface StagedRow {
  vault: Address;
  receiver: Address;
  receiverType: string;
  points: bigint;
}

export async function syncPartnerPoints(database: Database, options: SyncOptions): Promise<SyncResult> {
  const client = new PartnerPointsClient(options.url, options.fetch ?? fetch, options.timeoutMs ?? 30_000);
  const sourceDecimals = options.sourceDecimals ?? 0;
  const blockNumber = await client.lastBlock();
  const typeDecimals = await resolveTypeDecimals(database.db, options.pointsType, options.typeDecimals);

  const existing = await database.query(
    "select 1 from points_snapshots where points_type = $1 and block_number = $2",
    [options.pointsType, blockNumber],
  );
  if (existing.length > 0) {
    await database.query("delete from points_syncs where source_url = $1 and points_type = $2", [
      client.baseUrl,
      options.pointsType,
    ]);
    return { status: "up-to-date", blockNumber };
  }

  const start = await startOrResume(
    database,
    client.baseUrl,
    options.pointsType,
    blockNumber,
    sourceDecimals,
  );
  let progress = start.progress;

  while (progress.nextPage !== null) {
    const page = progress.nextPage;
    const { rows, nextPage } = await client.page(blockNumber, page);
    const staged = rows.map((row, index) =>
      toStagedRow(row, { page, index, blockNumber, sourceDecimals, typeDecimals }),
    );
    progress = await database.db.transaction((tx) => stagePage(tx, progress, page, staged, nextPage));
    options.onPage?.({ page, rows: staged.length, stagedRows: progress.stagedRows });
  }

  const snapshot = await database.db.transaction(async (tx) => {
    const writer = await SnapshotWriter.open(tx, { pointsType: options.pointsType, blockNumber });
    await writer.appendQuery(
      sql`select vault, receiver, receiver_type, points from points_sync_rows where sync_id = ${progress.id}::int`,
    );
    const summary = await writer.finish();
    await tx.execute(sql`delete from points_syncs where id = ${progress.id}::int`);
    return summary;
  });
  return { status: "synced", blockNumber, resumed: start.resumed, snapshot };
}

/** The type's decimals; a type the sync creates gets `typeDecimals` (default 18). */
async function resolveTypeDecimals(
  session: SqlSession,
  pointsType: string,
  typeDecimals?: number,
): Promise<number> {
  if (typeDecimals !== undefined) return ensurePointsType(session, pointsType, typeDecimals);
  const [row] = await selectRows<{ decimals: number }>(
    session,
    sql`select decimals from points_types where name = ${pointsType}`,
  );
  return row ? row.decimals : ensurePointsType(session, pointsType, DEFAULT_SYNCED_TYPE_DECIMALS);
}

/** Continues the stored sync of (url, type) when it is for the same block and units; else starts over. */
async function startOrResume(
  database: Database,
  sourceUrl: string,
  pointsType: string,
  blockNumber: number,
  sourceDecimals: number,
): Promise<{ progress: SyncProgress; resumed: boolean }> {
  return database.db.transaction(async (tx) => {
    const [stored] = await selectRows<{
      id: number;
      block_number: string;
      source_decimals: number;
      next_page: number | null;
      staged_rows: number;
    }>(
      tx,
      sql`select id, block_number, source_decimals, next_page, staged_rows from points_syncs
          where source_url = ${sourceUrl} and points_type = ${pointsType} for update`,
    );
    if (stored && Number(stored.block_number) === blockNumber && stored.source_decimals === sourceDecimals) {
      const progress = {
        id: stored.id,
        blockNumber,
        sourceDecimals,
        nextPage: stored.next_page,
        stagedRows: stored.staged_rows,
      };
      return { progress, resumed: true };
    }
    // A newer block (or other units) makes what was staged useless.
    if (stored) await tx.execute(sql`delete from points_syncs where id = ${stored.id}::int`);
    const [created] = await selectRows<{ id: number }>(
      tx,
      sql`insert into points_syncs (source_url, points_type, block_number, source_decimals, next_page)
          values (${sourceUrl}, ${pointsType}, ${blockNumber}, ${sourceDecimals}, 1) returning id`,
    );
    return {
      progress: { id: created!.id, blockNumber, sourceDecimals, nextPage: 1, stagedRows: 0 },
      resumed: false,
    };
  });
}

async function stagePage(
  session: SqlSession,
  progress: SyncProgress,
  page: number,
  rows: readonly StagedRow[],
  nextPage: number | null,
): Promise<SyncProgress> {
  if (rows.length > 0) {
    await session.execute(sql`
      insert into points_sync_rows (sync_id, page, ordinal, vault, receiver, receiver_type, points)
      select ${progress.id}::int, ${page}::int, ordinal::int - 1, vault, receiver, receiver_type, points
      from unnest(
        ${textArrayLiteral(rows.map((row) => row.vault))}::text[],
        ${textArrayLiteral(rows.map((row) => row.receiver))}::text[],
        ${textArrayLiteral(rows.map((row) => row.receiverType))}::text[],
        ${integerArrayLiteral(rows.map((row) => row.points))}::numeric[]
      ) with ordinality as staged(vault, receiver, receiver_type, points, ordinal)`);
  }
  const stagedRows = progress.stagedRows + rows.length;
  await session.execute(sql`
    update points_syncs set next_page = ${nextPage}, staged_rows = ${stagedRows}, updated_at = now()
    where id = ${progress.id}::int`);
  return { ...progress, nextPage, stagedRows };
}

function toStagedRow(
  value: unknown,
  at: { page: number; index: number; blockNumber: number; sourceDecimals: number; typeDecimals: number },
): StagedRow {
  const where = `page ${at.page}, row ${at.index + 1}`;
  const parsed = PartnerRowSchema.safeParse(value);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`);
    throw new PartnerApiError(`${where}: ${reasons.join("; ")}`);
  }
  const row = parsed.data;
  if (row.block_number !== String(at.blockNumber)) {
    throw new PartnerApiError(
      `${where}: block_number ${row.block_number} in a snapshot of block ${at.blockNumber}`,
    );
  }
  try {
    return {
      vault: row.vault_address as Address,
      receiver: row.receiver_address as Address,
      receiverType: row.receiver_type,
      points: scaleToUnits(parseExactDecimal(row.points), at.sourceDecimals, at.typeDecimals),
    };
  } catch (error) {
    if (error instanceof InvalidAmountError) throw new PartnerApiError(`${where}: points: ${error.message}`);
    throw error;
  }
}

/** HTTP client of one partner's External Points API. */
class PartnerPointsClient {
  readonly baseUrl: string;

  constructor(
    url: string,
    private readonly fetchImpl: typeof fetch,
    private readonly timeoutMs: number,
  ) {
    this.baseUrl = url.replace(/\/+$/, "");
  }

  async lastBlock(): Promise<number> {
    const body = LastBlockSchema.safeParse(await this.#getJson("/last_block"));
    if (!body.success)
      throw new PartnerApiError(`${this.baseUrl}/last_block: expected {"last_block": <integer>}`);
    const blockNumber = Number(body.data.last_block);
    if (!Number.isSafeInteger(blockNumber)) {
      throw new PartnerApiError(`${this.baseUrl}/last_block: block ${body.data.last_block} is out of range`);
    }
    return blockNumber;
  }

  async page(blockNumber: number, page: number): Promise<{ rows: unknown[]; nextPage: number | null }> {
    const path = `/api/all?block_number=${blockNumber}&page=${page}`;
    const body = PageSchema.safeParse(await this.#getJson(path));
    if (!body.success) {
      throw new PartnerApiError(
        `${this.baseUrl}${path}: expected {"data": [...], "next_page": <integer> | null}`,
      );
    }
    const rows = Array.isArray(body.data) ? body.data : body.data.data;
    const declared = Array.isArray(body.data) ? undefined : body.data.next_page;
    if (declared === null) return { rows, nextPage: null };
    if (declared === undefined) return { rows, nextPage: rows.length === 0 ? null : page + 1 };
    const nextPage = Number(declared);
    // A next page that does not move forward would loop forever.
    if (!Number.isSafeInteger(nextPage) || nextPage <= page) {
      throw new PartnerApiError(`${this.baseUrl}${path}: next_page ${declared} does not follow page ${page}`);
    }
    return { rows, nextPage };
  }

  async #getJson(path: string): Promise<unknown> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PartnerApiError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    if (!response.ok) throw new PartnerApiError(`${url}: HTTP ${response.status}`);
    try {
      return parseJsonKeepingNumberText(text);
    } catch (error) {
      if (error instanceof InvalidJsonError)
        throw new PartnerApiError(`${url}: invalid JSON (${error.message})`);
      throw error;
    }
  }
}
