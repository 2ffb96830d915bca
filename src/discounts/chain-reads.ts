// The chain reads discounts need beyond the per-block adapter snapshot: each discount's nonce (`isUsedNonce`) and
// its signer's `isFiller(marketMaker, signer)`, for many discounts at one block in one `eth_call`; and, for a
// discount being published, everything it is judged on, read fresh at the latest block.

import type { Address, ContractFunctionParameters } from "viem";
import { liquidLaneAdapterViewAbi } from "../chain/abis.ts";
import { AdapterReader } from "../chain/adapter-reader.ts";
import type { BlockHead } from "../chain/blocks.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { answeredResults } from "../chain/unavailable.ts";
import type { DiscountChainFacts } from "./liveness.ts";

export interface DiscountReadItem {
  adapter: Address;
  tokenToRedeem: Address;
  nonce: bigint;
  signer: Address;
  /** The adapter's market maker at the same block. */
  marketMaker: Address;
}

type CallResult = { status: "success"; result: unknown } | { status: "failure"; error: Error };

export interface NonceAndFiller {
  nonceUsed: boolean;
  signerIsFiller: boolean;
}

export class AdapterReadError extends Error {
  override name = "AdapterReadError";
  constructor(adapter: Address, failedReads: readonly string[]) {
    super(`reading adapter ${adapter} failed: ${failedReads.join(", ") || "unknown"}`);
  }
}

export class DiscountChainReads {
  readonly #client: ChainPublicClient;
  readonly #multicallAddress: Address | undefined;
  readonly #adapterReader: AdapterReader;

  readonly #onLatestBlock: ((head: BlockHead) => void) | undefined;

  constructor(
    client: ChainPublicClient,
    options: {
      multicallAddress?: Address;
      /** Told of each latest block a publish was judged at (the block tracker adopts it if newer). */
      onLatestBlock?: (head: BlockHead) => void;
    } = {},
  ) {
    this.#client = client;
    this.#onLatestBlock = options.onLatestBlock;
    this.#multicallAddress = options.multicallAddress ?? client.chain?.contracts?.multicall3?.address;
    this.#adapterReader = new AdapterReader(
      client,
      this.#multicallAddress ? { multicallAddress: this.#multicallAddress } : {},
    );
  }

  /** One entry per item, in order; null where a read failed (the caller decides what an unknown means). */
  async nonceAndFiller(
    items: readonly DiscountReadItem[],
    blockNumber: bigint,
  ): Promise<Array<NonceAndFiller | null>> {
    if (items.length === 0) return [];
    const abi = liquidLaneAdapterViewAbi;
    const contracts = items.flatMap((item) => [
      { address: item.adapter, abi, functionName: "isUsedNonce", args: [item.tokenToRedeem, item.nonce] },
      { address: item.adapter, abi, functionName: "isFiller", args: [item.marketMaker, item.signer] },
    ]);
    const results: CallResult[] = answeredResults(
      await this.#client.multicall({
        contracts: contracts as ContractFunctionParameters[],
        allowFailure: true,
        batchSize: 0,
        blockNumber,
        ...(this.#multicallAddress ? { multicallAddress: this.#multicallAddress } : { deployless: true }),
      }),
    );
    return items.map((_, index) => {
      const nonce = results[2 * index];
      const filler = results[2 * index + 1];
      if (nonce?.status !== "success" || filler?.status !== "success") return null;
      return { nonceUsed: nonce.result as boolean, signerIsFiller: filler.result as boolean };
    });
  }

  /**
   * Everything a discount being published is judged on, at the latest block. Read fresh rather than from the
   * per-block snapshot: a publisher who just invalidated a nonce or changed a filler expects that to count.
   */
  async publishFacts(params: {
    adapter: Address;
    tokenIn: { address: Address; decimals: number };
    signer: Address;
    nonce: bigint;
  }): Promise<DiscountChainFacts> {
    const head = await this.#client.getBlock({ blockTag: "latest" });
    // Quotes and /liquidity after this publish must not read an older block than the one it was judged at.
    this.#onLatestBlock?.({ number: head.number, hash: head.hash, timestamp: head.timestamp });
    const [read, nonceUsed] = await Promise.all([
      this.#adapterReader.read({
        adapters: [params.adapter],
        tokenIn: params.tokenIn,
        fillers: [params.signer],
        blockNumber: head.number,
      }),
      this.#client.readContract({
        address: params.adapter,
        abi: liquidLaneAdapterViewAbi,
        functionName: "isUsedNonce",
        args: [params.tokenIn.address, params.nonce],
        blockNumber: head.number,
      }),
    ]);
    const state = read.adapters[0];
    if (!state?.ok || state.minDiscount === null) {
      throw new AdapterReadError(params.adapter, state?.failedReads ?? []);
    }
    return {
      blockTimestamp: head.timestamp,
      acceptsTokenIn: state.acceptsTokenIn,
      minDiscountPpm: state.minDiscount,
      signerAuthorized: state.fillers[0]?.authorized ?? false,
      nonceUsed,
    };
  }
}
