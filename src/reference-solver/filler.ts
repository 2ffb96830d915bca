// Fills the solver's won orders: polls Sluice for its open orders, and for each one with execution fields checks
// it against the chain (deadline in chain time, the swapper's nonce), re-plans the legs from a fresh read of its
// adapters and sends `Executor.fill(order, protocolSignature, swapInputs, "0x")` through the sequential sender.
// Orders are handled one at a time, oldest first.
//
// An internal solver also plans over the live discount legs (a fresh list from the internal discount API). When the
// plan uses one, the discount is resolved right before sending — its protocol co-signature lives 90 seconds — and
// the fill goes out as `Executor.fill(order, protocolSignature, swapInputs, discountSwapInputs, "0x")`. A discount
// that cannot be resolved any more is left out and the order planned again without it.
//
// Each poll first lets the sender check that the chain still holds its fills: after a reorg or a devnet restart
// dropped some, its nonce follows the chain again and every open order is judged again, so an order whose fill was
// dropped (open again, its nonce unused) is filled again.
import { setTimeout as sleep } from "node:timers/promises";
import { type Address, encodeFunctionData, type Hex, isAddressEqual } from "viem";
import { executorAbi, reactorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import {
  type DiscountSwapInput,
  decodeOrder,
  hashOrder,
  type Order,
  type SwapInput,
} from "../chain/order.ts";
import type { Logger } from "../logger.ts";
import type { SolverChainView } from "./chain-view.ts";
import type { InternalDiscountsClient, ListedDiscount } from "./discounts-client.ts";
import { allocateForFill } from "./fill-plan.ts";
import type { OpenOrder, OrdersClient } from "./orders-client.ts";
import type { LegAllocation } from "./pricing.ts";
import { BroadcastFailedError, type SequentialSender } from "./sender.ts";

/** Why an order is left alone for good (until it leaves the open list). */
export type SkipReason =
  | "undecodable"
  | "hash_mismatch"
  | "other_filler"
  | "mixed_output_tokens"
  | "unknown_token"
  | "expired"
  | "nonce_used";

/** A discount leg of a plan: resolved into a `DiscountSwapInput` just before the fill is sent. */
export interface PlannedDiscountLeg {
  adapter: Address;
  discountId: Hex;
  amountIn: bigint;
  /** Exactly what the adapter's discount swap pays for `amountIn`. */
  amountOut: bigint;
}

export type FillPlan =
  | {
      kind: "ready";
      swapInputs: SwapInput[];
      discountLegs: PlannedDiscountLeg[];
      /** The legs' outputs: at least the committed outputs. */
      amountOut: bigint;
    }
  /**
   * The adapters cannot take the whole input (`capacity`), or their output does not cover the committed outputs
   * (`outputs`): tried again at the next poll.
   */
  | { kind: "short"; reason: "capacity" | "outputs"; available: bigint; needed: bigint };

export interface OrderFillerOptions {
  executor: Address;
  reactor: Address;
  pollIntervalMs: number;
  /**
   * Cuts the wait between polls short when an order is pushed (the order stream), and the wait to use now: the
   * poll interval while the stream is down, a longer safety poll while it is up. Without it, plain polling.
   */
  wakeup?: { wait(ms: number, signal: AbortSignal): Promise<void>; intervalMs(): number };
  client: ChainPublicClient;
  chain: SolverChainView;
  sender: SequentialSender;
  orders: OrdersClient;
  /** Only for an internal solver: discount legs are planned and resolved through it. */
  discounts?: InternalDiscountsClient;
  logger: Logger;
}

export class OrderFiller {
  readonly #options: OrderFillerOptions;
  readonly #logger: Logger;
  /** Orders skipped for good, by order hash. */
  readonly #skipped = new Map<string, SkipReason>();
  /** The last passing condition logged per order (logged again only when it changes). */
  readonly #waiting = new Map<string, string>();
  /** The sender's resync count when the open orders were last judged from scratch. */
  #resyncsSeen = 0;

  constructor(options: OrderFillerOptions) {
    this.#options = options;
    this.#logger = options.logger;
  }

  /** Waits for the sender to be idle (restart recovery), then polls until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.#options.sender.waitUntilIdle(signal);
      while (!signal.aborted) {
        try {
          await this.pollOnce(signal);
        } catch (error) {
          if (signal.aborted) break;
          this.#logger.warn({ err: error }, "order poll failed; retrying");
        }
        const { wakeup } = this.#options;
        if (wakeup) await wakeup.wait(wakeup.intervalMs(), signal);
        else await sleep(this.#options.pollIntervalMs, undefined, { signal });
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }

  async pollOnce(signal: AbortSignal): Promise<void> {
    await this.#replanAfterChainLoss(signal);
    const orders = await this.#options.orders.openOrders(signal);
    this.#logger.debug({ open: orders.length }, "open orders polled");
    const open = new Set(orders.map((order) => order.orderHash.toLowerCase()));
    for (const map of [this.#skipped, this.#waiting]) {
      for (const hash of map.keys()) if (!open.has(hash)) map.delete(hash);
    }
    for (const order of orders) {
      signal.throwIfAborted();
      await this.#consider(order, signal);
    }
  }

  async #consider(record: OpenOrder, signal: AbortSignal): Promise<void> {
    const orderHash = record.orderHash.toLowerCase() as Hex;
    const { sender, executor } = this.#options;
    if (this.#skipped.has(orderHash) || sender.hasSent(orderHash)) return;
    // Without execution fields the order is not (or no longer) this solver's to fill.
    if (!record.encodedOrder || !record.protocolSignature) return;

    let order: Order;
    try {
      order = decodeOrder(record.encodedOrder as Hex);
    } catch {
      return this.#skip(orderHash, "undecodable");
    }
    if (hashOrder(order).toLowerCase() !== orderHash) return this.#skip(orderHash, "hash_mismatch");
    if (!isAddressEqual(order.filler, executor))
      return this.#skip(orderHash, "other_filler", { filler: order.filler });
    const tokenOut = order.outputs[0]?.token;
    if (!tokenOut || order.outputs.some((output) => !isAddressEqual(output.token, tokenOut))) {
      return this.#skip(orderHash, "mixed_output_tokens");
    }

    const block = await this.#options.client.getBlock({ blockTag: "latest" });
    if (block.timestamp > order.request.deadline) {
      return this.#skip(orderHash, "expired", {
        chainTime: block.timestamp.toString(),
        deadline: order.request.deadline.toString(),
      });
    }
    const used = await this.#options.client.readContract({
      address: this.#options.reactor,
      abi: reactorAbi,
      functionName: "isUsedNonce",
      args: [order.swapper, order.request.nonce],
      blockNumber: block.number,
    });
    if (used) return this.#skip(orderHash, "nonce_used", { nonce: order.request.nonce.toString() });

    // Each round leaves out at least one more discount, so this ends.
    const excluded = new Set<Hex>();
    let plan: FillPlan | null;
    let discountSwapInputs: DiscountSwapInput[] | null;
    do {
      plan = await this.plan(order, block.number, excluded);
      if (plan === null) return this.#skip(orderHash, "unknown_token");
      if (plan.kind === "short") {
        return this.#wait(orderHash, `insufficient_liquidity:${plan.reason}`, {
          available: plan.available.toString(),
          needed: plan.needed.toString(),
        });
      }
      discountSwapInputs = await this.#resolveDiscountLegs(orderHash, plan.discountLegs, excluded, signal);
    } while (discountSwapInputs === null);

    const data =
      discountSwapInputs.length > 0
        ? encodeFunctionData({
            abi: executorAbi,
            functionName: "fill",
            args: [order, record.protocolSignature as Hex, plan.swapInputs, discountSwapInputs, "0x"],
          })
        : encodeFunctionData({
            abi: executorAbi,
            functionName: "fill",
            args: [order, record.protocolSignature as Hex, plan.swapInputs, "0x"],
          });
    const legs = [
      ...plan.swapInputs.map((input) => ({
        adapter: input.adapter,
        amountIn: input.swap.amountIn.toString(),
        amountOut: input.swap.amountOut.toString(),
      })),
      ...plan.discountLegs.map((leg) => ({
        adapter: leg.adapter,
        discountId: leg.discountId,
        amountIn: leg.amountIn.toString(),
        amountOut: leg.amountOut.toString(),
      })),
    ];
    try {
      const outcome = await sender.send({ key: orderHash, to: executor, data }, signal);
      switch (outcome.kind) {
        case "mined":
          this.#waiting.delete(orderHash);
          this.#logger.info(
            {
              orderHash,
              orderId: record.orderId,
              txHash: outcome.hash,
              blockNumber: outcome.blockNumber,
              legs,
            },
            "order filled",
          );
          return;
        case "reverted":
          this.#logger.error(
            { orderHash, orderId: record.orderId, txHash: outcome.hash, error: outcome.error ?? "unknown" },
            "fill reverted on-chain",
          );
          return;
        case "rejected":
          return this.#wait(orderHash, `would_revert:${outcome.error ?? "unknown"}`, {
            detail: outcome.detail,
          });
        case "dropped":
          this.#logger.warn(
            { orderHash, orderId: record.orderId, txHash: outcome.hash },
            "fill dropped before it was mined; planning it again at the next poll",
          );
          return;
        case "duplicate":
          return;
      }
    } catch (error) {
      if (error instanceof BroadcastFailedError) {
        this.#logger.warn({ orderHash, err: error }, "fill not broadcast; retrying at the next poll");
        return;
      }
      throw error;
    }
  }

  /**
   * Lets the sender check that the chain still holds its transactions. When it had to resynchronise (a reorg or a
   * node restart dropped some), the skips and waits were judged on blocks that are gone: every open order is judged
   * again, and the dropped fills' orders, open again, are planned again.
   */
  async #replanAfterChainLoss(signal: AbortSignal): Promise<void> {
    const { sender } = this.#options;
    await sender.resync(signal);
    if (sender.resyncs === this.#resyncsSeen) return;
    this.#resyncsSeen = sender.resyncs;
    this.#skipped.clear();
    this.#waiting.clear();
    this.#logger.warn("the chain lost transactions of this solver; planning every open order again");
  }

  /**
   * The legs of a fill, from the adapters' state at `blockNumber`: the input allocated greedily to the best legs —
   * direct ones, each `Swap{recipient: executor, tokenIn, amountIn, amountOut}`, and for an internal solver the live
   * discount legs not `excluded`, each with the exact output of its discount swap; ready when the legs cover the
   * committed outputs (all of one token). Null when a token has no `decimals()`.
   */
  async plan(
    order: Order,
    blockNumber: bigint,
    excluded: ReadonlySet<Hex> = new Set(),
  ): Promise<FillPlan | null> {
    const { chain } = this.#options;
    const tokenIn = order.request.tokenIn;
    const tokenOut = order.outputs[0]!.token;
    const decimals = await chain.pairDecimals(tokenIn, tokenOut);
    if (!decimals) return null;
    const discounts = (await this.#liveDiscounts()).filter((discount) => !excluded.has(discount.discountId));
    const legs = await chain.legs({ tokenIn, tokenOut, decimals, discounts, blockNumber });
    const needed = order.outputs.reduce((sum, output) => sum + output.amount, 0n);
    const allocation = await allocateForFill({
      amountIn: order.request.amountIn,
      legs,
      decimals,
      grossAmountOut: (adapter, amountIn) =>
        chain.grossAmountOut({ adapter, tokenIn, amountIn, blockNumber }),
    });
    if (allocation.kind === "insufficient") {
      return {
        kind: "short",
        reason: "capacity",
        available: allocation.placeable,
        needed: order.request.amountIn,
      };
    }
    if (allocation.amountOut < needed) {
      return { kind: "short", reason: "outputs", available: allocation.amountOut, needed };
    }
    const direct = allocation.legs.filter((leg) => !leg.discount);
    const discounted = allocation.legs.filter(
      (leg): leg is LegAllocation & Required<Pick<LegAllocation, "discount">> => leg.discount !== undefined,
    );
    return {
      kind: "ready",
      amountOut: allocation.amountOut,
      swapInputs: direct.map((leg) => ({
        adapter: leg.adapter,
        swap: {
          recipient: this.#options.executor,
          tokenIn,
          amountIn: leg.amountIn,
          amountOut: leg.amountOut,
        },
      })),
      discountLegs: discounted.map((leg) => ({
        adapter: leg.adapter,
        discountId: leg.discount.discountId,
        amountIn: leg.amountIn,
        amountOut: leg.amountOut,
      })),
    };
  }

  /** A fresh list for an internal solver; none for an external one, or when the API cannot be read (logged). */
  async #liveDiscounts(): Promise<ListedDiscount[]> {
    const { discounts } = this.#options;
    if (!discounts) return [];
    try {
      return await discounts.list({ fresh: true });
    } catch (error) {
      this.#logger.warn(
        { err: error },
        "planning without discount legs: the internal discount API cannot be read",
      );
      return [];
    }
  }

  /**
   * The plan's discount legs as `DiscountSwapInput`s, each resolved now (a fresh co-signature), paying the
   * Executor. Null when one could not be resolved: it joins `excluded` and the order is planned again.
   */
  async #resolveDiscountLegs(
    orderHash: Hex,
    legs: readonly PlannedDiscountLeg[],
    excluded: Set<Hex>,
    signal: AbortSignal,
  ): Promise<DiscountSwapInput[] | null> {
    if (legs.length === 0) return [];
    // Discount legs are only planned from the internal API's list, so an internal solver has its client.
    const discounts = this.#options.discounts!;
    const { executor } = this.#options;
    const inputs: DiscountSwapInput[] = [];
    for (const leg of legs) {
      try {
        const resolved = await discounts.resolve(leg.discountId, signal);
        inputs.push({
          adapter: resolved.adapter,
          discountSwap: resolved.discountSwap,
          protocolSignature: resolved.protocolSignature,
          recipient: executor,
          amountIn: leg.amountIn,
        });
      } catch (error) {
        signal.throwIfAborted();
        excluded.add(leg.discountId);
        this.#logger.warn(
          { orderHash, discountId: leg.discountId, err: error },
          "discount leg cannot be resolved; planning again without it",
        );
        return null;
      }
    }
    return inputs;
  }

  #skip(orderHash: Hex, reason: SkipReason, details: Record<string, unknown> = {}): void {
    this.#skipped.set(orderHash, reason);
    this.#waiting.delete(orderHash);
    this.#logger.info({ orderHash, reason, ...details }, "order skipped");
  }

  #wait(orderHash: Hex, reason: string, details: Record<string, unknown>): void {
    if (this.#waiting.get(orderHash) === reason) return;
    this.#waiting.set(orderHash, reason);
    this.#logger.warn(
      { orderHash, reason, ...details },
      "order not fillable now; trying again at the next poll",
    );
  }
}
