// The stored cooldown state: one row per solver that ever had a cooldown, and a history row for every start and end.
// Every change is a compare-and-set in one transaction (the state row is locked), so two replicas, or the indexer and
// a replica, never start the same cooldown twice or record one end twice.
import { and, desc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import type { Db, DbTransaction } from "../db/client.ts";
import type { CooldownConfig } from "../deployment/schema.ts";
import { nextCooldown, OPERATOR_REASON } from "./policy.ts";
import { solverCooldownEvents, solverCooldowns, solverOrderOutcomes } from "./tables.ts";

type Executor = Db | DbTransaction;

export interface ActiveCooldown {
  solverId: string;
  until: Date;
  reason: string;
}

export interface CooldownState {
  cooldownUntil: Date | null;
  reason: string | null;
  repeats: number;
  lastEndedAt: Date | null;
}

export interface CooldownChange {
  solverId: string;
  kind: "start" | "end";
  reason: string;
  until: Date | null;
  at: Date;
}

/** The recorded reason of a cooldown's end once its time was up. */
function elapsedReason(startReason: string | null): string {
  return `elapsed (${startReason ?? "cooldown"})`;
}

/** The row's state as of `now`: a cooldown whose time is up counts as ended at its `until`, recorded or not. */
export function effectiveState(state: CooldownState | undefined, now: Date): CooldownState {
  if (!state) return { cooldownUntil: null, reason: null, repeats: 0, lastEndedAt: null };
  if (state.cooldownUntil && state.cooldownUntil <= now)
    return { ...state, cooldownUntil: null, lastEndedAt: state.cooldownUntil };
  return state;
}

export class CooldownRepository {
  constructor(private readonly db: Db) {}

  /** The cooldowns not recorded as ended (some may be over by `now`: the caller compares). */
  async current(): Promise<ActiveCooldown[]> {
    const rows = await this.db
      .select({
        solverId: solverCooldowns.solverId,
        until: solverCooldowns.cooldownUntil,
        reason: solverCooldowns.reason,
      })
      .from(solverCooldowns)
      .where(isNotNull(solverCooldowns.cooldownUntil));
    return rows.map((row) => ({ solverId: row.solverId, until: row.until!, reason: row.reason ?? "" }));
  }

  /**
   * Records the end of every cooldown whose time is up by `now`. The update re-checks each row, so of two replicas
   * ending the same cooldown only one records it.
   */
  async endElapsed(now: Date): Promise<CooldownChange[]> {
    return this.db.transaction(async (tx) => {
      const ended = await tx
        .update(solverCooldowns)
        .set({ cooldownUntil: null, lastEndedAt: sql`${solverCooldowns.cooldownUntil}`, updatedAt: now })
        .where(lte(solverCooldowns.cooldownUntil, now))
        .returning({
          solverId: solverCooldowns.solverId,
          reason: solverCooldowns.reason,
          endedAt: solverCooldowns.lastEndedAt,
        });
      const changes = ended.map(
        (row): CooldownChange => ({
          solverId: row.solverId,
          kind: "end",
          reason: elapsedReason(row.reason),
          until: null,
          at: row.endedAt ?? now,
        }),
      );
      if (changes.length > 0) await tx.insert(solverCooldownEvents).values(changes);
      return changes;
    });
  }

  /** The solver's row, locked for the rest of `tx` (created empty if it has none). */
  async lockedState(tx: DbTransaction, solverId: string, now: Date): Promise<CooldownState> {
    await tx.insert(solverCooldowns).values({ solverId, updatedAt: now }).onConflictDoNothing();
    const [row] = await tx
      .select({
        cooldownUntil: solverCooldowns.cooldownUntil,
        reason: solverCooldowns.reason,
        repeats: solverCooldowns.repeats,
        lastEndedAt: solverCooldowns.lastEndedAt,
      })
      .from(solverCooldowns)
      .where(eq(solverCooldowns.solverId, solverId))
      .for("update");
    return row!;
  }

  /**
   * Starts an automatic cooldown in `tx` unless one is running: its length doubles on a repeat (policy.ts). Returns
   * the changes recorded (the end of an elapsed cooldown not yet recorded, then the start), none if it was running.
   */
  async startAutomatic(
    tx: DbTransaction,
    solverId: string,
    reason: string,
    now: Date,
    config: CooldownConfig,
  ): Promise<CooldownChange[]> {
    const stored = await this.lockedState(tx, solverId, now);
    if (stored.cooldownUntil && stored.cooldownUntil > now) return [];
    const changes = this.#elapsedEnd(solverId, stored, now);
    const state = effectiveState(stored, now);
    const next = nextCooldown(state, now, config);
    await tx
      .update(solverCooldowns)
      .set({
        cooldownUntil: next.until,
        reason,
        repeats: next.repeats,
        lastEndedAt: state.lastEndedAt,
        updatedAt: now,
      })
      .where(eq(solverCooldowns.solverId, solverId));
    changes.push({ solverId, kind: "start", reason, until: next.until, at: now });
    await tx.insert(solverCooldownEvents).values(changes);
    return changes;
  }

  /** The operator's override: in cooldown until `until`, whatever it was; the doubling is left as it is. */
  async set(solverId: string, until: Date, now: Date): Promise<CooldownChange[]> {
    return this.db.transaction(async (tx) => {
      const stored = await this.lockedState(tx, solverId, now);
      const changes = this.#elapsedEnd(solverId, stored, now);
      const state = effectiveState(stored, now);
      const reason = OPERATOR_REASON;
      await tx
        .update(solverCooldowns)
        .set({ cooldownUntil: until, reason, lastEndedAt: state.lastEndedAt, updatedAt: now })
        .where(eq(solverCooldowns.solverId, solverId));
      changes.push({ solverId, kind: "start", reason, until, at: now });
      await tx.insert(solverCooldownEvents).values(changes);
      return changes;
    });
  }

  /**
   * The operator's lift: no cooldown from now, the doubling starts over, and only outcomes after now count (else the
   * same fades would start it again at once).
   */
  async lift(solverId: string, now: Date): Promise<CooldownChange[]> {
    return this.db.transaction(async (tx) => {
      const stored = await this.lockedState(tx, solverId, now);
      const changes = this.#elapsedEnd(solverId, stored, now);
      if (stored.cooldownUntil && stored.cooldownUntil > now)
        changes.push({ solverId, kind: "end", reason: "lifted by the operator", until: null, at: now });
      await tx
        .update(solverCooldowns)
        .set({ cooldownUntil: null, repeats: 0, lastEndedAt: now, updatedAt: now })
        .where(eq(solverCooldowns.solverId, solverId));
      if (changes.length > 0) await tx.insert(solverCooldownEvents).values(changes);
      return changes;
    });
  }

  /** The solver's newest `limit` outcomes that ended after `since` (all of them when null), newest first. */
  async outcomesSince(tx: Executor, solverId: string, since: Date | null, limit: number) {
    return tx
      .select({ outcome: solverOrderOutcomes.outcome, swapper: solverOrderOutcomes.swapper })
      .from(solverOrderOutcomes)
      .where(
        since
          ? and(eq(solverOrderOutcomes.solverId, solverId), gt(solverOrderOutcomes.endedAt, since))
          : eq(solverOrderOutcomes.solverId, solverId),
      )
      .orderBy(desc(solverOrderOutcomes.endedAt), desc(solverOrderOutcomes.id))
      .limit(limit);
  }

  /** Every start and end recorded for a solver, oldest first. */
  async history(solverId: string) {
    return this.db
      .select()
      .from(solverCooldownEvents)
      .where(eq(solverCooldownEvents.solverId, solverId))
      .orderBy(solverCooldownEvents.id);
  }

  #elapsedEnd(solverId: string, stored: CooldownState, now: Date): CooldownChange[] {
    if (!stored.cooldownUntil || stored.cooldownUntil > now) return [];
    return [
      {
        solverId,
        kind: "end",
        reason: elapsedReason(stored.reason),
        until: null,
        at: stored.cooldownUntil,
      },
    ];
  }
}
