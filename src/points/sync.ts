// `sluice points sync <url>`: pulls a partner's snapshot from its External Points API into a points type.
//
// Three feed shapes (DESIGN.md §6 names the row fields):
//   points-template (Symbiotic's points-template):
//     GET {url}/api/last_block                                  → {"last_block_number": n, …}
//     GET {url}/api/all?block_number=n&offset=o&limit=l         → [row, …]
//   root (another partner's): the same at {url}/last_block and {url}/all
//   legacy (Sluice's first reading):
//     GET {url}/last_block                                      → {"last_block": n}
//     GET {url}/api/all?block_number=n&page=k (k ≥ 1)           → {"data": [row, …], "next_page": k' | null}
//       (a bare array is accepted as a page too; without `next_page` the next page is k + 1 until one is empty)
//   row = {receiver_address, receiver_type, block_number, network_address, vault_address, points}
// `auto` asks {url}/api/last_block, then {url}/last_block, and takes the first shape that answers. Offset-paged
// feeds are read `pageSize` rows at a time until a page comes back shorter than asked.
// Numbers may be JSON numbers of any size or decimal strings; they are parsed losslessly. `points` is in the
// feed's units, `feedDecimals` implied decimals (0: whole points that may carry a fraction), converted
// exactly to the type's decimals — a value that would lose digits is refused. Rows repeating (vault,
// receiver, receiver type), one per network, are added up.
//
// Resuming: every fetched page is staged in `points_sync_rows` in the same transaction that advances
// `points_syncs.next_page` (the next page, or the next offset), so a re-run after a failure continues with
// the page that failed. The snapshot itself is written from the staged rows in one final transaction.
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

export const FEED_FORMATS = ["points-template", "root", "legacy"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];
export type FeedFormatChoice = FeedFormat | "auto";

/** Rows asked for per request from an offset-paged feed, unless told otherwise. */
export const DEFAULT_FEED_PAGE_SIZE = 1000;
/** The largest page size accepted (offsets are stored as 32-bit integers). */
export const MAX_FEED_PAGE_SIZE = 100_000;
const MAX_OFFSET = 2 ** 31 - 1;

export class PartnerApiError extends Error {
  override name = "PartnerApiError";
}

export interface SyncOptions {
  /** Base URL of the partner's External Points API. */
  url: string;
  pointsType: string;
  /** Implied decimals of the feed's `points` values (0: whole points). No default: a wrong guess is off by 10^d. */
  feedDecimals: number;
  /** Decimals of the points type if the sync creates it (default 18); checked when it exists. */
  typeDecimals?: number;
  /** The feed's shape; `auto` (the default) detects it from the last-block answers. */
  feedFormat?: FeedFormatChoice;
  /** Rows per request for offset-paged feeds (default 1000). */
  pageSize?: number;
  /** Called once the format is known: named by the caller, or detected (with the URL that answered). */
  onFormat?: (format: FeedFormat, detectedAt?: string) => void;
  /** Called after each staged page; `at` is "page k" or "offset o". */
  onPage?: (progress: { at: string; rows: number; stagedRows: number }) => void;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type SyncResult =
  | { status: "up-to-date"; format: FeedFormat; blockNumber: number }
  | {
      status: "synced";
      format: FeedFormat;
      blockNumber: number /** Whether a stored, unfinished sync was continued. */;
      resumed: boolean;
      snapshot: SnapshotSummary;
    };

const DigitsSchema = z.string().regex(/^\d+$/, "must be a non-negative integer");

const LegacyLastBlockSchema = z.object({ last_block: DigitsSchema });
const LastBlockNumberSchema = z.object({ last_block_number: DigitsSchema });

const LegacyPageSchema = z.union([
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
  /** The next page (legacy) or offset (offset-paged feeds); null when all are staged. */
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
  const sourceDecimals = options.feedDecimals;
  if (!Number.isInteger(sourceDecimals) || sourceDecimals < 0) {
    throw new PartnerApiError("the feed's decimals must be given as a non-negative integer");
  }
  const pageSize = options.pageSize ?? DEFAULT_FEED_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_FEED_PAGE_SIZE) {
    throw new PartnerApiError(`page size must be an integer from 1 to ${MAX_FEED_PAGE_SIZE}`);
  }
  const client = new PartnerPointsClient(options.url, options.fetch ?? fetch, options.timeoutMs ?? 30_000);
  const { format, blockNumber, detectedAt } = await client.lastBlock(options.feedFormat ?? "auto");
  options.onFormat?.(format, detectedAt);
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
    return { status: "up-to-date", format, blockNumber };
  }

  const start = await startOrResume(database, client.baseUrl, options.pointsType, {
    blockNumber,
    sourceDecimals,
    format,
  });
  let progress = start.progress;

