// The devnet's demo discount: a curator key authorized on the tUSD adapter (a filler of the adapter's market maker,
// which the adapter counts as authorized), and at every start one discount it signs — 600 ppm on tRWA → tUSD, a day
// ahead in chain time, a fresh nonce — published through the service's own POST /discount, so it is validated like
// any other.
//
// On a restart the new discount replaces the one a previous run published (the store keeps one live discount per
// adapter and token): the banner always shows the discount that is served, and its deadline is always a day out.
// The replaced one is harmless: its nonce stays unused on-chain, but Sluice no longer serves it nor co-signs a swap
// with it, and the adapter refuses a discount swap without the protocol's co-signature.
import { randomBytes } from "node:crypto";
import type { Address, Hex, LocalAccount } from "viem";
import type { z } from "zod";
import { liquidLaneAdapterAbi } from "../chain/abis.ts";
import type { ChainPublicClient, ChainWalletClient } from "../chain/client.ts";
import { type Discount, signDiscount } from "../chain/order.ts";
import { type DiscountRequestSchema, discountTermsJson } from "../discounts/schemas.ts";
import type { Logger } from "../logger.ts";

export const DEMO_DISCOUNT_PPM = 600n;
/** How long the demo discount lives, in seconds of chain time. */
export const DEMO_DISCOUNT_LIFETIME_SECONDS = 24 * 60 * 60;

export interface DemoDiscount {
  discountId: Hex;
  adapter: Address;
  discount: Discount;
}

/** POST /discount refused the demo discount (or could not be reached). */
export class DemoDiscountRejectedError extends Error {
  override name = "DemoDiscountRejectedError";
}

/**
 * Makes the curator a filler of the adapter's market maker, unless it already is. On a new chain this runs while the
 * deployment mines at once; on a kept one the flag is already set and nothing is sent.
 */
export async function authorizeDemoCurator(options: {
  publicClient: ChainPublicClient;
  marketMaker: ChainWalletClient;
  adapter: Address;
  curator: Address;
  logger: Logger;
}): Promise<void> {
  const { publicClient, marketMaker, adapter, curator } = options;
  const authorized = await publicClient.readContract({
    address: adapter,
    abi: liquidLaneAdapterAbi,
    functionName: "isFiller",
    args: [marketMaker.account.address, curator],
  });
  if (authorized) return;
  const hash = await marketMaker.writeContract({
    address: adapter,
    abi: liquidLaneAdapterAbi,
    functionName: "setFiller",
    args: [curator, true],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== "success") {
    throw new DemoDiscountRejectedError(`setFiller(${curator}) on ${adapter} reverted (${hash})`);
  }
  options.logger.info({ adapter, curator }, "devnet: demo curator authorized on the tUSD adapter");
}

/**
 * The JSON body of POST /discount for `discount` on `adapter` with the signer's `signature`: uint256 values as
 * decimal strings, the deadline as a number (DiscountRequestSchema).
 */
export function discountRequestBody(
  adapter: Address,
  discount: Discount,
  signature: Hex,
): z.input<typeof DiscountRequestSchema> {
  return {
    discount: { adapter, ...discountTermsJson(discount) },
    signature,
  };
}

/** Signs the demo discount with the curator's key and publishes it through `POST {apiUrl}/discount`. */
export async function publishDemoDiscount(options: {
  apiUrl: string;
  chainId: number;
  publicClient: ChainPublicClient;
  adapter: Address;
  tokenToRedeem: Address;
  curator: LocalAccount;
  protocol: Address;
}): Promise<DemoDiscount> {
  const { adapter } = options;
  const latest = await options.publicClient.getBlock({ blockTag: "latest" });
  const discount: Discount = {
    tokenToRedeem: options.tokenToRedeem,
    discount: DEMO_DISCOUNT_PPM,
    signer: options.curator.address,
    protocol: options.protocol,
    // Random, so a restart never reuses a nonce (a used or cancelled one would be refused).
    nonce: BigInt(`0x${randomBytes(16).toString("hex")}`),
    deadline: Number(latest.timestamp) + DEMO_DISCOUNT_LIFETIME_SECONDS,
  };
  const signature = await signDiscount(options.curator, { chainId: options.chainId, adapter }, discount);
  const url = `${options.apiUrl}/discount`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(discountRequestBody(adapter, discount, signature)),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new DemoDiscountRejectedError(`POST ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  const text = await response.text();
  if (response.status !== 200) {
    throw new DemoDiscountRejectedError(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const { discountId } = JSON.parse(text) as { discountId: Hex };
  return { discountId, adapter, discount };
}
