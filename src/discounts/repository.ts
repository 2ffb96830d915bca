// Reads and writes of the discount store. Publishing and cancelling one (adapter, tokenToRedeem) pair run under a
// transaction-scoped advisory lock on that pair, so a publish racing a cancel can never bring back the discount
// the cancel deleted, on any number of replicas.
//
// Every write bumps the "discounts" generation in its transaction. The hot read (`listForToken`, on every quote
// and liquidity request, per input token) answers from an in-memory copy of the whole store (one row per
// adapter and token: small), rebuilt when the generation changes: this process's writes are visible to every
// request that starts after their 200, another replica's within `maxAgeMs`.
import { and, eq, inArray } from "drizzle-orm";
import type { Address, Hex } from "viem";
import type { Clock } from "../clock.ts";
import { HASHED_LOCK_NAMESPACES, lockHashedTransaction } from "../db/advisory-locks.ts";
import type { Database, Db } from "../db/client.ts";
import { bumpGeneration, GenerationCache } from "../db/generations.ts";
import { fromRow, type StoredDiscount, toRow } from "./discount.ts";
import { discountCancels, discounts } from "./tables.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type PublishOutcome = "stored" | "cancelled";

export type CancelOutcome =
  | { kind: "cancelled" /** The discount the cancel deleted, if one was stored. */; discountId: Hex | null }
  | { kind: "replayed" };

export interface CancelRecord {
  cancelId: Hex;
  adapter: Address;
  tokenToRedeem: Address;
  signer: Address;
  at: Date;
}

async function lockPair(tx: Tx, adapter: Address, tokenToRedeem: Address): Promise<void> {
  await lockHashedTransaction(tx, HASHED_LOCK_NAMESPACES.discountPair, `${adapter}:${tokenToRedeem}`);
}

export interface DiscountRepositoryOptions {
  clock: Clock;
  /** How stale another replica's writes may be in `listForToken` (default 250 ms). */
  maxAgeMs?: number;
}

const NO_DISCOUNTS: readonly StoredDiscount[] = Object.freeze([]);

export class DiscountRepository {
  readonly #byToken: GenerationCache<Map<Address, readonly StoredDiscount[]>>;

  constructor(
    private readonly database: Database,
    options: DiscountRepositoryOptions,
  ) {
    this.#byToken = new GenerationCache(
      database,
      "discounts",
      async () => {
        const byToken = new Map<Address, StoredDiscount[]>();
        for (const discount of await this.listAll()) {
          const token = discount.discount.tokenToRedeem;
          byToken.set(token, [...(byToken.get(token) ?? []), discount]);
        }
        return byToken;
      },
      options.clock,
      options.maxAgeMs ?? 250,
    );
  }

  async listAll(): Promise<StoredDiscount[]> {
    const rows = await this.database.db.select().from(discounts);
    return rows.map(fromRow);
  }

  /** The stored discounts of one input token, from the in-memory copy of the store (see the top of this file). */
  async listForToken(tokenToRedeem: Address): Promise<readonly StoredDiscount[]> {
    return (await this.#byToken.get()).get(tokenToRedeem) ?? NO_DISCOUNTS;
  }

  async findById(discountId: Hex): Promise<StoredDiscount | undefined> {
    const rows = await this.database.db
      .select()
      .from(discounts)
      .where(eq(discounts.discountId, discountId))
      .limit(1);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async findForPair(adapter: Address, tokenToRedeem: Address): Promise<StoredDiscount | undefined> {
    const rows = await this.database.db
      .select()
      .from(discounts)
      .where(and(eq(discounts.adapter, adapter), eq(discounts.tokenToRedeem, tokenToRedeem)))
      .limit(1);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Stores the discount as its pair's live one, replacing any other, unless a cancel already deleted it. */
  async publish(discount: StoredDiscount): Promise<PublishOutcome> {
    const row = toRow(discount);
    const outcome = await this.database.db.transaction(async (tx): Promise<PublishOutcome> => {
      await lockPair(tx, discount.adapter, discount.discount.tokenToRedeem);
      const cancelled = await tx
        .select({ cancelId: discountCancels.cancelId })
        .from(discountCancels)
        .where(eq(discountCancels.cancelledDiscountId, discount.discountId))
        .limit(1);
      if (cancelled.length > 0) return "cancelled";
      const { adapter, tokenToRedeem, ...rest } = row;
      await tx
        .insert(discounts)
        .values(row)
        .onConflictDoUpdate({ target: [discounts.adapter, discounts.tokenToRedeem], set: rest });
      await bumpGeneration(tx, "discounts");
      return "stored";
    });
    if (outcome === "stored") this.#byToken.invalidate();
    return outcome;
  }

  /** Records the cancel once and deletes whatever discount its pair has; a second use of the cancel changes nothing. */
  async cancel(record: CancelRecord): Promise<CancelOutcome> {
    const outcome = await this.database.db.transaction(async (tx): Promise<CancelOutcome> => {
      await lockPair(tx, record.adapter, record.tokenToRedeem);
      const pair = and(
        eq(discounts.adapter, record.adapter),
        eq(discounts.tokenToRedeem, record.tokenToRedeem),
      );
      const stored = await tx
        .select({ discountId: discounts.discountId })
        .from(discounts)
        .where(pair)
        .limit(1);
      const discountId = (stored[0]?.discountId as Hex | undefined) ?? null;
      const inserted = await tx
        .insert(discountCancels)
        .values({
          cancelId: record.cancelId,
          adapter: record.adapter,
          tokenToRedeem: record.tokenToRedeem,
          signer: record.signer,
          cancelledDiscountId: discountId,
          cancelledAt: record.at,
        })
        .onConflictDoNothing({ target: discountCancels.cancelId })
        .returning({ cancelId: discountCancels.cancelId });
      if (inserted.length === 0) return { kind: "replayed" };
      if (discountId) {
        await tx.delete(discounts).where(pair);
        await bumpGeneration(tx, "discounts");
      }
      return { kind: "cancelled", discountId };
    });
    if (outcome.kind === "cancelled" && outcome.discountId) this.#byToken.invalidate();
    return outcome;
  }

  /** Deletes these discounts (by id, so a newer discount published for the same pair meanwhile stays). */
  async deleteByIds(discountIds: readonly Hex[]): Promise<number> {
    if (discountIds.length === 0) return 0;
    const deleted = await this.database.db.transaction(async (tx) => {
      const rows = await tx
        .delete(discounts)
        .where(inArray(discounts.discountId, [...discountIds]))
        .returning({ discountId: discounts.discountId });
      if (rows.length > 0) await bumpGeneration(tx, "discounts");
      return rows.length;
    });
    if (deleted > 0) this.#byToken.invalidate();
    return deleted;
  }
}
