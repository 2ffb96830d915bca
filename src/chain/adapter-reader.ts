// Reads the state of a set of LiquidLane adapters for one input token in ONE `eth_call` per block: a multicall
// (Multicall3 `aggregate3`) of every read, with failures allowed per read. Where Multicall3 lives:
// - `multicallAddress`, or the chain's `contracts.multicall3` (every public network has the canonical one), else
// - viem's *deployless* multicall: the Multicall3 bytecode runs inside the `eth_call` itself, so a devnet needs no
//   Multicall contract deployed. That is the default on anvil.
// `getMaxAssets` is nonpayable in the reference ABI; it is read through a view copy of the ABI (abis.ts).
//
// Some reads depend on others: the output asset is `vault().asset()`, fillers are checked against the current
// `marketMaker()`, and `tokensToRedeem(i)` needs the list's length. The reader caches those inputs per adapter
// (vault → asset is immutable in ERC-4626) and plans each round with the cached values; when a fresh value differs
// from the cached one (first read of an adapter, a new market maker, a changed token list) it reads again at the
// same block. In the steady state every block costs exactly one `eth_call` (a deployless read of more than
// MAX_DEPLOYLESS_CALLS reads is split, see there).
import { type Address, type ContractFunctionParameters, getAddress, isAddressEqual } from "viem";
import { erc4626AssetAbi, liquidLaneAdapterViewAbi } from "./abis.ts";
import type { ChainPublicClient } from "./client.ts";
import { answeredResults } from "./unavailable.ts";

export interface FillerStatus {
  filler: Address;
  /** `isFiller(marketMaker, filler)` */
  isFiller: boolean;
  /** owner, market maker, or isFiller(marketMaker, filler) (DESIGN §3 "authorized on an adapter") */
  authorized: boolean;
}

export interface AdapterState {
  adapter: Address;
  /** The adapter-wide reads (vault, asset, paused, owner, market maker, token list) all succeeded. */
  ok: boolean;
  /** Names of the reads that reverted or failed. */
  failedReads: string[];
  vault: Address | null;
  /** The vault's asset: the adapter's output token. */
  asset: Address | null;
  tokensToRedeem: Address[];
  /** tokenIn is one of `tokensToRedeem`. */
  acceptsTokenIn: boolean;
  paused: boolean | null;
  owner: Address | null;
  marketMaker: Address | null;
  /** `getMaxAssets(tokenIn)`: output cap in the vault asset. */
  maxAssets: bigint | null;
  /** `getMaxRate(tokenIn)`: 1e18-scaled, net of minDiscount. */
  maxRate: bigint | null;
  /** `getAmountOut(tokenIn, 10^decimals)`: the gross oracle output for one whole token. */
  amountOutPerUnit: bigint | null;
  /** `minDiscount(tokenIn)` in ppm. */
  minDiscount: bigint | null;
  fillers: FillerStatus[];
}

export interface AdapterSnapshot {
  blockNumber: bigint | null;
  tokenIn: Address;
  adapters: AdapterState[];
  /** `eth_call`s this read took (1 in the steady state, unless a deployless read had to be split). */
  roundTrips: number;
}

export interface ReadAdaptersParams {
  adapters: readonly Address[];
  tokenIn: { address: Address; decimals: number };
  /** Addresses to check `isFiller(marketMaker, x)` and authorization for (e.g. the solvers' Executors). */
  fillers?: readonly Address[];
  /** Read at this block (recommended: the block being processed); latest otherwise. */
  blockNumber?: bigint;
}

interface Cached {
  vault?: Address;
  marketMaker?: Address;
  tokensLength?: number;
}

type Call = ContractFunctionParameters;
type CallResult = { status: "success"; result: unknown } | { status: "failure"; error: Error };

interface Plan {
  adapter: Address;
  cached: Cached;
  calls: Call[];
  /** Number of calls before the `tokensToRedeem(i)` ones. */
  fixed: number;
  tokensLength: number;
  readsAsset: boolean;
  fillerCalls: number;
}

const MAX_ROUNDS = 3;

/**
 * Reads per deployless `eth_call`. A deployless multicall sends Multicall3's code (5.6 KB) with the aggregate3
 * calldata as contract creation code, which EIP-3860 caps at 49,152 bytes; each of these reads encodes to at most
 * 256 bytes (a Call3 tuple with at most two static arguments). 64 reads make a ~22 KB call (44 KB of JSON), which
 * also keeps a JSON-RPC batch of concurrent reads (transport `batchSize`, client.ts) under the 2 MB request bodies
 * anvil and many providers accept. Beyond that the read is split into several eth_calls at the same block.
 */
