// The internal solvers' side of discounts: which discounts are live now, and, for one of them, what a discount swap
// needs on-chain — the signer's signature and a fresh protocol co-signature of `DiscountSwap`, valid 90 seconds.
import type { Address, Hex, LocalAccount } from "viem";
import { DISCOUNT_SWAP_PROTOCOL_WINDOW_SECONDS } from "../chain/eip712.ts";
import { signDiscountSwap } from "../chain/order.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { AdapterState } from "../inventory/adapter-state.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { StoredDiscount } from "./discount.ts";
import { DiscountNotLiveError } from "./errors.ts";
import type { LiveDiscounts } from "./live.ts";
import type { DiscountRepository } from "./repository.ts";
import { discountTermsJson, type ResolvedDiscount } from "./schemas.ts";

export interface SolverDiscountsOptions {
  deployment: Pick<Deployment, "chainId" | "inputTokens">;
  repository: Pick<DiscountRepository, "listAll" | "findById" | "findForPair">;
  live: Pick<LiveDiscounts, "assess">;
  inventory: InventoryReader;
  protocolSigner: Pick<LocalAccount, "signTypedData" | "address">;
}

/** A live discount with its adapter's state at the latest block (payout asset, rate, capacity). */
export interface ListedDiscount {
  discount: StoredDiscount;
  state: AdapterState;
}

/** Which discounts `GET` lists: each selector given narrows the list (ids, adapters, tokens). */
export interface DiscountFilter {
  discountIds?: readonly Hex[];
  adapters?: readonly Address[];
  tokensToRedeem?: readonly Address[];
}

type Selector = Hex | { adapter: Address; tokenToRedeem: Address };

export class SolverDiscounts {
  constructor(private readonly options: SolverDiscountsOptions) {}

  /** The deployment's protocol signer: the `protocol` every listed discount names. */
  get protocol(): Address {
    return this.options.protocolSigner.address.toLowerCase() as Address;
  }

  /** Every stored discount that is live at the latest block (and passes the filter). */
  async list(filter: DiscountFilter = {}): Promise<ListedDiscount[]> {
    const ids = filter.discountIds && new Set(filter.discountIds.map((id) => id.toLowerCase()));
    const adapters = filter.adapters && new Set(filter.adapters.map((a) => a.toLowerCase()));
    const tokens = filter.tokensToRedeem && new Set(filter.tokensToRedeem.map((t) => t.toLowerCase()));
    const stored = (await this.options.repository.listAll()).filter(
      (entry) =>
        (!ids || ids.has(entry.discountId)) &&
        (!adapters || adapters.has(entry.adapter)) &&
        (!tokens || tokens.has(entry.discount.tokenToRedeem)),
    );
    const live: ListedDiscount[] = [];
    for (const token of this.options.deployment.inputTokens) {
      const group = stored.filter((discount) => discount.discount.tokenToRedeem === token.address);
      if (group.length === 0) continue;
      const snapshot = await this.options.inventory.snapshot(token);
      const states = new Map(snapshot.adapters.map((state) => [state.adapter, state]));
      for (const { discount, faults } of await this.options.live.assess(snapshot, group)) {
        const state = states.get(discount.adapter);
        if (faults?.length === 0 && state) live.push({ discount, state });
      }
    }
    return live;
  }

  /** One discount by id, or the live one of an (adapter, tokenToRedeem) pair: signatures to fill it. */
  async resolve(selector: Selector): Promise<ResolvedDiscount> {
    const stored =
      typeof selector === "string"
        ? await this.options.repository.findById(selector.toLowerCase() as Hex)
        : await this.options.repository.findForPair(
            selector.adapter.toLowerCase() as Address,
            selector.tokenToRedeem.toLowerCase() as Address,
          );
    const notLive = (reason: string) =>
      new DiscountNotLiveError(
        typeof selector === "string" ? (selector.toLowerCase() as Hex) : selector,
        reason,
      );
    if (!stored) throw notLive("unknown");
    const token = this.options.deployment.inputTokens.find(
      (configured) => configured.address === stored.discount.tokenToRedeem,
    );
    if (!token) throw notLive("unsupported_token");
    const snapshot = await this.options.inventory.snapshot(token);
    const [assessment] = await this.options.live.assess(snapshot, [stored]);
    if (!assessment?.faults) throw notLive("unreadable");
    const [fault] = assessment.faults;
    if (fault) throw notLive(fault);

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
      discount: { adapter: stored.adapter, ...discountTermsJson(stored.discount) },
      signerSignature: stored.signature,
      protocolDeadline,
      protocolSignature,
    };
  }

  /** Several, in the order asked; any one not live refuses the whole batch (404 naming it). */
  async resolveAll(selectors: readonly Selector[]): Promise<ResolvedDiscount[]> {
    const resolved: ResolvedDiscount[] = [];
    for (const selector of selectors) resolved.push(await this.resolve(selector));
    return resolved;
  }
}
