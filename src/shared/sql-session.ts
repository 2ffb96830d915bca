// The slice of a drizzle transaction the points writers use, and its result rows on either driver.
import type { SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/** A transaction (or the database itself) that can run raw SQL. */
export type SqlSession = Pick<Db, "execute">;

/** Runs `query` and returns its rows; node-postgres and PGlite both answer `{ rows }`. */
export async function selectRows<Row extends Record<string, unknown>>(
  session: SqlSession,
  query: SQL,
): Promise<Row[]> {
  const result = (await session.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** A PostgreSQL array literal of quoted text elements, passed as one parameter and cast with `::text[]`. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

/** A PostgreSQL array literal of integers (bigint or safe JS integers), cast with `::numeric[]` or `::int[]`. */
export function integerArrayLiteral(values: readonly (bigint | number)[]): string {
  return `{${values.join(",")}}`;
}
