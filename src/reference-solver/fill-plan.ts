// Plans the legs of a fill with the outputs the adapters will really pay. A direct leg pays what the fill asks for
// (the allocation's output, which fits its rate and capacity by construction). A discount leg pays what the adapter
// computes — the gross oracle output of the leg's input less the discount (pricing.ts `discountSwapOutput`) — which
// the 1e18 rate only approximates from below: rounding the oracle output per whole token loses up to one unit per
// token, so on a large leg the exact output can exceed the estimate, and with it the adapter's capacity
// (`LimitExceeded`). Such a leg gets its capacity lowered by the excess and the input is placed again; a leg that
// keeps overshooting is left out. Either way the plan's outputs are exact.
import type { Address } from "viem";
import {
  type Allocation,
  allocate,
  discountSwapOutput,
  type LegAllocation,
  oneLegPerAdapter,
  type PricedLeg,
  type TokenDecimals,
} from "./pricing.ts";

/** How many times one discount leg's capacity is lowered before the leg is left out of the plan. */
const MAX_CORRECTIONS_PER_LEG = 4;

export interface FillPlanInput {
  amountIn: bigint;
  legs: readonly PricedLeg[];
  decimals: TokenDecimals;
  /** `getAmountOut(tokenIn, amountIn)` of an adapter at the planned block: a discount swap's gross output. */
  grossAmountOut(adapter: Address, amountIn: bigint): Promise<bigint>;
}

/** The allocation of a fill, every leg's `amountOut` exactly what its adapter pays. */
export async function allocateForFill(input: FillPlanInput): Promise<Allocation> {
  const capacities = new Map(oneLegPerAdapter(input.legs).map((leg) => [key(leg.adapter), leg.capacity]));
  // Planned with lowered capacities; always checked against the adapter's real one.
  let legs = oneLegPerAdapter(input.legs);
  const corrections = new Map<string, number>();
  for (;;) {
    const allocation = allocate(input.amountIn, legs, input.decimals);
    if (allocation.kind === "insufficient") return allocation;
    const exact = await Promise.all(allocation.legs.map((leg) => exactOutput(leg, input)));

    const excess = new Map<string, bigint>();
    allocation.legs.forEach((leg, index) => {
      const capacity = capacities.get(key(leg.adapter))!;
      if (exact[index]! > capacity) excess.set(key(leg.adapter), exact[index]! - capacity);
    });
    if (excess.size === 0) {
      const placed = allocation.legs.map((leg, index) => ({ ...leg, amountOut: exact[index]! }));
      return {
        kind: "allocated",
        legs: placed,
        amountOut: placed.reduce((sum, leg) => sum + leg.amountOut, 0n),
      };
    }
    legs = legs.flatMap((leg) => {
      const over = excess.get(key(leg.adapter));
      if (over === undefined) return [leg];
      const count = (corrections.get(key(leg.adapter)) ?? 0) + 1;
      corrections.set(key(leg.adapter), count);
      if (count > MAX_CORRECTIONS_PER_LEG) return [];
      return [{ ...leg, capacity: leg.capacity - over }];
    });
  }
}

async function exactOutput(leg: LegAllocation, input: FillPlanInput): Promise<bigint> {
  if (!leg.discount) return leg.amountOut;
  return discountSwapOutput(await input.grossAmountOut(leg.adapter, leg.amountIn), leg.discount.ppm);
}

function key(adapter: Address): string {
  return adapter.toLowerCase();
}
