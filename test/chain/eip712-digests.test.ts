// The EIP-712 digests TypeScript computes for a Request and an Order are the ones the Reactor verifies on-chain,
// for a few hundred random inputs. Each case is signed in TypeScript (swapper: Request, protocol: Order) and sent
// to the real Reactor's `fill` as an `eth_call` from the filler with an adapter the factory does not know: the
// Reactor checks both signatures *before* the adapters, so `InvalidAdapter` proves both digests matched, while
// any mismatch would revert `InvalidProtocolSignature`. Mutated cases check the converse. The calls go out in
// parallel and the client batches them into a few JSON-RPC batch requests.
import { type Address, type Hex, type LocalAccount, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { reactorAbi } from "../../src/chain/abis.ts";
import { type Order, type Output, type Request, signOrder } from "../../src/chain/order.ts";
import { useTestChain } from "../support/anvil.ts";
import { signRequest } from "../support/requests.ts";
import { revertErrorName } from "../support/reverts.ts";

const chain = useTestChain();
const CASES = 300;

// A seeded generator, so a failure can be reproduced (the seed is printed in the assertion message).
function rng(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const bytes = (n: number): Hex => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
    return toHex(out);
  };
  const int = (max: number) => Math.floor(next() * max);
  const uint = (): bigint => {
    // Mix magnitudes: zero, small, 18-decimal amounts, full 256-bit.
    switch (int(4)) {
      case 0:
        return 0n;
      case 1:
        return BigInt(int(1_000_000));
      case 2:
        return BigInt(bytes(12));
      default:
        return BigInt(bytes(32));
    }
  };
  const address = (): Address => bytes(20) as Address;
  const outputs = (): Output[] =>
    Array.from({ length: int(5) }, () => ({ token: address(), amount: uint(), recipient: address() }));
  return { int, uint, address, outputs, bytes };
}

async function callFill(order: Order, protocolSignature: Hex, adapter: Address): Promise<string | undefined> {
  try {
    await chain.publicClient.simulateContract({
      account: order.filler,
      address: chain.core.reactor,
      abi: reactorAbi,
      functionName: "fill",
      args: [
        order,
        protocolSignature,
        {
          adapter,
          swap: { recipient: order.filler, tokenIn: order.request.tokenIn, amountIn: 1n, amountOut: 1n },
        },
        "0x",
      ],
    });
    return undefined;
  } catch (error) {
    return revertErrorName(error) ?? String(error);
  }
}

describe("EIP-712 digests", () => {
  it(`agree with the Reactor for ${CASES} random requests and orders`, async () => {
    const seed = Date.now() % 1_000_000;
    const r = rng(seed);
    const keys: LocalAccount[] = Array.from({ length: 8 }, () => privateKeyToAccount(generatePrivateKey()));
    const ref = { chainId: chain.chainId, reactor: chain.core.reactor };
    const now = await chain.now();

    const cases = await Promise.all(
      Array.from({ length: CASES }, async (_, i) => {
        const swapper = keys[r.int(keys.length)]!;
        const protocol = keys[r.int(keys.length)]!;
        const request: Request = {
          tokenIn: r.address(),
          amountIn: r.uint(),
          outputs: r.outputs(),
          // Any deadline not yet passed, up to the full uint256 range.
          deadline: now + 3600n + (r.int(2) ? r.uint() % 2n ** 200n : BigInt(r.int(10_000_000))),
          nonce: r.uint(),
          protocol: protocol.address,
        };
        const order: Order = {
          request,
          swapperSignature: await signRequest(swapper, ref, request),
          swapper: swapper.address,
          filler: r.address(),
          outputs: r.outputs(),
        };
        // Every fifth case is tampered with after signing: the Reactor must then refuse the signatures.
        const tamper = i % 5 === 4 ? r.int(4) : -1;
        const protocolSignature = await signOrder(protocol, ref, order);
        if (tamper === 0) order.request = { ...request, nonce: request.nonce ^ 1n };
        if (tamper === 1)
          order.outputs = [...order.outputs, { token: r.address(), amount: 1n, recipient: r.address() }];
        if (tamper === 2)
          order.request = {
            ...request,
            outputs: [...request.outputs]
              .reverse()
              .concat(r.outputs(), [{ token: r.address(), amount: 0n, recipient: r.address() }]),
          };
        if (tamper === 3) order.swapper = r.address();
        return { order, protocolSignature, tampered: tamper >= 0 };
      }),
    );

    const started = Date.now();
    const adapter = r.address();
    const results = await Promise.all(cases.map((c) => callFill(c.order, c.protocolSignature, adapter)));
    const elapsed = Date.now() - started;

    for (const [i, c] of cases.entries()) {
      const expected = c.tampered ? "InvalidProtocolSignature" : "InvalidAdapter";
      expect(results[i], `case ${i} (seed ${seed})`).toBe(expected);
    }
    expect(cases.filter((c) => !c.tampered).length).toBeGreaterThanOrEqual(CASES * 0.75);
    expect(elapsed).toBeLessThan(20_000);
  });
});