export const MAX_DEPLOYLESS_CALLS = 64;

export class AdapterReader {
  readonly #client: ChainPublicClient;
  readonly #multicallAddress: Address | undefined;
  readonly #cache = new Map<Address, Cached>();
  readonly #assetByVault = new Map<Address, Address>();

  constructor(client: ChainPublicClient, options: { multicallAddress?: Address } = {}) {
    this.#client = client;
    this.#multicallAddress = options.multicallAddress ?? client.chain?.contracts?.multicall3?.address;
  }

  async read(params: ReadAdaptersParams): Promise<AdapterSnapshot> {
    const adapters = params.adapters.map((a) => getAddress(a));
    const tokenIn = getAddress(params.tokenIn.address);
    const fillers = (params.fillers ?? []).map((f) => getAddress(f));
    const unit = 10n ** BigInt(params.tokenIn.decimals);

    let roundTrips = 0;
    for (let round = 1; ; round++) {
      const plans = adapters.map((adapter) => this.#plan(adapter, tokenIn, unit, fillers));
      const calls = plans.flatMap((p) => p.calls);
      const { results, ethCalls } = await this.#multicall(calls, params.blockNumber);
      roundTrips += ethCalls;
      let offset = 0;
      const states: AdapterState[] = [];
      let stale = false;
      for (const plan of plans) {
        const slice = results.slice(offset, offset + plan.calls.length);
        offset += plan.calls.length;
        const { state, cacheChanged } = this.#interpret(plan, slice, tokenIn, fillers);
        states.push(state);
        stale ||= cacheChanged;
      }
      if (!stale || round >= MAX_ROUNDS) {
        return { blockNumber: params.blockNumber ?? null, tokenIn, adapters: states, roundTrips };
      }
    }
  }

  #plan(adapter: Address, tokenIn: Address, unit: bigint, fillers: readonly Address[]): Plan {
    const cached = this.#cache.get(adapter) ?? {};
    const abi = liquidLaneAdapterViewAbi;
    const at = (functionName: string, args: readonly unknown[] = []): Call =>
      ({ address: adapter, abi, functionName, args }) as Call;
    const calls: Call[] = [
      at("vault"),
      at("paused"),
      at("owner"),
      at("marketMaker"),
      at("getTokensToRedeemLength"),
      at("getMaxAssets", [tokenIn]),
      at("getMaxRate", [tokenIn]),
      at("getAmountOut", [tokenIn, unit]),
      at("minDiscount", [tokenIn]),
    ];
    const fixed = calls.length;
    const tokensLength = cached.tokensLength ?? 0;
    for (let i = 0; i < tokensLength; i++) calls.push(at("tokensToRedeem", [BigInt(i)]));
    const assetKnown = cached.vault !== undefined && this.#assetByVault.has(cached.vault);
    if (cached.vault !== undefined && !assetKnown) {
      calls.push({ address: cached.vault, abi: erc4626AssetAbi, functionName: "asset", args: [] } as Call);
    }
    const fillerCalls = cached.marketMaker !== undefined ? fillers.length : 0;
    for (let i = 0; i < fillerCalls; i++) calls.push(at("isFiller", [cached.marketMaker, fillers[i]]));
    return {
      adapter,
      cached,
      calls,
      fixed,
      tokensLength,
      readsAsset: cached.vault !== undefined && !assetKnown,
      fillerCalls,
    };
  }

