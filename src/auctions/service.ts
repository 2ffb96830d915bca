// GET /auctions/{requestId}: a stored round (a /quote round or an /order hard round) as the public sees it once its
// quotes can no longer be taken — each solver's outcome, reason code, latency, rank and offered legs, which entries
// became orders, a hard round's winner. Never the raw `detail`, solver endpoints, the swapper or recipients. Every
// read is an indexed lookup: the answers by request id, the entries by request id (or the hard round's one entry by
// its quote id), the orders by quote id.
import type { Address } from "viem";
import type { Clock } from "../clock.ts";
import type { OrderRepository } from "../orders/repository.ts";
import type { RoundStore, SolverAnswer } from "../rounds/store.ts";
import type { QuoteRepository, QuoteRow } from "../swap/repository.ts";
import type { QuoteRoundWriter } from "../swap/round-writer.ts";
import { AuctionNotFoundError, AuctionOpenError } from "./errors.ts";
import { answerRanks } from "./ranking.ts";
import { type AuctionResult, PUBLIC_AFTER_DEADLINE_MS } from "./schemas.ts";

type AnswerView = AuctionResult["solvers"][number];

const UNRANKED = Number.MAX_SAFE_INTEGER;

/** What a round is, before it is shown: when it becomes public and what it was about. */
interface Round {
  round: "quote" | "order";
  quoteRequestId: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  createdAt: Date;
  availableAt: Date;
  /** The entries the round is about: a /quote round's handed-out entries, or a hard round's one entry. */
  entries: readonly QuoteRow[];
}

export interface AuctionResultsOptions {
  quotes: QuoteRepository;
  /** The rounds' answers. */
  rounds: Pick<RoundStore, "answersOf">;
  orders: OrderRepository;
  /**
   * /quote rounds answered in this process but not stored yet: a lookup of one waits for its write (503 while a
   * round kept for a database outage still cannot be written).
   */
  pending: Pick<QuoteRoundWriter, "settledRound">;
  clock: Clock;
}

export class AuctionResults {
  private readonly quotes: QuoteRepository;
  private readonly orders: OrderRepository;

  constructor(private readonly options: AuctionResultsOptions) {
    this.quotes = options.quotes;
    this.orders = options.orders;
  }

  async result(requestId: string): Promise<AuctionResult> {
    await this.options.pending.settledRound(requestId);
    const answers = await this.options.rounds.answersOf(requestId);
    const round = await this.#roundOf(requestId, answers);
    if (!round) throw new AuctionNotFoundError(requestId);
    if (this.options.clock.now() < round.availableAt)
      throw new AuctionOpenError(requestId, round.availableAt);

    const orders = await this.orders.findByQuoteIds(round.entries.map((entry) => entry.quoteId));
    const ranks = answerRanks(answers);
    const views = answers.map((answer) => ({
      answer,
      view: answerView(answer, ranks.get(answer.id) ?? null),
    }));
    let winner: AuctionResult["winner"] = null;
    let roundOrderId: string | null = null;

    if (round.round === "quote") {
      // Each solver's entry carries the quote id of its answer; the order, if one was placed, holds that id.
      const orderByQuoteId = new Map(orders.map((order) => [order.quoteId, order.orderId]));
      for (const { answer, view } of views) view.orderId = orderByQuoteId.get(answer.quoteId) ?? null;
    } else {
      // The auction's rule: the best answer that meets the quoted total wins (rank 1, if it meets it).
      const quoted = BigInt(round.entries[0]!.amountOut);
      const best = views.find(({ view }) => view.rank === 1);
      if (best && BigInt(best.view.amountOut!) >= quoted) {
        winner = { solverId: best.answer.solverId, committedAmountOut: best.view.amountOut! };
        // The entry's order was created by this call only if it holds this request id (a concurrent post may have
        // won, or the order was refused after the round).
        const order = orders.find((candidate) => candidate.requestId === requestId);
        if (order) {
          roundOrderId = order.orderId;
          best.view.orderId = order.orderId;
        }
      }
    }

    return {
      requestId,
      round: round.round,
      quoteRequestId: round.quoteRequestId,
      tokenIn: round.tokenIn as Address,
      tokenOut: round.tokenOut as Address,
      amountIn: round.amountIn,
      createdAt: round.createdAt.toISOString(),
      availableAt: round.availableAt.toISOString(),
      quotedAmountOut: round.round === "order" ? round.entries[0]!.amountOut : null,
      winner,
      orderId: roundOrderId,
      // Quoted answers by rank, then the others in the order they were asked (the sort is stable).
      solvers: views.map(({ view }) => view).sort((a, b) => (a.rank ?? UNRANKED) - (b.rank ?? UNRANKED)),
    };
  }

  /** The round a call ran: a hard round (its answers name the entry re-run) or a /quote round. */
  async #roundOf(requestId: string, answers: readonly SolverAnswer[]): Promise<Round | undefined> {
    const first = answers[0];
    if (first?.round !== "order") return this.#quoteRound(requestId, first?.createdAt);
    const stored = await this.quotes.findQuote(first.quoteId);
    if (!stored) return undefined;
    return {
      round: "order",
      quoteRequestId: stored.quote.requestId,
      tokenIn: stored.quote.tokenIn,
      tokenOut: stored.quote.tokenOut,
      amountIn: stored.quote.amountIn,
      createdAt: first.createdAt,
      // A hard round is public when its quote is: the entry's deadline + 10 s.
      availableAt: publicFrom([stored.quote]) ?? first.createdAt,
      entries: [stored.quote],
    };
  }

  /**
   * A /quote round: answered at `answeredAt`, or, without it, a call that asked nobody (below the minimum, no eligible
   * solver) and handed out nothing. With no entry handed out nothing can be taken, so nothing is held back.
   */
  async #quoteRound(requestId: string, answeredAt: Date | undefined): Promise<Round | undefined> {
    const request = await this.quotes.findRequest(requestId);
    if (!request) return undefined;
    const entries = answeredAt ? await this.quotes.entriesOf(requestId) : [];
    const createdAt = answeredAt ?? request.createdAt;
    return {
      round: "quote",
      quoteRequestId: request.requestId,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      amountIn: request.amount,
      createdAt,
      availableAt: publicFrom(entries) ?? createdAt,
      entries,
    };
  }
}

/** The latest deadline of the entries + 10 s; undefined without entries. */
function publicFrom(entries: readonly Pick<QuoteRow, "deadline">[]): Date | undefined {
  if (entries.length === 0) return undefined;
  const deadline = Math.max(...entries.map((entry) => entry.deadline));
  return new Date(deadline * 1000 + PUBLIC_AFTER_DEADLINE_MS);
}

function answerView(answer: SolverAnswer, rank: number | null): AnswerView {
  return {
    solverId: answer.solverId,
    outcome: answer.outcome,
    // Only the code: the raw detail can carry a solver's own text or endpoint.
    reason: answer.outcome === "rejected" ? (answer.reason as AnswerView["reason"]) : null,
    amountOut: answer.outcome === "quoted" ? answer.amountOut : null,
    latencyMs: answer.latencyMs,
    rank,
    legs:
      answer.offeredLegs?.map((leg) => ({
        adapter: leg.adapter as Address,
        maxAssets: leg.maxAssets,
        maxRate: leg.maxRate,
      })) ?? null,
    orderId: null,
  };
}
