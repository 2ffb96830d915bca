// `sluice import points <file>`: one snapshot from a JSONL or CSV file of rows
// `{receiver_address, receiver_type, vault_address, points}` (points: a decimal number in the file's units,
// `feedDecimals` implied decimals, as a string or a JSON number of any size; converted exactly to the type's
// decimals, a value that would lose digits is refused). The file is streamed into the writer's transaction;
// the first bad row names its line and reason and rolls everything back.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { InvalidJsonError, parseJsonKeepingNumberText } from "../shared/exact-json.ts";
import { AddressSchema } from "../shared/wire.ts";
import { InvalidAmountError, parseExactDecimal, scaleToUnits } from "./amounts.ts";
import { IncomingReceiverTypeSchema } from "./schemas.ts";
import { ingestSnapshot, type PointsRow, PointsTypeError, type SnapshotSummary } from "./writer.ts";

export const POINTS_FILE_FORMATS = ["jsonl", "csv"] as const;
export type PointsFileFormat = (typeof POINTS_FILE_FORMATS)[number];

const COLUMNS = ["receiver_address", "receiver_type", "vault_address", "points"] as const;

/** One row of a points file; extra keys or columns (e.g. `block_number`) are ignored. */
const PointsFileRowSchema = z.object({
  receiver_address: AddressSchema,
  receiver_type: IncomingReceiverTypeSchema,
  vault_address: AddressSchema,
  points: z.string(),
});

export class PointsFileError extends Error {
  override name = "PointsFileError";
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** The format a file name implies: `.jsonl`/`.ndjson` or `.csv`. */
export function formatFromPath(path: string): PointsFileFormat | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === ".jsonl" || extension === ".ndjson") return "jsonl";
  if (extension === ".csv") return "csv";
  return undefined;
}

export interface ImportPointsOptions {
  format: PointsFileFormat;
  pointsType: string;
  blockNumber: number;
  /** Implied decimals of the file's `points` values (0: whole points). */
  feedDecimals: number;
  /** Decimals of the points type if the import creates it (required then); checked when it exists. */
  typeDecimals?: number;
  /** Called as rows are written (the caller knows how far its input has been read). */
  onProgress?: () => void;
}

export interface ImportPointsFileOptions extends Omit<ImportPointsOptions, "format" | "onProgress"> {
  path: string;
  format?: PointsFileFormat | undefined;
  /** Bytes of the file read so far, and its size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

/** The format `format` names, or the one the file name implies; a file whose format cannot be told is refused. */
export function pointsFileFormat(path: string, format?: PointsFileFormat): PointsFileFormat {
  const resolved = format ?? formatFromPath(path);
  if (!resolved) throw new Error(`cannot tell the format of ${path}: use --format jsonl or --format csv`);
  return resolved;
}

export async function importPointsFile(
  database: Database,
  options: ImportPointsFileOptions,
): Promise<SnapshotSummary> {
  const format = pointsFileFormat(options.path, options.format);
  const { size } = await stat(options.path);
  const stream = createReadStream(options.path);
  try {
    return await importPoints(database, stream, {
      ...options,
      format,
      onProgress: () => options.onProgress?.(stream.bytesRead, size),
    });
  } finally {
    stream.destroy();
  }
}

/**
 * One snapshot from a stream of a points file (a file, or an upload to the running server's admin route), written
 * as it is read in one transaction.
 */
export async function importPoints(
  database: Database,
  input: NodeJS.ReadableStream,
  options: ImportPointsOptions,
): Promise<SnapshotSummary> {
  // The rows are converted as they are read, so the type's decimals are needed first; the writer checks them
  // again inside its transaction (a type created meanwhile with other decimals is refused).
  const [existing] = await database.query<{ decimals: number }>(
    "select decimals from points_types where name = $1",
    [options.pointsType],
  );
  const typeDecimals = existing?.decimals ?? options.typeDecimals;
  if (typeDecimals === undefined) {
    throw new PointsTypeError(
      `points type ${options.pointsType} is new: give its decimals (--type-decimals)`,
    );
  }
  if (options.typeDecimals !== undefined && options.typeDecimals !== typeDecimals) {
    throw new PointsTypeError(
      `points type ${options.pointsType} has ${typeDecimals} decimals, not ${options.typeDecimals}`,
    );
  }
  const units = { feedDecimals: options.feedDecimals, typeDecimals };
  const rows = options.format === "jsonl" ? readJsonLines(input, units) : readCsv(input, units);
  return await ingestSnapshot(
    database,
    { pointsType: options.pointsType, blockNumber: options.blockNumber, decimals: typeDecimals },
    rows,
    { onProgress: () => options.onProgress?.() },
  );
}

interface Units {
  feedDecimals: number;
  typeDecimals: number;
}

async function* readJsonLines(input: NodeJS.ReadableStream, units: Units): AsyncGenerator<PointsRow> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    const content = line === 1 ? text.replace(/^\uFEFF/, "") : text;
    if (content.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJsonKeepingNumberText(content);
    } catch (error) {
      throw new PointsFileError(
        line,
        `invalid JSON (${error instanceof InvalidJsonError ? error.message : error})`,
      );
    }
    yield toPointsRow(value, line, units);
  }
}

