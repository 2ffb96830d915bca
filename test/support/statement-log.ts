// The statements drizzle sends, on either driver, grouped by transaction: what a test counts when it asks how many
// statements, and how many round trips one after another, a transaction makes. A statement sent while another of
// the same connection is still unanswered rides on that one's round trip: on node-postgres only in pipeline mode
// (otherwise the client holds it back until the answer), on PGlite always (in-process: no round trip to save).
import { NodePgPreparedQuery } from "drizzle-orm/node-postgres";
import { PglitePreparedQuery } from "drizzle-orm/pglite";

export interface LoggedStatement {
  text: string;
  /** Sent while nothing else of its connection was in flight (or held back until it was): a wait of its own. */
  roundTrip: boolean;
}

export interface LoggedTransaction {
  /** Its statements, BEGIN and COMMIT left out (PGlite sends them itself, unseen). */
  statements: LoggedStatement[];
}

export interface StatementLog {
  transactions(): LoggedTransaction[];
  stop(): void;
}

type Execute = (this: { client: object; queryString: string }, ...args: unknown[]) => Promise<unknown>;

/** Records every statement drizzle sends from now until `stop()`. */
export function logStatements(): StatementLog {
  const groups: LoggedTransaction[] = [];
  const open = new Map<object, LoggedTransaction>();
  const inFlight = new Map<object, number>();
  const restore: Array<() => void> = [];
  for (const prepared of [NodePgPreparedQuery, PglitePreparedQuery]) {
    for (const method of ["execute", "all"] as const) {
      const proto = prepared.prototype as unknown as Record<string, Execute>;
      const original = proto[method]!;
      proto[method] = function (this: { client: object; queryString: string }, ...args: unknown[]) {
        const { client, queryString: text } = this;
        const waiting = inFlight.get(client) ?? 0;
        const keyword = text.trim().split(/\s+/)[0]!.toLowerCase();
        if (keyword === "begin") {
          const group: LoggedTransaction = { statements: [] };
          groups.push(group);
          open.set(client, group);
        } else if (keyword === "commit" || keyword === "rollback") {
          open.delete(client);
        } else {
          let group = open.get(client);
          if (!group) {
            // PGlite: a transaction is a connection object of its own, its BEGIN unseen.
            group = { statements: [] };
            groups.push(group);
            open.set(client, group);
          }
          const pipeline = (client as { pipeline?: unknown }).pipeline;
          const heldBack = typeof pipeline === "boolean" && !pipeline;
          group.statements.push({ text, roundTrip: waiting === 0 || heldBack });
        }
        inFlight.set(client, waiting + 1);
        const done = () => inFlight.set(client, (inFlight.get(client) ?? 1) - 1);
        const result = original.apply(this, args);
        result.then(done, done);
        return result;
      };
      restore.push(() => {
        proto[method] = original;
      });
    }
  }
  return {
    transactions: () => groups.filter((group) => group.statements.length > 0),
    stop() {
      for (const undo of restore) undo();
    },
  };
}
