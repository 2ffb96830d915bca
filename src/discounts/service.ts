// POST /discount: publish a signed discount as the live one of its (adapter, tokenToRedeem), or, with deadline 0,
// cancel whatever that pair has (DESIGN.md §5). Checks, in order: a configured adapter and input token, the
// signer's signature, then (cancel) the signer's authorization, or (publish) protocol, bounds and the chain state
// at the latest block; the store last. Nothing is written unless every check passed.
import type { Address, Hex } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import { type AdapterRef, type Discount, discountId } from "../chain/order.ts";
import type { Clock } from "../clock.ts";
import type { Deployment, InputTokenConfig } from "../deployment/schema.ts";
import type { DiscountChainReads } from "./chain-reads.ts";
import { DiscountRejectedError, InvalidDiscountSignatureError, UnauthorizedSignerError } from "./errors.ts";
import { type DiscountFault, discountFaults } from "./liveness.ts";
import type { DiscountRepository } from "./repository.ts";
import type { DiscountRequest } from "./schemas.ts";
import { checkDiscountSignature } from "./signature.ts";

export interface DiscountServiceOptions {
  deployment: Pick<Deployment, "chainId" | "adapters" | "inputTokens" | "protocolSigner">;
  client: Pick<ChainPublicClient, "getCode" | "call">;
  reads: Pick<DiscountChainReads, "publishFacts">;
  repository: Pick<DiscountRepository, "publish" | "cancel">;
  clock: Clock;
}

export class DiscountService {
  constructor(private readonly options: DiscountServiceOptions) {}

  async submit(request: DiscountRequest): Promise<{ discountId: Hex }> {
    const { deployment } = this.options;
    const terms = request.discount;
    const adapter = terms.adapter;
    if (!deployment.adapters.some((configured) => configured.address === adapter)) {
      throw new DiscountRejectedError("unknown_adapter", `${adapter} is not an adapter of this deployment`);
    }
    const token = deployment.inputTokens.find((configured) => configured.address === terms.tokenToRedeem);
    if (!token) {
      throw new DiscountRejectedError(
        "unsupported_token",
        `${terms.tokenToRedeem} is not an input token of this deployment`,
      );
    }
    const discount: Discount = {
      tokenToRedeem: terms.tokenToRedeem,
      discount: BigInt(terms.discount),
      signer: terms.signer,
      protocol: terms.protocol,
      nonce: BigInt(terms.nonce),
      deadline: terms.deadline,
    };
    const ref: AdapterRef = { chainId: deployment.chainId, adapter };
    // What the adapter will be given: a signer's canonical form of an EOA signature, a contract's bytes unchanged.
    const check = await checkDiscountSignature(this.options.client, ref, discount, request.signature as Hex);
    if (!check.valid) throw new InvalidDiscountSignatureError(discount.signer, check.fault);
    const id = discountId(ref, discount);
    return discount.deadline === 0
      ? this.#cancel(adapter, token, discount, id)
      : this.#publish(adapter, token, discount, check.signature, id);
  }

  /** Any validly signed cancel of an authorized signer deletes the pair's discount; each cancel works once. */
  async #cancel(adapter: Address, token: InputTokenConfig, discount: Discount, cancelId: Hex) {
    const facts = await this.options.reads.publishFacts({
      adapter,
      tokenIn: token,
      signer: discount.signer,
      nonce: discount.nonce,
    });
    if (!facts.signerAuthorized) throw new UnauthorizedSignerError(discount.signer, adapter);
    const outcome = await this.options.repository.cancel({
      cancelId,
      adapter,
      tokenToRedeem: discount.tokenToRedeem,
      signer: discount.signer,
      at: this.options.clock.now(),
    });
    if (outcome.kind === "replayed") {
      throw new DiscountRejectedError("replayed_cancel", "This cancel has already been used");
    }
    return { discountId: outcome.discountId ?? cancelId };
  }

  async #publish(adapter: Address, token: InputTokenConfig, discount: Discount, signature: Hex, id: Hex) {
    const { protocolSigner } = this.options.deployment;
    const facts = await this.options.reads.publishFacts({
      adapter,
      tokenIn: token,
      signer: discount.signer,
      nonce: discount.nonce,
    });
    const [fault] = discountFaults(discount, facts, protocolSigner);
    if (fault === "unauthorized_signer") throw new UnauthorizedSignerError(discount.signer, adapter);
    if (fault) throw new DiscountRejectedError(fault, faultMessage(fault, discount, facts.minDiscountPpm));

    const outcome = await this.options.repository.publish({
      adapter,
      discountId: id,
      discount,
      signature,
      publishedAt: this.options.clock.now(),
    });
    if (outcome === "cancelled") {
      throw new DiscountRejectedError(
        "cancelled",
        "This discount was cancelled and cannot be published again",
      );
    }
    return { discountId: id };
  }
}

function faultMessage(
  fault: Exclude<DiscountFault, "unauthorized_signer">,
  discount: Discount,
  minDiscountPpm: bigint,
): string {
  switch (fault) {
    case "wrong_protocol":
      return `protocol ${discount.protocol} is not this deployment's protocol signer`;
    case "above_max_discount":
      return `discount ${discount.discount} ppm is above 1000000`;
    case "unsupported_token":
      return `the adapter does not redeem ${discount.tokenToRedeem}`;
    case "below_min_discount":
      return `discount ${discount.discount} ppm is below the adapter's minDiscount ${minDiscountPpm} ppm`;
    case "expired":
      return `deadline ${discount.deadline} is not after the latest block's timestamp`;
    case "nonce_used":
      return `nonce ${discount.nonce} is already used or invalidated on the adapter`;
  }
}
