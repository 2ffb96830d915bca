// Order rows as POST /order stores them, without a chain: for tests of what reads and publishes stored orders.
import { randomUUID } from "node:crypto";
import type { NewOrder } from "../../src/orders/repository.ts";

/** `seed` as a 0x-prefixed hex string of `length` digits. */
export const hex = (length: number, seed: number) => `0x${seed.toString(16).padStart(length, "0")}`;
let seed = 0;

/** An open order of `solverId` created at `at`; each call has its own hash, nonce and signatures. */
export function newOrder(solverId: string, at: Date, overrides: Partial<NewOrder> = {}): NewOrder {
  seed += 1;
  const swapper = hex(40, 0xabc);
  return {
    orderId: randomUUID(),
    quoteId: randomUUID(),
    requestId: randomUUID(),
    quoteRequestId: randomUUID(),
    tokenOut: hex(40, 0x2),
    // The outputs below: a 99,250,000 total committed over a 99,000,000 quote.
    quotedAmountOut: "99000000",
    committedAmountOut: "99250000",
    orderHash: hex(64, seed),
    status: "open",
    swapper,
    filler: hex(40, 0xf111),
    solverId,
    tokenIn: hex(40, 0x1),
    amountIn: "1000000000000000000",
    nonce: String(seed),
    deadline: 1_900_000_000,
    signedOutputs: [{ token: hex(40, 0x2), recipient: swapper, amount: "99000000" }],
    outputs: [
      { token: hex(40, 0x2), recipient: swapper, amount: "99000000", portionBps: 9975 },
      { token: hex(40, 0x2), recipient: hex(40, 0xfee), amount: "250000", portionBps: 25 },
    ],
    swapperSignature: hex(130, seed),
    protocolSignature: hex(130, seed + 1),
    encodedOrder: hex(512, seed),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
