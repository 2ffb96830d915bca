// Live discounts as legs (the swap flow's `DiscountOffers`): the stored discounts of a snapshot's input token,
// judged at the snapshot's block. The store is read through the repository's in-memory copy, which this process's
// writes refresh at once, so a discount counts from its 200 and stops counting at its cancel's 200 (on another
// replica within the repository's maxAgeMs); the per-discount chain reads (nonce, signer's filler flag) are made once per
// snapshot, i.e. once per block and token, in one `eth_call`.

import type { Address, Hex } from "viem";
import type { InventorySnapshot } from "../inventory/adapter-state.ts";
import { isAuthorizedOn } from "../inventory/adapter-state.ts";
import type { DiscountOffer } from "../inventory/offer.ts";
import type { Logger } from "../logger.ts";
import type { DiscountOffers } from "../market/market.ts";
import { failureLevel } from "../outages.ts";
import type { DiscountChainReads, NonceAndFiller } from "./chain-reads.ts";
import type { StoredDiscount } from "./discount.ts";
import { type DiscountFault, discountFaults } from "./liveness.ts";
import type { DiscountRepository } from "./repository.ts";

export interface DiscountAssessment {
  discount: StoredDiscount;
  /** [] = live; null = the chain state it depends on could not be read at this block (not offered, not dropped). */
  faults: DiscountFault[] | null;
}

export interface LiveDiscountsOptions {
  repository: Pick<DiscountRepository, "listForToken">;
  reads: Pick<DiscountChainReads, "nonceAndFiller">;
  protocolSigner: Address;
  logger: Logger;
}

export class LiveDiscounts implements DiscountOffers {
  readonly #reads = new WeakMap<InventorySnapshot, Map<Hex, Promise<NonceAndFiller | null>>>();

  constructor(private readonly options: LiveDiscountsOptions) {}

  async offers(snapshot: InventorySnapshot): Promise<DiscountOffer[]> {
    const stored = await this.options.repository.listForToken(snapshot.tokenIn);
    const assessed = await this.assess(snapshot, stored);
    return assessed
      .filter((entry) => entry.faults?.length === 0)
      .map(({ discount }) => ({
        discountId: discount.discountId,
        adapter: discount.adapter,
        discountPpm: discount.discount.discount,
      }));
  }

  /** Judges each discount at the snapshot's block (discounts of another token or adapter get `null`). */
  async assess(
    snapshot: InventorySnapshot,
    stored: readonly StoredDiscount[],
  ): Promise<DiscountAssessment[]> {
    const states = new Map(snapshot.adapters.map((state) => [state.adapter, state]));
    const judged = stored.flatMap((discount) => {
      const state = states.get(discount.adapter);
      return state && discount.discount.tokenToRedeem === snapshot.tokenIn ? [{ discount, state }] : [];
    });
    const reads = await this.#nonceAndFiller(snapshot, judged);
    return stored.map((discount) => {
      const state = states.get(discount.adapter);
      const read = reads.get(discount.discountId);
      if (!state || !read) return { discount, faults: null };
      const faults = discountFaults(
        discount.discount,
        {
          blockTimestamp: snapshot.blockTimestamp,
          acceptsTokenIn: state.acceptsTokenIn,
          minDiscountPpm: state.minDiscountPpm,
          signerAuthorized: isAuthorizedOn(state, discount.discount.signer) || read.signerIsFiller,
          nonceUsed: read.nonceUsed,
        },
        this.options.protocolSigner,
      );
      return { discount, faults };
    });
  }

  async #nonceAndFiller(
    snapshot: InventorySnapshot,
    judged: ReadonlyArray<{ discount: StoredDiscount; state: { marketMaker: Address } }>,
  ): Promise<Map<Hex, NonceAndFiller | null>> {
    let cache = this.#reads.get(snapshot);
    if (!cache) {
      cache = new Map();
      this.#reads.set(snapshot, cache);
    }
    const known = cache;
    const missing = judged.filter(({ discount }) => !known.has(discount.discountId));
    if (missing.length > 0) {
      const read = this.options.reads
        .nonceAndFiller(
          missing.map(({ discount, state }) => ({
            adapter: discount.adapter,
            tokenToRedeem: discount.discount.tokenToRedeem,
            nonce: discount.discount.nonce,
            signer: discount.discount.signer,
            marketMaker: state.marketMaker,
          })),
          snapshot.blockNumber,
        )
        .catch((error: unknown) => {
          // Without the reads no discount can be judged: none is offered, and the next request reads again.
          this.options.logger[failureLevel(error, "warn")](
            { err: error, block: snapshot.blockNumber },
            "discount chain reads failed",
          );
          for (const { discount } of missing) known.delete(discount.discountId);
          return missing.map(() => null);
        });
      missing.forEach(({ discount }, index) => {
        known.set(
          discount.discountId,
          read.then((results) => results[index] ?? null),
        );
      });
    }
    const entries = await Promise.all(
      judged.map(
        async ({ discount }) => [discount.discountId, await known.get(discount.discountId)!] as const,
      ),
    );
    return new Map(entries);
  }
}
