// A solver that configured a `notifyUrl` (deployment file only) gets each new order assigned to it POSTed there: the
// order stream's record with the execution fields, signed `x-sluice-signature: sha256=<hex HMAC-SHA256 of
// "<x-sluice-timestamp>.<body>" with the solver's shared secret>`. Sent by the replica that created the order, once
// its transaction has committed and outside the POST /order request (nothing waits for it); bounded by a timeout and
// never retried (a retry could arrive after a later order's): the stream and the poll remain the solver's sure ways.
import { createHmac } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { OrderEvent, OrderEvents } from "./order-events.ts";
import { orderJson } from "./order-json.ts";
import { readPage } from "./page-query.ts";

export const NOTIFY_TIMEOUT_MS = 2000;
export const SIGNATURE_HEADER = "x-sluice-signature";
export const TIMESTAMP_HEADER = "x-sluice-timestamp";

export interface NotifiedSolver {
  id: string;
  notifyUrl: string;
  sharedSecret: string;
}

/** The signature a receiver recomputes to check a notification. */
export function notificationSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export class SolverNotifications {
  readonly #byId: ReadonlyMap<string, NotifiedSolver>;
  readonly #inFlight = new Set<Promise<void>>();
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly options: {
      database: Database;
      events: OrderEvents;
      solvers: readonly NotifiedSolver[];
      logger: Logger;
      timeoutMs?: number;
      now?: () => Date;
    },
  ) {
    this.#byId = new Map(options.solvers.map((solver) => [solver.id, solver]));
  }

  start(): void {
    if (this.#byId.size === 0 || this.#unsubscribe) return;
    this.#unsubscribe = this.options.events.subscribe((event) => this.#heard(event));
  }

  /** Stops listening and waits for the notifications in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    await Promise.all(this.#inFlight);
  }

  #heard(event: OrderEvent): void {
    if (event.kind !== "status" || event.from !== null) return;
    const sending = this.#notify(event.orderId).finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async #notify(orderId: string): Promise<void> {
    const { database, logger } = this.options;
    try {
      const [owner] = await database.query<{ solver_id: string }>(
        "select solver_id from orders where order_id = $1",
        [orderId],
      );
      const solver = owner && this.#byId.get(owner.solver_id);
      if (!solver) return;
      const [row] = await readPage(
        database,
        { orderId, solverId: solver.id, sortKey: "createdAt", sort: "desc" },
        undefined,
        1,
      );
      if (!row) return;
      const body = orderJson(row);
      const timestamp = String(Math.floor((this.options.now?.() ?? new Date()).getTime() / 1000));
      const response = await fetch(solver.notifyUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-solver-id": solver.id,
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: notificationSignature(solver.sharedSecret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? NOTIFY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (!response.ok)
        logger.warn({ orderId, solverId: solver.id, status: response.status }, "solver notification refused");
    } catch (error) {
      logger.warn({ err: error, orderId }, "solver notification failed (not retried)");
    }
  }
}
