// An order's trail: everything Sluice recorded about one swap, in time order, each step with the request id of the
// call that did it — the /quote round (every solver's answer, its reason and latency, the quotes issued), each
// /order call's signature check, hard round and co-signature, re-posts, and every status change with its block and
// transaction. Found by the order id or by any request id along the way (a support ticket's X-Request-Id). Read
// from the stored rows only, so it says what happened even on another replica, and nothing secret: no solver
// secret or endpoint (a network failure's detail, which names the endpoint, is left out).
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { orderAttempts, orderChecks, orderStatusHistory, orders } from "../orders/tables.ts";
import { solverAnswers } from "../rounds/tables.ts";
import { quoteRequests, quotes } from "../swap/tables.ts";
import { TrailNotFoundError } from "./errors.ts";

export type TrailQuery = { orderId: string } | { requestId: string };

export interface TrailAnswer {
  solverId: string;
  outcome: "quoted" | "declined" | "rejected";
  reason: string | null;
  detail: string | null;
  latencyMs: number;
  amountOut: string | null;
}

export type TrailEntry =
  | {
      kind: "quote-round";
      at: string;
      requestId: string;
      swapper: string;
      tokenIn: string;
      tokenOut: string;
      amount: string;
      inventoryBlock: string | null;
      answers: TrailAnswer[];
      quotes: Array<{ quoteId: string; solverId: string; rank: number; amountOut: string; deadline: number }>;
    }
  | {
      kind: "signature-check";
      at: string;
      requestId: string;
      quoteId: string;
      passed: boolean;
      detail: string;
    }
  | { kind: "hard-round"; at: string; requestId: string; quoteId: string; answers: TrailAnswer[] }
  | { kind: "co-signature"; at: string; requestId: string; quoteId: string; signer: string }
  | { kind: "order-post"; at: string; requestId: string; orderId: string }
  | {
      kind: "status";
      at: string;
      /** The request that wrote it (the creation); null for the indexer's changes. */
      requestId: string | null;
      orderId: string;
      from: string | null;
      to: string;
      reason: string;
      blockNumber: string | null;
      txHash: string | null;
    };

export interface Trail {
  /** The orders the trail reached (none when no post got that far). */
  orders: Array<{
    orderId: string;
    orderHash: string;
    quoteId: string;
    solverId: string;
    status: string;
    txHash: string | null;
  }>;
  /** The /quote round's request id. */
  quoteRequestId: string;
  entries: TrailEntry[];
}

/** Steps recorded at the same instant keep the swap's order: the round, the checks, the creation, then the rest. */
function stepRank(entry: TrailEntry): number {
  if (entry.kind === "status") return entry.from === null ? 4 : 6;
  return { "quote-round": 0, "signature-check": 1, "hard-round": 2, "co-signature": 3, "order-post": 5 }[
    entry.kind
  ];
}

export class TrailService {
  constructor(private readonly database: Database) {}

  async find(query: TrailQuery): Promise<Trail> {
    const scope = await this.#scope(query);
    if (!scope) throw new TrailNotFoundError(query);
    return this.#read(scope);
  }

