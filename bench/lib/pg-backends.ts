// The PostgreSQL backend processes serving a database, for CPU attribution: a route's cost is the server's
// event loop plus the backends' query work, and on a 2-core machine both compete for the same cores.
import pg from "pg";

export interface BackendProbe {
  pids(): Promise<number[]>;
  /** Idempotent. */
  close(): Promise<void>;
}

/** Backends connected to `databaseUrl`'s database, other than the probe's own. */
export async function openBackendProbe(databaseUrl: string): Promise<BackendProbe> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let closed: Promise<void> | undefined;
  return {
    async pids() {
      const result = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      return result.rows.map((row) => row.pid);
    },
    close() {
      closed ??= client.end();
      return closed;
    },
  };
}
