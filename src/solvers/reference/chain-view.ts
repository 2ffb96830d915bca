// The reference solver's own view of its adapters: one multicall of their state per read (src/chain/adapter-reader)
// turned into the direct legs its Executor may fill through, plus token decimals (read once, they never change).
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  isAddressEqual,
} from "viem";
import { erc20Abi } from "../../chain/abis.ts";
import { AdapterReader, type AdapterState } from "../../chain/adapter-reader.ts";
import type { ChainPublicClient } from "../../chain/client.ts";
import type { PricedLeg, TokenDecimals } from "./pricing.ts";

export interface DirectLegsQuery {
  tokenIn: Address;
  tokenOut: Address;
  decimals: TokenDecimals;
  /** A subset of the solver's adapters (default: all of them). */
  adapters?: readonly Address[];
  /** Read at this block (default: latest). */
  blockNumber?: bigint;
}

export class SolverChainView {
  readonly #client: ChainPublicClient;
  readonly #reader: AdapterReader;
  readonly #executor: Address;
  readonly #adapters: readonly Address[];
  readonly #decimals = new Map<Address, number>();

  constructor(
    client: ChainPublicClient,
    options: { executor: Address; adapters: readonly Address[]; multicall3?: Address },
  ) {
    this.#client = client;
    this.#reader = new AdapterReader(
      client,
      options.multicall3 ? { multicallAddress: options.multicall3 } : {},
    );
    this.#executor = getAddress(options.executor);
    this.#adapters = options.adapters.map((adapter) => getAddress(adapter));
  }

  get adapters(): readonly Address[] {
    return this.#adapters;
  }

  /** Whether `adapter` is one of the solver's own adapters. */
  isOwnAdapter(adapter: Address): boolean {
    return this.#adapters.some((own) => isAddressEqual(own, adapter));
  }

  /** `decimals()` of a token, or null when the address answers no `decimals()` (not a token). */
  async tokenDecimals(token: Address): Promise<number | null> {
    const key = getAddress(token);
    const cached = this.#decimals.get(key);
    if (cached !== undefined) return cached;
    try {
      const decimals = await this.#client.readContract({
        address: key,
        abi: erc20Abi,
        functionName: "decimals",
      });
      this.#decimals.set(key, decimals);
      return decimals;
    } catch (error) {
      // A revert or empty return data is an answer (not a token); a transport failure is not, and propagates.
      const notAToken =
        error instanceof BaseError &&
        error.walk(
          (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
        );
      if (notAToken) return null;
      throw error;
    }
  }

  /** Both tokens' decimals, or null when either is not a token. */
  async pairDecimals(tokenIn: Address, tokenOut: Address): Promise<TokenDecimals | null> {
    const [inDecimals, outDecimals] = await Promise.all([
      this.tokenDecimals(tokenIn),
      this.tokenDecimals(tokenOut),
    ]);
    if (inDecimals === null || outDecimals === null) return null;
    return { tokenIn: inDecimals, tokenOut: outDecimals };
  }

  /**
   * The direct legs for tokenIn → tokenOut (DESIGN §4): adapters whose asset is tokenOut, that accept tokenIn, are
   * not paused, have capacity, and on which the solver's Executor is authorized; rate `getMaxRate`, capacity
   * `getMaxAssets`.
   */
  async directLegs(query: DirectLegsQuery): Promise<PricedLeg[]> {
    const adapters = (query.adapters ?? this.#adapters).filter((adapter) => this.isOwnAdapter(adapter));
    if (adapters.length === 0) return [];
    const snapshot = await this.#reader.read({
      adapters,
      tokenIn: { address: query.tokenIn, decimals: query.decimals.tokenIn },
      fillers: [this.#executor],
      ...(query.blockNumber !== undefined ? { blockNumber: query.blockNumber } : {}),
    });
    return snapshot.adapters
      .filter((state) => this.#isDirectLeg(state, query.tokenOut))
      .map((state) => ({ adapter: state.adapter, rate: state.maxRate!, capacity: state.maxAssets! }));
  }

  #isDirectLeg(state: AdapterState, tokenOut: Address): boolean {
    return (
      state.ok &&
      state.asset !== null &&
      isAddressEqual(state.asset, tokenOut) &&
      state.acceptsTokenIn &&
      state.paused === false &&
      state.maxAssets !== null &&
      state.maxAssets > 0n &&
      state.maxRate !== null &&
      state.maxRate > 0n &&
      state.fillers.some((filler) => filler.authorized)
    );
  }
}
