// The EIP-712 domains and type definitions of the Reactor and the LiquidLane adapter, in one place (DESIGN §3).
// contracts/src/libraries/OrderHashing.sol and LiquidLaneAdapter.sol hold the same types on-chain; the digest test
// (test/chain/eip712-digests.test.ts) checks that both sides agree.
import type { Address, TypedDataDomain } from "viem";

export const REACTOR_DOMAIN_NAME = "Reactor";
export const REACTOR_DOMAIN_VERSION = "1";
export const ADAPTER_DOMAIN_NAME = "LiquidLaneAdapter";
export const ADAPTER_DOMAIN_VERSION = "1";
/** The longest a protocol co-signature of a discount swap may live (the adapter enforces it). */
export const DISCOUNT_SWAP_PROTOCOL_WINDOW_SECONDS = 90;

export function reactorDomain(chainId: number | bigint, reactor: Address) {
  return {
    name: REACTOR_DOMAIN_NAME,
    version: REACTOR_DOMAIN_VERSION,
    chainId: BigInt(chainId),
    verifyingContract: reactor,
  } as const satisfies TypedDataDomain;
}

export function adapterDomain(chainId: number | bigint, adapter: Address) {
  return {
    name: ADAPTER_DOMAIN_NAME,
    version: ADAPTER_DOMAIN_VERSION,
    chainId: BigInt(chainId),
    verifyingContract: adapter,
  } as const satisfies TypedDataDomain;
}

const Output = [
  { name: "token", type: "address" },
  { name: "amount", type: "uint256" },
  { name: "recipient", type: "address" },
] as const;

const Request = [
  { name: "tokenIn", type: "address" },
  { name: "amountIn", type: "uint256" },
  { name: "outputs", type: "Output[]" },
  { name: "deadline", type: "uint256" },
  { name: "nonce", type: "uint256" },
  { name: "protocol", type: "address" },
] as const;

const Order = [
  { name: "request", type: "Request" },
  { name: "swapperSignature", type: "bytes" },
  { name: "swapper", type: "address" },
  { name: "filler", type: "address" },
  { name: "outputs", type: "Output[]" },
] as const;

const Discount = [
  { name: "tokenToRedeem", type: "address" },
  { name: "discount", type: "uint256" },
  { name: "signer", type: "address" },
  { name: "protocol", type: "address" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint48" },
] as const;

const DiscountSwap = [
  { name: "discount", type: "Discount" },
  { name: "signerSignature", type: "bytes" },
  { name: "protocolDeadline", type: "uint48" },
] as const;

/** Types the swapper signs: primary type `Request`. */
export const requestTypes = { Request, Output } as const;
/** Types the protocol signer signs after the auction: primary type `Order`. */
export const orderTypes = { Order, Request, Output } as const;
/** Types an authorized adapter signer signs: primary type `Discount`. */
export const discountTypes = { Discount } as const;
/** Types the protocol co-signs for a fill with a discount: primary type `DiscountSwap`. */
export const discountSwapTypes = { DiscountSwap, Discount } as const;
