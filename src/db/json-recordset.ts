// Rows of one table sent to PostgreSQL as one JSON array parameter and expanded by json_to_recordset, so a statement
// inserting any number of rows keeps one text. json, not jsonb: the array is read once, front to back, so building
// jsonb's binary form of the whole parameter first would be work for nothing on every /quote round. Its column lists
// (the INSERT's, the recordset's definitions, the select list) and each row's JSON object all derive from the drizzle
// table: a column is named once, in its schema.
// The JSON keys are the schema's property keys (quoted as the recordset's column names). Columns the database
// generates (serials) are left out.
import { getTableColumns, type InferInsertModel } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

export interface JsonRecordset<Table extends PgTable> {
  /** `request_id, swapper, …`: the INSERT's column list. */
  readonly columns: string;
  /** `"requestId" uuid, "swapper" text, …`: the recordset's column definitions. */
  readonly definitions: string;
  /** `"requestId", "swapper", …`: the recordset's column names, in the same order. */
  readonly names: string;
  /** `alias."requestId", alias."swapper", …`: the recordset's columns in INSERT order. */
  select(alias: string): string;
  /** `json_to_recordset($n::json)`: the rows of parameter `$n`, to be followed by `as alias(definitions)`. */
  recordset(parameter: `$${number}`): string;
  /** The rows as the JSON array `recordset()` reads. */
  json(rows: readonly InferInsertModel<Table>[]): string;
}

const GENERATED_TYPES = new Set(["smallserial", "serial", "bigserial"]);

export function jsonRecordset<Table extends PgTable>(table: Table): JsonRecordset<Table> {
  const fields = Object.entries(getTableColumns(table)).filter(
    ([, column]) => !GENERATED_TYPES.has(column.getSQLType()),
  );
  const quoted = fields.map(([key]) => `"${key}"`);
  const keysOf = (keep: (dataType: string) => boolean) =>
    fields.filter(([, column]) => keep(column.dataType)).map(([key]) => key);
  // Timestamps in ISO 8601 and 64-bit integers in decimal; the rest (strings, numbers, JSON) as they are.
  const timestamps = keysOf((type) => type === "date");
  const decimals = keysOf((type) => type === "bigint");
  const asIs = keysOf((type) => type !== "date" && type !== "bigint");
  // One plain object per row, copied from a template so all have one shape, holding no Date (toJSON) or bigint:
  // JSON.stringify's fast path. This runs for every /quote.
  const template: Record<string, unknown> = Object.fromEntries(fields.map(([key]) => [key, null]));
  const record = (row: Record<string, unknown>) => {
    const record = { ...template };
    for (const key of asIs) record[key] = row[key] ?? null;
    for (const key of timestamps) record[key] = (row[key] as Date | null | undefined)?.toISOString() ?? null;
    for (const key of decimals) record[key] = (row[key] as bigint | null | undefined)?.toString() ?? null;
    return record;
  };
  return {
    columns: fields.map(([, column]) => column.name).join(", "),
    definitions: fields.map(([, column], index) => `${quoted[index]} ${column.getSQLType()}`).join(", "),
    names: quoted.join(", "),
    select: (alias) => quoted.map((name) => `${alias}.${name}`).join(", "),
    recordset: (parameter) => `json_to_recordset(${parameter}::json)`,
    json: (rows) => JSON.stringify(rows.map((row) => record(row as Record<string, unknown>))),
  };
}
