// The internal solvers' side of discounts: which discounts are live now, and, for one of them, what a discount swap
// needs on-chain — the signer's signature and a fresh protocol co-signature of `DiscountSwap`, valid 90 seconds.
import type { Hex, LocalAccount } from "viem";
import { DISCOUNT_SWAP_PROTOCOL_WINDOW_SECONDS } from "../chain/eip712.ts";
import { signDiscountSwap } from "../chain/order.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { StoredDiscount } from "./discount.ts";
import { DiscountNotLiveError } from "./errors.ts";
import type { LiveDiscounts } from "./live.ts";
import type { DiscountRepository } from "./repository.ts";
import { discountTermsJson, type ResolvedDiscount } from "./schemas.ts";

export interface SolverDiscountsOptions {
  deployment: Pick<Deployment, "chainId" | "inputTokens">;
  repository: Pick<DiscountRepository, "listAll" | "findById">;
  live: Pick<LiveDiscounts, "assess">;
  inventory: InventoryReader;
  protocolSigner: Pick<LocalAccount, "signTypedData">;
}

export class SolverDiscounts {
  constructor(private readonly options: SolverDiscountsOptions) {}

  /** Every stored discount that is live at the latest block. */
  async list(): Promise<StoredDiscount[]> {
    const stored = await this.options.repository.listAll();
    const live: StoredDiscount[] = [];
    for (const token of this.options.deployment.inputTokens) {
      const group = stored.filter((discount) => discount.discount.tokenToRedeem === token.address);
      if (group.length === 0) continue;
      const snapshot = await this.options.inventory.snapshot(token);
      for (const { discount, faults } of await this.options.live.assess(snapshot, group)) {
        if (faults?.length === 0) live.push(discount);
      }
    }
    return live;
  }

  async resolve(discountId: Hex): Promise<ResolvedDiscount> {
    const id = discountId.toLowerCase() as Hex;
    const stored = await this.options.repository.findById(id);
    if (!stored) throw new DiscountNotLiveError(id, "unknown");
    const token = this.options.deployment.inputTokens.find(
      (configured) => configured.address === stored.discount.tokenToRedeem,
    );
    if (!token) throw new DiscountNotLiveError(id, "unsupported_token");
    const snapshot = await this.options.inventory.snapshot(token);
    const [assessment] = await this.options.live.assess(snapshot, [stored]);
    if (!assessment?.faults) throw new DiscountNotLiveError(id, "unreadable");
    const [fault] = assessment.faults;
    if (fault) throw new DiscountNotLiveError(id, fault);

    // Chain time: the adapter accepts the co-signature while block.timestamp ≤ protocolDeadline ≤ block.timestamp
    // + 90, and every later block's timestamp is at least the latest one's.
    const protocolDeadline = Number(snapshot.blockTimestamp) + DISCOUNT_SWAP_PROTOCOL_WINDOW_SECONDS;
    const discountSwap = { discount: stored.discount, signerSignature: stored.signature, protocolDeadline };
    const protocolSignature = await signDiscountSwap(
      this.options.protocolSigner,
      { chainId: this.options.deployment.chainId, adapter: stored.adapter },
      discountSwap,
    );
    return {
      discountId: stored.discountId,
      adapter: stored.adapter,
      discountSwap: {
        discount: discountTermsJson(stored.discount),
        signerSignature: stored.signature,
        protocolDeadline,
      },
      protocolSignature,
    };
  }
}
