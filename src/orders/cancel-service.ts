// POST /cancel: the transaction that cancels an order on-chain. The Reactor has no cancel of its own; the swapper
// invalidates the order's nonce (Reactor.invalidateNonce, msg.sender's nonce), after which no Fill of it can pass,
// and the indexer turns the InvalidateNonce event into `cancelled`. Sluice signs nothing and sends nothing: only
// the swapper's own transaction cancels, so the answer is public.
import { type Address, encodeFunctionData, type Hex } from "viem";
import { reactorAbi } from "../chain/abis.ts";
import type { BlockSource } from "../chain/blocks.ts";
import type { Deployment } from "../deployment/schema.ts";
import { OrderNotFoundError, OrderNotOpenError } from "./errors.ts";
import type { OrderRepository } from "./repository.ts";

/** The statuses a Fill could still settle, which an invalidated nonce therefore cancels. */
const CANCELLABLE = new Set(["open", "insufficient-funds"]);

export interface CancelTransaction {
  orderId: string;
  /** Who must send it: the nonce belongs to the swapper, and the Reactor invalidates msg.sender's nonces. */
  swapper: Address;
  transaction: { to: Address; data: Hex; value: "0" };
}

export class CancelService {
  constructor(
    private readonly deployment: Pick<Deployment, "reactor">,
    private readonly orders: Pick<OrderRepository, "findCancelFacts">,
    /** The chain head (block time): the deadline is judged as the Reactor and the indexer judge it. */
    private readonly blocks: BlockSource,
  ) {}

  async cancel(orderId: string): Promise<CancelTransaction> {
    const order = await this.orders.findCancelFacts(orderId);
    if (!order) throw new OrderNotFoundError(orderId);
    if (!CANCELLABLE.has(order.status)) {
      throw new OrderNotOpenError(orderId, { reason: "status", orderStatus: order.status });
    }
    // The Reactor refuses a fill once block.timestamp > deadline, and the indexer expires the order then.
    const chainTime = (await this.blocks.latest()).timestamp;
    if (BigInt(order.deadline) < chainTime) {
      throw new OrderNotOpenError(orderId, {
        reason: "deadline_passed",
        deadline: order.deadline,
        chainTime: Number(chainTime),
      });
    }
    return {
      orderId,
      swapper: order.swapper as Address,
      transaction: {
        to: this.deployment.reactor,
        data: encodeFunctionData({
          abi: reactorAbi,
          functionName: "invalidateNonce",
          args: [BigInt(order.nonce)],
        }),
        value: "0",
      },
    };
  }
}