  #interpret(
    plan: Plan,
    results: CallResult[],
    tokenIn: Address,
    fillers: readonly Address[],
  ): { state: AdapterState; cacheChanged: boolean } {
    const failedReads: string[] = [];
    const names = ["vault", "paused", "owner", "marketMaker", "getTokensToRedeemLength"];
    const value = <T>(index: number, name: string): T | null => {
      const r = results[index];
      if (r?.status === "success") return r.result as T;
      failedReads.push(name);
      return null;
    };
    const vault = value<Address>(0, names[0]!);
    const paused = value<boolean>(1, names[1]!);
    const owner = value<Address>(2, names[2]!);
    const marketMaker = value<Address>(3, names[3]!);
    const tokensLengthRaw = value<bigint>(4, names[4]!);
    const maxAssets = value<bigint>(5, "getMaxAssets");
    const maxRate = value<bigint>(6, "getMaxRate");
    const amountOutPerUnit = value<bigint>(7, "getAmountOut");
    const minDiscount = value<bigint>(8, "minDiscount");

    let index = plan.fixed;
    const tokensToRedeem: Address[] = [];
    for (let i = 0; i < plan.tokensLength; i++, index++) {
      const token = value<Address>(index, `tokensToRedeem(${i})`);
      if (token) tokensToRedeem.push(getAddress(token));
    }
    if (plan.readsAsset && plan.cached.vault) {
      const asset = value<Address>(index, "asset");
      if (asset) this.#assetByVault.set(plan.cached.vault, getAddress(asset));
      index++;
    }
    const fillerResults: (boolean | null)[] = [];
    for (let i = 0; i < plan.fillerCalls; i++, index++) fillerResults.push(value<boolean>(index, "isFiller"));

    const tokensLength = tokensLengthRaw === null ? undefined : Number(tokensLengthRaw);
    const fresh: Cached = {
      vault: vault ? getAddress(vault) : undefined,
      marketMaker: marketMaker ? getAddress(marketMaker) : undefined,
      tokensLength,
    };
    const cacheChanged =
      (fresh.vault !== undefined && !this.#assetByVault.has(fresh.vault)) ||
      (fresh.vault !== undefined && fresh.vault !== plan.cached.vault) ||
      (fillers.length > 0 &&
        fresh.marketMaker !== undefined &&
        fresh.marketMaker !== plan.cached.marketMaker) ||
      (fresh.tokensLength !== undefined && fresh.tokensLength !== plan.tokensLength);
    this.#cache.set(plan.adapter, fresh);

    const asset = fresh.vault ? (this.#assetByVault.get(fresh.vault) ?? null) : null;
    const fillerStatuses: FillerStatus[] = fillers.map((filler, i) => {
      const isFiller = fillerResults[i] ?? false;
      const authorized =
        isFiller ||
        (owner !== null && isAddressEqual(owner, filler)) ||
        (marketMaker !== null && isAddressEqual(marketMaker, filler));
      return { filler, isFiller, authorized };
    });
    const ok =
      vault !== null &&
      asset !== null &&
      paused !== null &&
      owner !== null &&
      marketMaker !== null &&
      tokensLengthRaw !== null &&
      tokensToRedeem.length === plan.tokensLength;
    return {
      state: {
        adapter: plan.adapter,
        ok,
        failedReads,
        vault: fresh.vault ?? null,
        asset,
        tokensToRedeem,
        acceptsTokenIn: tokensToRedeem.some((t) => isAddressEqual(t, tokenIn)),
        paused,
        owner: owner ? getAddress(owner) : null,
        marketMaker: fresh.marketMaker ?? null,
        maxAssets,
        maxRate,
        amountOutPerUnit,
        minDiscount,
        fillers: fillerStatuses,
      },
      cacheChanged,
    };
  }

  /** Runs `calls` as one multicall, or as several at one block when a deployless multicall would be too large. */
  async #multicall(
    calls: Call[],
    blockNumber: bigint | undefined,
  ): Promise<{ results: CallResult[]; ethCalls: number }> {
    if (calls.length === 0) return { results: [], ethCalls: 0 };
    const chunks: Call[][] = [];
    const chunkSize = this.#multicallAddress ? calls.length : MAX_DEPLOYLESS_CALLS;
    for (let start = 0; start < calls.length; start += chunkSize)
      chunks.push(calls.slice(start, start + chunkSize));
    // Several eth_calls must all see the same state: pin them to one block when the caller did not.
    const atBlock = blockNumber ?? (chunks.length > 1 ? await this.#client.getBlockNumber() : undefined);
    const answers = await Promise.all(
      chunks.map((contracts) =>
        this.#client.multicall({
          contracts,
          allowFailure: true,
          // Chunked here (by call count, see MAX_DEPLOYLESS_CALLS), never by viem's calldata-size estimate.
          batchSize: 0,
          ...(atBlock !== undefined ? { blockNumber: atBlock } : {}),
          ...(this.#multicallAddress ? { multicallAddress: this.#multicallAddress } : { deployless: true }),
        }),
      ),
    );
    return { results: answeredResults(answers.flat() as CallResult[]), ethCalls: chunks.length };
  }
}
