// Fades, counted where orders end: in the indexer's block transaction, each order a block brought to an end status (as
// the settlement wrote it and the reconciler judged it: the indexer passes both) is recorded as an outcome of its solver — filled, faded, or excused — and a solver whose window now holds too many
// fades starts a cooldown in the same transaction. An expiry is a fade only when the order was fillable throughout,
// as far as its swapper decides, and the solver had a fair chance: at least minFillWindowSeconds between the order's
// acceptance and its deadline, and at every indexed block up to the deadline the order was fillable at every point
// inside the block, not only at its end (the reconciler notes the first block where that is not known, see
// src/indexer/fillability.ts). A cancellation or a consumed nonce is never a fade. What is left is the solver's: its
// filler, its legs, its gas, its will. One swapper's fades count once per window, and an order is only assigned after
// the solver won the hard round.
import { gt, sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { DbTransaction } from "../db/client.ts";
import type { EndedOrder as IndexedEnd, OrderEndObserver } from "../indexer/event-applier.ts";
import type { SolverCooldowns } from "./cooldowns.ts";
import { countedFades, fadeReason, fadesCallForCooldown } from "./policy.ts";
import { type CooldownChange, type CooldownRepository, effectiveState } from "./repository.ts";
import { type OrderOutcome, solverOrderOutcomes } from "./tables.ts";

export interface EndedOrder {
  status: string;
  deadline: number;
  createdAt: Date;
  /** The reconciler noted a block at which the order was not known to be fillable throughout. */
  shortfall: boolean;
}

/** What an order's end means for its solver. */
export function outcomeOf(order: EndedOrder, minFillWindowSeconds: number): OrderOutcome {
  if (order.status === "filled") return "filled";
  if (order.status !== "expired" || order.shortfall) return "excused";
  const fillWindow = order.deadline - Math.floor(order.createdAt.getTime() / 1000);
  return fillWindow >= minFillWindowSeconds ? "faded" : "excused";
}

export class FadeLedger implements OrderEndObserver {
  constructor(
    private readonly repository: CooldownRepository,
    private readonly cooldowns: SolverCooldowns,
    private readonly clock: Clock,
  ) {}

  async ended(
    tx: DbTransaction,
    block: { number: bigint },
    ended: readonly IndexedEnd[],
    at: Date,
  ): Promise<() => void> {
    const { config } = this.cooldowns;
    if (ended.length === 0) return () => {};
    // Rows in key order: concurrent writers of these outcome rows lock them in one order.
    const outcomes = [...ended]
      .sort((a, b) => (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0))
      .map((order) => ({
        solverId: order.solverId,
        orderId: order.orderId,
        swapper: order.swapper,
        outcome: outcomeOf(order, config.minFillWindowSeconds),
        blockNumber: block.number,
        endedAt: at,
      }));
    // One statement for the block's orders. A Fill after an expiry (a Fill always wins) turns the outcome into
    // `filled`.
    await tx
      .insert(solverOrderOutcomes)
      .values(outcomes)
      .onConflictDoUpdate({
        target: solverOrderOutcomes.orderId,
        set: {
          outcome: sql`excluded.outcome`,
          blockNumber: sql`excluded.block_number`,
          endedAt: sql`excluded.ended_at`,
        },
      });
    const fadedSolvers = [
      ...new Set(outcomes.filter((o) => o.outcome === "faded").map((o) => o.solverId)),
    ].sort();
    const changes: CooldownChange[] = [];
    for (const solverId of fadedSolvers) changes.push(...(await this.#judge(tx, solverId)));
    return () => this.cooldowns.recorded(changes);
  }

  async rewound(tx: DbTransaction, forkPoint: bigint): Promise<void> {
    // The orders those blocks ended are open again (or ended differently); a cooldown already started stands.
    await tx.delete(solverOrderOutcomes).where(gt(solverOrderOutcomes.blockNumber, forkPoint));
  }

  /** Starts the solver's cooldown when its window (outcomes since its last cooldown ended) holds too many fades. */
  async #judge(tx: DbTransaction, solverId: string): Promise<CooldownChange[]> {
    const { config } = this.cooldowns;
    const now = this.clock.now();
    const stored = await this.repository.lockedState(tx, solverId, now);
    const state = effectiveState(stored, now);
    if (state.cooldownUntil) return [];
    const window = await this.repository.outcomesSince(tx, solverId, state.lastEndedAt, config.fades.window);
    if (!fadesCallForCooldown(window, config)) return [];
    return this.repository.startAutomatic(
      tx,
      solverId,
      fadeReason(countedFades(window), window.length),
      now,
      config,
    );
  }
}