  /** The quote round and the quotes (all of the round's, or the one an order or post was for) the trail covers. */
  async #scope(
    query: TrailQuery,
  ): Promise<{ quoteRequestId: string; quoteIds: string[] | "all" } | undefined> {
    const { db } = this.database;
    if ("orderId" in query) {
      const [order] = await db
        .select({ quoteId: orders.quoteId, quoteRequestId: orders.quoteRequestId })
        .from(orders)
        .where(eq(orders.orderId, query.orderId))
        .limit(1);
      return order && { quoteRequestId: order.quoteRequestId, quoteIds: [order.quoteId] };
    }
    const { requestId } = query;
    const [round] = await db
      .select({ requestId: quoteRequests.requestId })
      .from(quoteRequests)
      .where(eq(quoteRequests.requestId, requestId))
      .limit(1);
    if (round) return { quoteRequestId: round.requestId, quoteIds: "all" };
    // An /order call: its hard round, its checks, or (a re-post) the order it reached.
    const [answered, checked, reposted] = await Promise.all([
      db
        .select({ quoteId: solverAnswers.quoteId })
        .from(solverAnswers)
        .where(and(eq(solverAnswers.requestId, requestId), eq(solverAnswers.round, "order")))
        .limit(1),
      db
        .select({ quoteId: orderChecks.quoteId })
        .from(orderChecks)
        .where(eq(orderChecks.requestId, requestId))
        .limit(1),
      db
        .select({ quoteId: orders.quoteId })
        .from(orderAttempts)
        .innerJoin(orders, eq(orders.orderId, orderAttempts.orderId))
        .where(eq(orderAttempts.requestId, requestId))
        .limit(1),
    ]);
    const quoteId = answered[0]?.quoteId ?? checked[0]?.quoteId ?? reposted[0]?.quoteId;
    if (!quoteId) return undefined;
    const [quote] = await db
      .select({ requestId: quotes.requestId })
      .from(quotes)
      .where(eq(quotes.quoteId, quoteId))
      .limit(1);
    return quote && { quoteRequestId: quote.requestId, quoteIds: [quoteId] };
  }

  async #read(scope: { quoteRequestId: string; quoteIds: string[] | "all" }): Promise<Trail> {
    const { db } = this.database;
    const [request] = await db
      .select()
      .from(quoteRequests)
      .where(eq(quoteRequests.requestId, scope.quoteRequestId))
      .limit(1);
    const issued = await db
      .select({
        quoteId: quotes.quoteId,
        solverId: quotes.solverId,
        rank: quotes.rank,
        amountOut: quotes.amountOut,
        deadline: quotes.deadline,
      })
      .from(quotes)
      .where(eq(quotes.requestId, scope.quoteRequestId))
      .orderBy(asc(quotes.rank));
    const quoteIds = scope.quoteIds === "all" ? issued.map((quote) => quote.quoteId) : scope.quoteIds;
    const roundAnswers = await db
      .select()
      .from(solverAnswers)
      .where(and(eq(solverAnswers.requestId, scope.quoteRequestId), eq(solverAnswers.round, "quote")))
      .orderBy(asc(solverAnswers.id));
    const none = quoteIds.length === 0;
    const [hardAnswers, checks, placed] = await Promise.all([
      none
        ? []
        : db
            .select()
            .from(solverAnswers)
            .where(and(inArray(solverAnswers.quoteId, quoteIds), eq(solverAnswers.round, "order")))
            .orderBy(asc(solverAnswers.id)),
      none
        ? []
        : db
            .select()
            .from(orderChecks)
            .where(inArray(orderChecks.quoteId, quoteIds))
            .orderBy(asc(orderChecks.id)),
      none ? [] : db.select().from(orders).where(inArray(orders.quoteId, quoteIds)),
    ]);
    const orderIds = placed.map((order) => order.orderId);
    const [history, posts] = await Promise.all([
      orderIds.length === 0
        ? []
        : db
            .select()
            .from(orderStatusHistory)
            .where(inArray(orderStatusHistory.orderId, orderIds))
            .orderBy(asc(orderStatusHistory.id)),
      orderIds.length === 0
        ? []
        : db
            .select()
            .from(orderAttempts)
            .where(inArray(orderAttempts.orderId, orderIds))
            .orderBy(asc(orderAttempts.id)),
    ]);

    const entries: TrailEntry[] = [];
    if (request)
      entries.push({
        kind: "quote-round",
        at: request.createdAt.toISOString(),
        requestId: request.requestId,
        swapper: request.swapper,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        amount: String(request.amount),
        inventoryBlock: request.inventoryBlock === null ? null : request.inventoryBlock.toString(),
        answers: roundAnswers.map(trailAnswer),
        quotes: issued.map((quote) => ({ ...quote, amountOut: String(quote.amountOut) })),
      });
    // One hard round per /order call that ran one.
    const rounds = new Map<string, { at: Date; quoteId: string; answers: TrailAnswer[] }>();
    for (const answer of hardAnswers) {
      const round = rounds.get(answer.requestId) ?? {
        at: answer.createdAt,
        quoteId: answer.quoteId,
        answers: [],
      };
      round.answers.push(trailAnswer(answer));
      rounds.set(answer.requestId, round);
    }
    for (const [requestId, round] of rounds)
      entries.push({
        kind: "hard-round",
        at: round.at.toISOString(),
        requestId,
        quoteId: round.quoteId,
        answers: round.answers,
      });
    for (const check of checks)
      entries.push(
        check.check === "signature"
          ? {
              kind: "signature-check",
              at: check.createdAt.toISOString(),
              requestId: check.requestId,
              quoteId: check.quoteId,
              passed: check.passed,
              detail: check.detail,
            }
          : {
              kind: "co-signature",
              at: check.createdAt.toISOString(),
              requestId: check.requestId,
              quoteId: check.quoteId,
              signer: check.detail,
            },
      );
    for (const post of posts)
      entries.push({
        kind: "order-post",
        at: post.createdAt.toISOString(),
        requestId: post.requestId,
        orderId: post.orderId,
      });
    for (const change of history)
      entries.push({
        kind: "status",
        at: change.createdAt.toISOString(),
        requestId: change.requestId,
        orderId: change.orderId,
        from: change.fromStatus,
        to: change.toStatus,
        reason: change.reason,
        blockNumber: change.blockNumber === null ? null : change.blockNumber.toString(),
        txHash: change.txHash,
      });
    // Stable: rows of one kind keep their stored order.
    entries.sort((a, b) => a.at.localeCompare(b.at) || stepRank(a) - stepRank(b));

    return {
      quoteRequestId: scope.quoteRequestId,
      orders: placed.map((order) => ({
        orderId: order.orderId,
        orderHash: order.orderHash,
        quoteId: order.quoteId,
        solverId: order.solverId,
        status: order.status,
        txHash: order.txHash,
      })),
      entries,
    };
  }
}

function trailAnswer(row: typeof solverAnswers.$inferSelect): TrailAnswer {
  return {
    solverId: row.solverId,
    outcome: row.outcome,
    reason: row.reason,
    detail: publicDetail(row.reason, row.detail),
    latencyMs: Math.round(row.latencyMs * 10) / 10,
    amountOut: row.amountOut === null ? null : String(row.amountOut),
  };
}

/**
 * A rejection's detail without where the solver is: a network failure's message names its endpoint (dropped), and
 * any URL or address:port in another is masked.
 */
function publicDetail(reason: string | null, detail: string | null): string | null {
  if (detail === null || reason === "network") return null;
  return detail
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "(endpoint)")
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, "(endpoint)")
    .replace(/\[[0-9a-f:]+\](:\d+)?/gi, "(endpoint)");
}
