// Adapter state per block: one multicall per (block, input token), cached for that block and shared by every
// quote, order and liquidity request that asks during it.
import type { Address } from "viem";
import type { AdapterReader, AdapterState as ChainAdapterState } from "../chain/adapter-reader.ts";
import type { BlockSource } from "../chain/blocks.ts";
import type { Deployment, InputTokenConfig } from "../deployment/schema.ts";
import type { AdapterState, InventorySnapshot } from "./adapter-state.ts";

export interface InventoryReader {
  snapshot(tokenIn: InputTokenConfig): Promise<InventorySnapshot>;
}

export interface InventorySourceOptions {
  reader: Pick<AdapterReader, "read">;
  blocks: BlockSource;
  deployment: Pick<Deployment, "adapters" | "outputTokens">;
  /**
   * Addresses whose authorization on each adapter matters (solver fillers). A new array means a new set (a solver
   * added or removed while running): the block's cached reads, made for the old set, are read again.
   */
  authorizationCandidates: () => readonly Address[];
}

export class InventorySource implements InventoryReader {
  readonly #cache = new Map<string, Promise<InventorySnapshot>>();
  #cachedBlock: string | undefined;
  #cachedCandidates: readonly Address[] | undefined;
  readonly #decimalsByToken: Map<string, number>;

  constructor(private readonly options: InventorySourceOptions) {
    this.#decimalsByToken = new Map(
      options.deployment.outputTokens.map((token) => [token.address, token.decimals]),
    );
  }

  async snapshot(tokenIn: InputTokenConfig): Promise<InventorySnapshot> {
    const head = await this.options.blocks.latest();
    const candidates = this.options.authorizationCandidates();
    // Keyed by hash: a reorg can bring another block at the same height. Only the newest block's reads are kept.
    if (head.hash !== this.#cachedBlock || candidates !== this.#cachedCandidates) {
      this.#cache.clear();
      this.#cachedBlock = head.hash;
      this.#cachedCandidates = candidates;
    }
    const key = tokenIn.address;
    let pending = this.#cache.get(key);
    if (!pending) {
      pending = this.#read(tokenIn, head.number, head.timestamp, candidates);
      this.#cache.set(key, pending);
      pending.catch(() => this.#cache.delete(key));
    }
    return pending;
  }

  async #read(
    tokenIn: InputTokenConfig,
    blockNumber: bigint,
    blockTimestamp: bigint,
    fillers: readonly Address[],
  ): Promise<InventorySnapshot> {
    const read = await this.options.reader.read({
      adapters: this.options.deployment.adapters.map((adapter) => adapter.address),
      tokenIn: { address: tokenIn.address, decimals: tokenIn.decimals },
      fillers,
      blockNumber,
    });
    const adapters = read.adapters
      .map((state) => this.#toInventoryState(state))
      .filter((state) => state !== null);
    return {
      blockNumber,
      blockTimestamp,
      tokenIn: tokenIn.address,
      tokenInDecimals: tokenIn.decimals,
      adapters,
    };
  }

  /** An adapter whose reads failed, or whose asset is no configured output token, is simply not offered. */
  #toInventoryState(state: ChainAdapterState): AdapterState | null {
    if (!state.ok || !state.asset || !state.owner || !state.marketMaker) return null;
    const asset = state.asset.toLowerCase() as Address;
    const assetDecimals = this.#decimalsByToken.get(asset);
    if (assetDecimals === undefined) return null;
    return {
      adapter: state.adapter.toLowerCase() as Address,
      asset,
      assetDecimals,
      acceptsTokenIn: state.acceptsTokenIn,
      paused: state.paused ?? true,
      maxAssets: state.maxAssets ?? 0n,
      maxRate: state.maxRate ?? 0n,
      oracleAmountOutPerUnit: state.amountOutPerUnit ?? 0n,
      minDiscountPpm: state.minDiscount ?? 0n,
      owner: state.owner.toLowerCase() as Address,
      marketMaker: state.marketMaker.toLowerCase() as Address,
      fillers: new Set(state.fillers.filter((f) => f.isFiller).map((f) => f.filler.toLowerCase() as Address)),
    };
  }
}
