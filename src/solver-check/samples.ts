// The sample quote requests a check sends: for every input token of the venue and every output token some adapter
// pays in, a few amounts (the token's minimum, 100 and 10,000 whole tokens) offered the legs the venue would offer
// the solver at the latest block — the direct legs of the adapters its Executor is authorized on, read with Sluice's
// own inventory code. A solver not (yet) authorized anywhere is offered every usable adapter, so its answers can
// still be checked; the check names the missing authorization.
import type { Address } from "viem";
import { AdapterReader } from "../chain/adapter-reader.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import type { PublicDeployment } from "../deployment/public.ts";
import type { InventorySnapshot } from "../inventory/adapter-state.ts";
import { isAuthorizedOn, isUsable } from "../inventory/adapter-state.ts";
import { InventorySource } from "../inventory/source.ts";
import { uuidV7 } from "../shared/uuid-v7.ts";
import type { SolverQuoteRequest } from "../solvers/protocol.ts";

export interface SamplePair {
  tokenIn: PublicDeployment["inputTokens"][number];
  tokenOut: PublicDeployment["outputTokens"][number];
  /** The legs sent, as the request carries them. */
  legs: SolverQuoteRequest["adapters"];
  /** Whether the legs are those the venue would offer (the filler is authorized on them). */
  offeredByVenue: boolean;
}

export interface VenueInventory {
  /** Per input token, its snapshot at the latest block. */
  snapshots: Map<Address, InventorySnapshot>;
  pairs: SamplePair[];
}

/** Reads the venue's adapters at the latest block and the pairs worth asking about. */
export async function readVenueInventory(
  venue: PublicDeployment,
  client: ChainPublicClient,
  filler: Address | undefined,
): Promise<VenueInventory> {
  const source = new InventorySource({
    reader: new AdapterReader(client),
    blocks: {
      latest: async () => {
        const block = await client.getBlock({ blockTag: "latest" });
        return { number: block.number, hash: block.hash, timestamp: block.timestamp };
      },
    },
    deployment: {
      adapters: venue.adapters.map((adapter) => ({ address: adapter.address })),
      outputTokens: venue.outputTokens.map((token) => ({ ...token })),
    },
    authorizationCandidates: () => (filler ? [filler] : []),
  });
  const snapshots = new Map<Address, InventorySnapshot>();
  const pairs: SamplePair[] = [];
  for (const tokenIn of venue.inputTokens) {
    const snapshot = await source.snapshot(tokenIn);
    snapshots.set(tokenIn.address, snapshot);
    for (const tokenOut of venue.outputTokens) {
      const usable = snapshot.adapters.filter((state) => isUsable(state, tokenOut.address));
      if (usable.length === 0) continue;
      const authorized = filler ? usable.filter((state) => isAuthorizedOn(state, filler)) : [];
      const offered = authorized.length > 0 ? authorized : usable;
      pairs.push({
        tokenIn,
        tokenOut,
        offeredByVenue: authorized.length > 0,
        legs: offered.map((state) => ({
          adapter: state.adapter,
          asset: state.asset,
          assetDecimals: state.assetDecimals,
          maxAssets: state.maxAssets.toString(),
          maxRate: state.maxRate.toString(),
        })),
      });
    }
  }
  return { snapshots, pairs };
}

/** The amounts asked for an input token: its minimum, 100 and 10,000 whole tokens (each at least the minimum). */
export function sampleAmounts(tokenIn: SamplePair["tokenIn"]): bigint[] {
  const whole = 10n ** BigInt(tokenIn.decimals);
  const minimum = BigInt(tokenIn.minQuoteAmount);
  return [...new Set([minimum, 100n * whole, 10_000n * whole].filter((amount) => amount >= minimum))];
}

/** The `index`-th sample request of a pair (amounts in turn), with fresh ids shaped as Sluice makes them. */
export function sampleRequest(
  venue: PublicDeployment,
  pair: SamplePair,
  swapper: Address,
  index: number,
): SolverQuoteRequest {
  const amounts = sampleAmounts(pair.tokenIn);
  return {
    requestId: uuidV7(),
    quoteId: uuidV7(),
    tokenInChainId: venue.chainId,
    tokenOutChainId: venue.chainId,
    swapper,
    tokenIn: pair.tokenIn.address,
    tokenOut: pair.tokenOut.address,
    amount: amounts[index % amounts.length]!.toString(),
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: 1,
    adapters: pair.legs,
  };
}

/**
 * The most the legs can pay for `amountIn`: per adapter, the lower of its capacity and the whole input at its best
 * rate. A quote above it cannot be filled, however the input is split.
 */
export function legsPayAtMost(request: SolverQuoteRequest, tokenInDecimals: number): bigint {
  const best = new Map<string, { rate: bigint; capacity: bigint; decimals: number }>();
  for (const leg of request.adapters) {
    const seen = best.get(leg.adapter);
    const rate = BigInt(leg.maxRate);
    const capacity = BigInt(leg.maxAssets);
    best.set(leg.adapter, {
      rate: seen && seen.rate > rate ? seen.rate : rate,
      capacity: seen && seen.capacity < capacity ? seen.capacity : capacity,
      decimals: leg.assetDecimals,
    });
  }
  let total = 0n;
  const amountIn = BigInt(request.amount);
  for (const { rate, capacity, decimals } of best.values()) {
    const atRate =
      (amountIn * rate * 10n ** BigInt(decimals)) / (10n ** 18n * 10n ** BigInt(tokenInDecimals));
    total += atRate < capacity ? atRate : capacity;
  }
  return total;
}
