// The reference solver's own view of its adapters: one multicall of their state per read (src/chain/adapter-reader)
// turned into the direct legs its Executor may fill through and the discount legs it was told of, plus token
// decimals (read once, they never change) and a discount swap's gross output.
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  isAddressEqual,
} from "viem";
import { erc20Abi, liquidLaneAdapterViewAbi } from "../chain/abis.ts";
import { AdapterReader, type AdapterState } from "../chain/adapter-reader.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import type { ListedDiscount } from "./discounts-client.ts";
import { discountedRate, PPM, type PricedLeg, type TokenDecimals } from "./pricing.ts";

export interface LegsQuery {
  tokenIn: Address;
  tokenOut: Address;
  decimals: TokenDecimals;
  /** A subset of the solver's adapters for direct legs (default: all of them). */
  adapters?: readonly Address[];
  /** Live discounts to price as discount legs (an internal solver's; on any adapter). */
  discounts?: readonly ListedDiscount[];
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
   * The legs for tokenIn → tokenOut, in one multicall (DESIGN §4). Direct legs: the solver's adapters on which its
   * Executor is authorized; rate `getMaxRate`. Discount legs: one per given discount of tokenIn whose discount is at
   * least the adapter's `minDiscount`; rate = `getAmountOut(tokenIn, 10^inDec)` less the discount, as Sluice
   * prices it. Either kind needs an adapter whose asset is tokenOut, that accepts tokenIn, is not paused and has
   * capacity (`getMaxAssets`).
   */
  async legs(query: LegsQuery): Promise<PricedLeg[]> {
    const own = (query.adapters ?? this.#adapters).filter((adapter) => this.isOwnAdapter(adapter));
    const discounts = (query.discounts ?? []).filter((discount) =>
      isAddressEqual(discount.tokenToRedeem, query.tokenIn),
    );
    const adapters = [...new Set([...own, ...discounts.map((discount) => discount.adapter)].map(getAddress))];
    if (adapters.length === 0) return [];
    const snapshot = await this.#reader.read({
      adapters,
      tokenIn: { address: query.tokenIn, decimals: query.decimals.tokenIn },
      fillers: [this.#executor],
      ...(query.blockNumber !== undefined ? { blockNumber: query.blockNumber } : {}),
    });
    const usable = new Map(
      snapshot.adapters
        .filter((state) => isUsable(state, query.tokenOut))
        .map((state) => [state.adapter, state]),
    );
    const legs: PricedLeg[] = [];
    for (const adapter of own) {
      const state = usable.get(getAddress(adapter));
      if (!state || state.maxRate === null || state.maxRate <= 0n) continue;
      if (!state.fillers.some((filler) => filler.authorized)) continue;
      legs.push({ adapter: state.adapter, rate: state.maxRate, capacity: state.maxAssets! });
    }
    for (const discount of discounts) {
      const state = usable.get(getAddress(discount.adapter));
      if (!state || state.amountOutPerUnit === null || state.minDiscount === null) continue;
      if (discount.ppm < state.minDiscount || discount.ppm > PPM) continue;
      const rate = discountedRate(state.amountOutPerUnit, discount.ppm, query.decimals.tokenOut);
      if (rate <= 0n) continue;
      legs.push({
        adapter: state.adapter,
        rate,
        capacity: state.maxAssets!,
        discount: { discountId: discount.discountId, ppm: discount.ppm },
      });
    }
    return legs;
  }

  /** `getAmountOut(tokenIn, amountIn)`: the gross oracle output a discount swap takes its discount from. */
  grossAmountOut(query: {
    adapter: Address;
    tokenIn: Address;
    amountIn: bigint;
    blockNumber?: bigint;
  }): Promise<bigint> {
    return this.#client.readContract({
      address: query.adapter,
      abi: liquidLaneAdapterViewAbi,
      functionName: "getAmountOut",
      args: [query.tokenIn, query.amountIn],
      ...(query.blockNumber !== undefined ? { blockNumber: query.blockNumber } : {}),
    });
  }
}

/** The adapter could release tokenOut for tokenIn now. */
function isUsable(state: AdapterState, tokenOut: Address): boolean {
  return (
    state.ok &&
    state.asset !== null &&
    isAddressEqual(state.asset, tokenOut) &&
    state.acceptsTokenIn &&
    state.paused === false &&
    state.maxAssets !== null &&
    state.maxAssets > 0n
  );
}
