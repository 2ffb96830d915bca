// Statements of one transaction sent without waiting for each other's answers: node-postgres's pipeline mode on the
// transaction's connection, so statements that need nothing of each other cost one round trip together instead of
// one each. PostgreSQL still runs them one after another in the order sent, in the same transaction: a failure
// aborts it, the statements after it fail, and nothing commits. PGlite has no network to wait on: it runs them as
// they come.
import type { DbTransaction } from "./client.ts";

/** node-postgres's pipeline switch on a client: not in its typings. */
interface PipelinedConnection {
  pipeline: boolean;
}

/** The node-postgres client under drizzle's transaction; undefined on PGlite. */
function connectionOf(tx: DbTransaction): PipelinedConnection | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  return client !== null &&
    typeof client === "object" &&
    typeof (client as PipelinedConnection).pipeline === "boolean"
    ? (client as PipelinedConnection)
    : undefined;
}

/**
 * Runs `work` with `tx`'s connection in pipeline mode: statements sent before the answer of the one before them (see
 * `together`) go out at once, while a statement awaited alone still waits for its answer as before. `work` leaves
 * nothing in flight when it ends, failed or not (`together` sees to that), so the connection leaves the mode idle.
 */
export async function pipelining<T>(tx: DbTransaction, work: () => Promise<T>): Promise<T> {
  const connection = connectionOf(tx);
  if (!connection || connection.pipeline) return work();
  connection.pipeline = true;
  try {
    return await work();
  } finally {
    connection.pipeline = false;
  }
}

/**
 * The answers of statements already sent (a drizzle query's `.execute()` sends it at once, in call order), once every
 * one of them is in: nothing is left in flight, and a failure is thrown only then, the first in the order given (the
 * failures after it follow from it, the transaction being aborted).
 */
export async function together<T extends readonly unknown[]>(
  pending: {
    readonly [K in keyof T]: PromiseLike<T[K]>;
  },
): Promise<T> {
  const outcomes = await Promise.allSettled(pending);
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
