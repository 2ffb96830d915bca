// Runs once before all test files: when TEST_DATABASE_URL is set, PostgreSQL must be reachable — the
// suite fails rather than silently skipping the PostgreSQL half.
import pg from "pg";

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set (${url}) but PostgreSQL is not reachable: ${String(error)}`);
  } finally {
    await client.end().catch(() => {});
  }
}
