// Reactor orders in TypeScript: the Request/Order shapes (addresses, hex, bigint amounts), their EIP-712 hashes,
// the ABI encoding of the Order tuple, and signing with viem accounts. DESIGN §3: `orderHash` is the EIP-712
// struct hash of the Order; `encodedOrder` is the ABI encoding of the Order tuple.
import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  type Hex,
  hashStruct,
  hashTypedData,
  type LocalAccount,
} from "viem";
import {
  adapterDomain,
  discountSwapTypes,
  discountTypes,
  orderTypes,
  reactorDomain,
  requestTypes,
} from "./eip712.ts";

export interface Output {
  token: Address;
  amount: bigint;
  recipient: Address;
}

/** What the swapper signs. */
export interface Request {
  tokenIn: Address;
  amountIn: bigint;
  outputs: readonly Output[];
  deadline: bigint;
  nonce: bigint;
  protocol: Address;
}

/** What the protocol signer signs after the auction; `outputs` are the committed outputs. */
export interface Order {
  request: Request;
  swapperSignature: Hex;
  swapper: Address;
  filler: Address;
  outputs: readonly Output[];
}

export interface Swap {
  recipient: Address;
  tokenIn: Address;
  amountIn: bigint;
  amountOut: bigint;
}

export interface SwapInput {
  adapter: Address;
  swap: Swap;
}

export interface Discount {
  tokenToRedeem: Address;
  /** ppm of the gross oracle output */
  discount: bigint;
  signer: Address;
  protocol: Address;
  nonce: bigint;
  /** uint48 unix seconds */
  deadline: number;
}

export interface DiscountSwap {
  discount: Discount;
  signerSignature: Hex;
  /** uint48 unix seconds; at most 90 s ahead when the swap executes */
  protocolDeadline: number;
}

export interface DiscountSwapInput {
  adapter: Address;
  discountSwap: DiscountSwap;
  protocolSignature: Hex;
  recipient: Address;
  amountIn: bigint;
}

/** Where Reactor signatures are verified. */
export interface ReactorRef {
  chainId: number | bigint;
  reactor: Address;
}

/** Where adapter (Discount / DiscountSwap) signatures are verified. */
export interface AdapterRef {
  chainId: number | bigint;
  adapter: Address;
}

/** Anything that signs EIP-712 typed data locally (a viem local account: private key, mnemonic, HD). */
export type TypedDataSigner = Pick<LocalAccount, "signTypedData">;

/** The ABI parameter of the `Order` tuple (as in `Fill(Order)` and `fill(Order, ...)`). */
export const orderAbiParameter = {
  name: "order",
  type: "tuple",
  components: [
    {
      name: "request",
      type: "tuple",
      components: [
        { name: "tokenIn", type: "address" },
        { name: "amountIn", type: "uint256" },
        {
          name: "outputs",
          type: "tuple[]",
          components: [
            { name: "token", type: "address" },
            { name: "amount", type: "uint256" },
            { name: "recipient", type: "address" },
          ],
        },
        { name: "deadline", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "protocol", type: "address" },
      ],
    },
    { name: "swapperSignature", type: "bytes" },
    { name: "swapper", type: "address" },
    { name: "filler", type: "address" },
    {
      name: "outputs",
      type: "tuple[]",
      components: [
        { name: "token", type: "address" },
        { name: "amount", type: "uint256" },
        { name: "recipient", type: "address" },
      ],
    },
  ],
} as const;

/** EIP-712 struct hash of an Order: the `orderHash` Sluice stores and matches `Fill` events with. */
export function hashOrder(order: Order): Hex {
  return hashStruct({ types: orderTypes, primaryType: "Order", data: order });
}

/** The digest the swapper signs (and the Reactor verifies). */
export function requestDigest(ref: ReactorRef, request: Request): Hex {
  return hashTypedData({
    domain: reactorDomain(ref.chainId, ref.reactor),
    types: requestTypes,
    primaryType: "Request",
    message: request,
  });
}

/** ABI encoding of the Order tuple (`abi.encode(order)`): the `encodedOrder` of the API. */
export function encodeOrder(order: Order): Hex {
  return encodeAbiParameters([orderAbiParameter], [order]);
}

export function decodeOrder(encoded: Hex): Order {
  const [order] = decodeAbiParameters([orderAbiParameter], encoded);
  return {
    request: { ...order.request, outputs: order.request.outputs.map((o) => ({ ...o })) },
    swapperSignature: order.swapperSignature,
    swapper: order.swapper,
    filler: order.filler,
    outputs: order.outputs.map((o) => ({ ...o })),
  };
}

export function signOrder(signer: TypedDataSigner, ref: ReactorRef, order: Order): Promise<Hex> {
  return signer.signTypedData({
    domain: reactorDomain(ref.chainId, ref.reactor),
    types: orderTypes,
    primaryType: "Order",
    message: order,
  });
}

/** The `discountId`: the EIP-712 digest of a Discount under the adapter's domain. */
export function discountId(ref: AdapterRef, discount: Discount): Hex {
  return hashTypedData({
    domain: adapterDomain(ref.chainId, ref.adapter),
    types: discountTypes,
    primaryType: "Discount",
    message: discount,
  });
}

export function signDiscount(signer: TypedDataSigner, ref: AdapterRef, discount: Discount): Promise<Hex> {
  return signer.signTypedData({
    domain: adapterDomain(ref.chainId, ref.adapter),
    types: discountTypes,
    primaryType: "Discount",
    message: discount,
  });
}

/** The protocol's short co-signature of a discount for one fill. */
export function signDiscountSwap(
  signer: TypedDataSigner,
  ref: AdapterRef,
  discountSwap: DiscountSwap,
): Promise<Hex> {
  return signer.signTypedData({
    domain: adapterDomain(ref.chainId, ref.adapter),
    types: discountSwapTypes,
    primaryType: "DiscountSwap",
    message: discountSwap,
  });
}
