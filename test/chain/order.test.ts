// Order hashing and encoding without a chain: the Order tuple parameter is the Reactor's, encoding round-trips,
// and hashOrder follows the EIP-712 struct-hash rules when recomputed by hand.
import { encodeAbiParameters, type Hex, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { reactorAbi } from "../../src/chain/abis.ts";
import { orderTypes } from "../../src/chain/eip712.ts";
import {
  decodeOrder,
  encodeOrder,
  hashOrder,
  type Order,
  type Output,
  orderAbiParameter,
} from "../../src/chain/order.ts";
import { hashRequest } from "../support/requests.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;

const order: Order = {
  request: {
    tokenIn: addr(1),
    amountIn: 10n ** 20n,
    outputs: [
      { token: addr(2), amount: 99_000_000n, recipient: addr(3) },
      { token: addr(2), amount: 500_000n, recipient: addr(4) },
    ],
    deadline: 1_800_000_000n,
    nonce: 2n ** 255n + 7n,
    protocol: addr(5),
  },
  swapperSignature: `0x${"ab".repeat(65)}`,
  swapper: addr(3),
  filler: addr(6),
  outputs: [
    { token: addr(2), amount: 99_450_000n, recipient: addr(3) },
    { token: addr(2), amount: 500_000n, recipient: addr(4) },
  ],
};

function stripInternal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInternal);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "internalType")
        .map(([k, v]) => [k, stripInternal(v)]),
    );
  }
  return value;
}

function typeString(primary: keyof typeof orderTypes): string {
  return `${primary}(${orderTypes[primary].map((f) => `${f.type} ${f.name}`).join(",")})`;
}

describe("Order encoding and hashing", () => {
  it("uses the Reactor's Order tuple", () => {
    for (const item of reactorAbi) {
      if (item.type === "event" && item.name === "Fill") {
        expect(stripInternal(item.inputs[0])).toEqual({ ...orderAbiParameter, indexed: false });
      }
      if (item.type === "function" && item.name === "fill") {
        expect(stripInternal(item.inputs[0])).toEqual(orderAbiParameter);
      }
    }
  });

  it("round-trips the ABI encoding of the Order tuple", () => {
    const encoded = encodeOrder(order);
    expect(encoded).toBe(encodeAbiParameters([orderAbiParameter], [order]));
    expect(decodeOrder(encoded)).toEqual(order);
  });

  it("hashes the Order as EIP-712 encodeData, recomputed by hand", () => {
    const outputType = typeString("Output");
    const requestType = typeString("Request");
    const orderType = typeString("Order");
    expect(requestType).toBe(
      "Request(address tokenIn,uint256 amountIn,Output[] outputs,uint256 deadline,uint256 nonce,address protocol)",
    );
    expect(orderType).toBe(
      "Order(Request request,bytes swapperSignature,address swapper,address filler,Output[] outputs)",
    );
    const h = (s: string) => keccak256(toHex(s));
    const hashOutputs = (outputs: readonly Output[]): Hex =>
      keccak256(
        `0x${outputs
          .map((o) =>
            keccak256(
              encodeAbiParameters(
                [{ type: "bytes32" }, { type: "address" }, { type: "uint256" }, { type: "address" }],
                [h(outputType), o.token, o.amount, o.recipient],
              ),
            ).slice(2),
          )
          .join("")}`,
      );
    const r = order.request;
    const requestHash = keccak256(
      encodeAbiParameters(
        ["bytes32", "address", "uint256", "bytes32", "uint256", "uint256", "address"].map((type) => ({
          type,
        })),
        [
          h(requestType + outputType),
          r.tokenIn,
          r.amountIn,
          hashOutputs(r.outputs),
          r.deadline,
          r.nonce,
          r.protocol,
        ],
      ),
    );
    expect(hashRequest(r)).toBe(requestHash);
    const orderHash = keccak256(
      encodeAbiParameters(
        ["bytes32", "bytes32", "bytes32", "address", "address", "bytes32"].map((type) => ({ type })),
        [
          h(orderType + outputType + requestType),
          requestHash,
          keccak256(order.swapperSignature),
          order.swapper,
          order.filler,
          hashOutputs(order.outputs),
        ],
      ),
    );
    expect(hashOrder(order)).toBe(orderHash);
    expect(hashOrder({ ...order, outputs: [] })).not.toBe(orderHash);
  });
});