async function* readCsv(input: NodeJS.ReadableStream, units: Units): AsyncGenerator<PointsRow> {
  let line = 0;
  let columnIndexes: number[] | undefined;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    const content = line === 1 ? text.replace(/^\uFEFF/, "") : text;
    if (content.trim() === "") continue;
    const fields = splitCsvLine(content, line);
    if (!columnIndexes) {
      const header = fields.map((field) => field.trim().toLowerCase());
      const missing = COLUMNS.filter((column) => !header.includes(column));
      if (missing.length > 0) throw new PointsFileError(line, `header lacks column(s) ${missing.join(", ")}`);
      columnIndexes = COLUMNS.map((column) => header.indexOf(column));
      continue;
    }
    const indexes = columnIndexes;
    if (fields.length < Math.max(...indexes) + 1) {
      throw new PointsFileError(
        line,
        `expected at least ${Math.max(...indexes) + 1} fields, found ${fields.length}`,
      );
    }
    yield toPointsRow(
      Object.fromEntries(COLUMNS.map((column, i) => [column, fields[indexes[i]!]])),
      line,
      units,
    );
  }
}

function toPointsRow(value: unknown, line: number, units: Units): PointsRow {
  const parsed = PointsFileRowSchema.safeParse(value);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`);
    throw new PointsFileError(line, reasons.join("; "));
  }
  try {
    return {
      vault: parsed.data.vault_address as PointsRow["vault"],
      receiver: parsed.data.receiver_address as PointsRow["receiver"],
      receiverType: parsed.data.receiver_type,
      points: scaleToUnits(parseExactDecimal(parsed.data.points), units.feedDecimals, units.typeDecimals),
    };
  } catch (error) {
    if (error instanceof InvalidAmountError) throw new PointsFileError(line, `points: ${error.message}`);
    throw error;
  }
}

/** Splits one CSV record (RFC 4180 quoting with `""` escapes; records do not span lines). */
function splitCsvLine(text: string, line: number): string[] {
  const fields: string[] = [];
  let index = 0;
  for (;;) {
    if (text[index] === '"') {
      let value = "";
      index += 1;
      for (;;) {
        const quote = text.indexOf('"', index);
        if (quote === -1) throw new PointsFileError(line, "unterminated quoted field");
        value += text.slice(index, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          index = quote + 2;
        } else {
          index = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (index === text.length) return fields;
      if (text[index] !== ",") throw new PointsFileError(line, "unexpected character after a quoted field");
      index += 1;
    } else {
      const comma = text.indexOf(",", index);
      // Unquoted fields lose surrounding spaces (`a, b` from hand-edited files).
      if (comma === -1) {
        fields.push(text.slice(index).trim());
        return fields;
      }
      fields.push(text.slice(index, comma).trim());
      index = comma + 1;
    }
  }
}
