// What Sluice knows about one adapter at one block, for one input token: everything the inventory model needs,
// read in one multicall per block (see src/chain) and cached for that block.
import type { Address } from "viem";

export interface AdapterState {
  adapter: Address;
  /** The vault's asset: the output token this adapter releases. */
  asset: Address;
  assetDecimals: number;
  /** Whether the adapter lists the input token among its `tokensToRedeem`. */
  acceptsTokenIn: boolean;
  paused: boolean;
  /** `getMaxAssets(tokenIn)`: capacity in asset base units. */
  maxAssets: bigint;
  /** `getMaxRate(tokenIn)`: 1e18-scaled rate net of `minDiscount`. */
  maxRate: bigint;
  /** `getAmountOut(tokenIn, 10^inDecimals)`: the gross oracle output for one whole input token. */
  oracleAmountOutPerUnit: bigint;
  /** `minDiscount(tokenIn)` in ppm. */
  minDiscountPpm: bigint;
  owner: Address;
  marketMaker: Address;
  /** Addresses for which `isFiller(marketMaker, address)` is true (of those asked about). */
  fillers: ReadonlySet<Address>;
}

/** The adapter states of every configured adapter for one input token at one block. */
export interface InventorySnapshot {
  blockNumber: bigint;
  /** The block's timestamp (chain time), used to judge discount deadlines. */
  blockTimestamp: bigint;
  tokenIn: Address;
  tokenInDecimals: number;
  adapters: readonly AdapterState[];
}

/** An address is authorized on an adapter when it is the owner, the market maker, or one of its fillers. */
export function isAuthorizedOn(state: AdapterState, address: Address): boolean {
  const who = address.toLowerCase() as Address;
  return state.owner === who || state.marketMaker === who || state.fillers.has(who);
}

/** Usable for tokenIn → tokenOut: its asset is tokenOut, it accepts tokenIn, it is not paused, it has capacity. */
export function isUsable(state: AdapterState, tokenOut: Address): boolean {
  return state.asset === tokenOut && state.acceptsTokenIn && !state.paused && state.maxAssets > 0n;
}