  while (progress.nextPage !== null) {
    const position = progress.nextPage;
    const fetched =
      format === "legacy"
        ? await client.legacyPage(blockNumber, position)
        : await client.offsetPage(format, blockNumber, position, pageSize);
    const at = format === "legacy" ? `page ${position}` : `offset ${position}`;
    const staged = fetched.rows.map((row, index) =>
      toStagedRow(row, { at, index, blockNumber, sourceDecimals, typeDecimals }),
    );
    progress = await database.db.transaction((tx) => stagePage(tx, progress, position, staged, fetched.next));
    options.onPage?.({ at, rows: staged.length, stagedRows: progress.stagedRows });
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
  return { status: "synced", format, blockNumber, resumed: start.resumed, snapshot };
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

/** Continues the stored sync of (url, type) when it is for the same block, units and format; else starts over. */
async function startOrResume(
  database: Database,
  sourceUrl: string,
  pointsType: string,
  feed: { blockNumber: number; sourceDecimals: number; format: FeedFormat },
): Promise<{ progress: SyncProgress; resumed: boolean }> {
  const { blockNumber, sourceDecimals, format } = feed;
  return database.db.transaction(async (tx) => {
    const [stored] = await selectRows<{
      id: number;
      block_number: string;
      source_decimals: number;
      feed_format: string;
      next_page: number | null;
      staged_rows: number;
    }>(
      tx,
      sql`select id, block_number, source_decimals, feed_format, next_page, staged_rows from points_syncs
          where source_url = ${sourceUrl} and points_type = ${pointsType} for update`,
    );
    if (
      stored &&
      Number(stored.block_number) === blockNumber &&
      stored.source_decimals === sourceDecimals &&
      stored.feed_format === format
    ) {
      const progress = {
        id: stored.id,
        blockNumber,
        sourceDecimals,
        nextPage: stored.next_page,
        stagedRows: stored.staged_rows,
      };
      return { progress, resumed: true };
    }
    // A newer block (or other units, or another shape) makes what was staged useless.
    if (stored) await tx.execute(sql`delete from points_syncs where id = ${stored.id}::int`);
    const first = format === "legacy" ? 1 : 0;
    const [created] = await selectRows<{ id: number }>(
      tx,
      sql`insert into points_syncs (source_url, points_type, block_number, source_decimals, feed_format, next_page)
          values (${sourceUrl}, ${pointsType}, ${blockNumber}, ${sourceDecimals}, ${format}, ${first}) returning id`,
    );
    return {
      progress: { id: created!.id, blockNumber, sourceDecimals, nextPage: first, stagedRows: 0 },
      resumed: false,
    };
  });
}

async function stagePage(
  session: SqlSession,
  progress: SyncProgress,
  position: number,
  rows: readonly StagedRow[],
  next: number | null,
): Promise<SyncProgress> {
  if (rows.length > 0) {
    await session.execute(sql`
      insert into points_sync_rows (sync_id, page, ordinal, vault, receiver, receiver_type, points)
      select ${progress.id}::int, ${position}::int, ordinal::int - 1, vault, receiver, receiver_type, points
      from unnest(
        ${textArrayLiteral(rows.map((row) => row.vault))}::text[],
        ${textArrayLiteral(rows.map((row) => row.receiver))}::text[],
        ${textArrayLiteral(rows.map((row) => row.receiverType))}::text[],
        ${integerArrayLiteral(rows.map((row) => row.points))}::numeric[]
      ) with ordinality as staged(vault, receiver, receiver_type, points, ordinal)`);
  }
  const stagedRows = progress.stagedRows + rows.length;
  await session.execute(sql`
    update points_syncs set next_page = ${next}, staged_rows = ${stagedRows}, updated_at = now()
    where id = ${progress.id}::int`);
  return { ...progress, nextPage: next, stagedRows };
}

function toStagedRow(
  value: unknown,
  at: { at: string; index: number; blockNumber: number; sourceDecimals: number; typeDecimals: number },
): StagedRow {
  const where = `${at.at}, row ${at.index + 1}`;
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

/** Where each shape serves its last block, and the key of the block number in its answer. */
const LAST_BLOCK: Record<FeedFormat, { path: string; key: "last_block_number" | "last_block" }> = {
  "points-template": { path: "/api/last_block", key: "last_block_number" },
  root: { path: "/last_block", key: "last_block_number" },
  legacy: { path: "/last_block", key: "last_block" },
};

/** The block number in a last-block answer with `key`, as digits; undefined when the answer is not one. */
function lastBlockIn(body: unknown, key: "last_block_number" | "last_block"): string | undefined {
  const parsed = (key === "last_block" ? LegacyLastBlockSchema : LastBlockNumberSchema).safeParse(body);
  if (!parsed.success) return undefined;
  return "last_block" in parsed.data ? parsed.data.last_block : parsed.data.last_block_number;
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

  /**
   * The feed's last block, and its format: the one named, or (auto) the first that answers among
   * `/api/last_block` (points-template) and `/last_block` (root, then legacy by the answer's key).
   */
  async lastBlock(
    choice: FeedFormatChoice,
  ): Promise<{ format: FeedFormat; blockNumber: number; detectedAt?: string }> {
    if (choice !== "auto") {
      const { path, key } = LAST_BLOCK[choice];
      const block = lastBlockIn(await this.#getJson(path), key);
      if (block === undefined) {
        throw new PartnerApiError(
          `${this.baseUrl}${path}: expected {"${key}": <integer>} (feed format ${choice})`,
        );
      }
      return { format: choice, blockNumber: this.#blockNumber(path, block) };
    }
    const tried: string[] = [];
    for (const path of ["/api/last_block", "/last_block"]) {
      const answer = await this.#getJsonIfAnswered(path);
      if (answer.ok) {
        const formats = FEED_FORMATS.filter((format) => LAST_BLOCK[format].path === path);
        for (const format of formats) {
          const block = lastBlockIn(answer.body, LAST_BLOCK[format].key);
          if (block !== undefined) {
            return {
              format,
              blockNumber: this.#blockNumber(path, block),
              detectedAt: `${this.baseUrl}${path}`,
            };
          }
        }
        tried.push(`${path}: not a last-block answer`);
      } else tried.push(`${path}: ${answer.reason}`);
    }
    throw new PartnerApiError(
      `${this.baseUrl}: no External Points API feed found (${tried.join("; ")}); ` +
        "name the format with --feed-format points-template|root|legacy",
    );
  }

  /** One page of an offset-paged feed; `next` is the next offset, or null after a short page. */
  async offsetPage(
    format: Exclude<FeedFormat, "legacy">,
    blockNumber: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: unknown[]; next: number | null }> {
    const prefix = format === "points-template" ? "/api" : "";
    const path = `${prefix}/all?block_number=${blockNumber}&offset=${offset}&limit=${limit}`;
    const body = await this.#getJson(path);
    if (!Array.isArray(body))
      throw new PartnerApiError(`${this.baseUrl}${path}: expected a JSON array of rows`);
    // A feed that ignores `limit` would be read again and again from each offset.
    if (body.length > limit) {
      throw new PartnerApiError(`${this.baseUrl}${path}: ${body.length} rows for a limit of ${limit}`);
    }
    if (body.length < limit) return { rows: body, next: null };
    const next = offset + limit;
    if (next > MAX_OFFSET)
      throw new PartnerApiError(`${this.baseUrl}${path}: more rows than Sluice can page`);
    return { rows: body, next };
  }

  async legacyPage(blockNumber: number, page: number): Promise<{ rows: unknown[]; next: number | null }> {
    const path = `/api/all?block_number=${blockNumber}&page=${page}`;
    const body = LegacyPageSchema.safeParse(await this.#getJson(path));
    if (!body.success) {
      throw new PartnerApiError(
        `${this.baseUrl}${path}: expected {"data": [...], "next_page": <integer> | null}`,
      );
    }
    const rows = Array.isArray(body.data) ? body.data : body.data.data;
    const declared = Array.isArray(body.data) ? undefined : body.data.next_page;
    if (declared === null) return { rows, next: null };
    if (declared === undefined) return { rows, next: rows.length === 0 ? null : page + 1 };
    const nextPage = Number(declared);
    // A next page that does not move forward would loop forever.
    if (!Number.isSafeInteger(nextPage) || nextPage <= page || nextPage > MAX_OFFSET) {
      throw new PartnerApiError(`${this.baseUrl}${path}: next_page ${declared} does not follow page ${page}`);
    }
    return { rows, next: nextPage };
  }

  #blockNumber(path: string, text: string): number {
    const blockNumber = Number(text);
    if (!Number.isSafeInteger(blockNumber)) {
      throw new PartnerApiError(`${this.baseUrl}${path}: block ${text} is out of range`);
    }
    return blockNumber;
  }

  async #getJson(path: string): Promise<unknown> {
    const answer = await this.#getJsonIfAnswered(path);
    if (!answer.ok) throw new PartnerApiError(`${this.baseUrl}${path}: ${answer.reason}`);
    return answer.body;
  }

  /** GET `path`: its JSON body, or why it has none (an HTTP error or invalid JSON); network errors throw. */
  async #getJsonIfAnswered(
    path: string,
  ): Promise<{ ok: true; body: unknown } | { ok: false; reason: string }> {
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
    if (!response.ok) return { ok: false, reason: `HTTP ${response.status}` };
    try {
      return { ok: true, body: parseJsonKeepingNumberText(text) };
    } catch (error) {
      if (error instanceof InvalidJsonError) return { ok: false, reason: `invalid JSON (${error.message})` };
      throw error;
    }
  }
}
