// What the swappers of open orders did inside one block, beyond what the block-end reads (funding-reader.ts) show. A
// fill lands somewhere inside a block, and a swapper can take away for that moment what the fill needs and put it
// back before the block ends. Every way an account without code has to do that leaves a trace in the block: a
// Transfer of tokenIn out of it (its balance), an Approval it gave the Reactor (its allowance; the Reactor's own
// spending shows as a Transfer out), an EIP-7702 authorization it signed (code, so its signature is asked of a
// contract). An account with code answers for its signature however it likes, at any moment. These reads collect the
// traces; fillability.ts judges them.

import type { Address } from "viem";
import { recoverAuthorizationAddress } from "viem/utils";
import { erc20Abi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { answeredResults } from "../chain/unavailable.ts";
import type { FollowedBlock } from "./block-follower.ts";

export interface SwapperActivity {
  /** tokenIn received by each swapper in the block, by `activityKey(token, swapper)`. */
  inflows: Map<string, bigint>;
  /** tokenIn sent by each swapper in the block (the Reactor's fills of its other orders included). */
  outflows: Map<string, bigint>;
  /** The lowest allowance each swapper set for the Reactor in the block (Approval events). */
  lowestApproval: Map<string, bigint>;
  /** The allowance at the end of the previous block, read only where the swapper set one in this block. */
  allowanceBefore: Map<string, bigint>;
  /** Swappers with code at the end of the block (a contract, or an account delegated with EIP-7702). */
  withCode: Set<string>;
  /** Swappers that signed an EIP-7702 authorization included in the block. */
  authorized: Set<string>;
}

/** The key of a (token, swapper) pair in SwapperActivity's maps. */
export function activityKey(token: string, swapper: string): string {
  return `${token.toLowerCase()} ${swapper.toLowerCase()}`;
}

export function noActivity(): SwapperActivity {
  return {
    inflows: new Map(),
    outflows: new Map(),
    lowestApproval: new Map(),
    allowanceBefore: new Map(),
    withCode: new Set(),
    authorized: new Set(),
  };
}

export class SwapperActivityReader {
  constructor(
    private readonly client: ChainPublicClient,
    private readonly reactor: Address,
    private readonly multicallAddress?: Address,
  ) {}

  /** The block's traces of the given orders' swappers; RPC failures throw (the block is read again). */
  async read(
    block: FollowedBlock,
    orders: ReadonlyArray<{ swapper: string; tokenIn: string }>,
  ): Promise<SwapperActivity> {
    const activity = noActivity();
    if (orders.length === 0) return activity;
    const swappers = new Set(orders.map((order) => order.swapper.toLowerCase()));
    const tokens = [...new Set(orders.map((order) => order.tokenIn.toLowerCase()))] as Address[];
    const [logs, transactions] = await Promise.all([
      this.client.getLogs({
        address: tokens,
        events: erc20Abi.filter((item) => item.type === "event"),
        blockHash: block.hash,
        strict: true,
      }),
      this.client.getBlock({ blockHash: block.hash, includeTransactions: true }).then((b) => b.transactions),
      this.#readCode(swappers, block.number, activity),
    ]);

    const reactor = this.reactor.toLowerCase();
    const add = (map: Map<string, bigint>, key: string, value: bigint) =>
      map.set(key, (map.get(key) ?? 0n) + value);
    for (const log of logs) {
      const token = log.address.toLowerCase();
      if (log.eventName === "Transfer") {
        const from = log.args.from.toLowerCase();
        const to = log.args.to.toLowerCase();
        if (from === to) continue;
        if (swappers.has(from)) add(activity.outflows, activityKey(token, from), log.args.value);
        if (swappers.has(to)) add(activity.inflows, activityKey(token, to), log.args.value);
      } else if (log.eventName === "Approval") {
        const owner = log.args.owner.toLowerCase();
        if (!swappers.has(owner) || log.args.spender.toLowerCase() !== reactor) continue;
        const key = activityKey(token, owner);
        const lowest = activity.lowestApproval.get(key);
        if (lowest === undefined || log.args.value < lowest) activity.lowestApproval.set(key, log.args.value);
      }
    }

    for (const transaction of transactions) {
      if (transaction.type !== "eip7702") continue;
      for (const authorization of transaction.authorizationList ?? []) {
        // An authorization that does not recover is invalid, and the chain skipped it.
        const authority = await recoverAuthorizationAddress({ authorization }).catch(() => undefined);
        if (authority && swappers.has(authority.toLowerCase()))
          activity.authorized.add(authority.toLowerCase());
      }
    }

    await this.#readAllowancesBefore(block.number, activity);
    return activity;
  }

  async #readCode(swappers: ReadonlySet<string>, blockNumber: bigint, activity: SwapperActivity) {
    await Promise.all(
      [...swappers].map(async (swapper) => {
        const code = await this.client.getCode({ address: swapper as Address, blockNumber });
        if (code && code !== "0x") activity.withCode.add(swapper);
      }),
    );
  }

  /**
   * Before the first Approval of the block, the allowance was the previous block's (less any spending). A read that
   * fails counts as none: the swapper's allowance is not known to have covered anything.
   */
  async #readAllowancesBefore(blockNumber: bigint, activity: SwapperActivity) {
    const keys = [...activity.lowestApproval.keys()];
    if (keys.length === 0) return;
    const results = answeredResults(
      await this.client.multicall({
        contracts: keys.map((key) => {
          const [token, swapper] = key.split(" ") as [Address, Address];
          return {
            address: token,
            abi: erc20Abi,
            functionName: "allowance",
            args: [swapper, this.reactor],
          } as const;
        }),
        allowFailure: true,
        blockNumber: blockNumber - 1n,
        batchSize: 0,
        ...(this.multicallAddress ? { multicallAddress: this.multicallAddress } : { deployless: true }),
      }),
    );
    keys.forEach((key, index) => {
      const result = results[index];
      activity.allowanceBefore.set(key, result?.status === "success" ? result.result : 0n);
    });
  }
}
