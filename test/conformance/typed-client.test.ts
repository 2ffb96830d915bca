// A wallet client typed from the real backend's document only (openapi-typescript types of rfq-backend.openapi.json,
// called through openapi-fetch) runs the whole swap against a devnet: faucet, check_approval (and the approval sent),
// quote, the entry's signatureData signed unchanged with viem, order, then GET /orders until the bundled solvers
// filled it. Nothing of Sluice's own types is used for the calls. The committed types must be what the document
// generates today.
import { setTimeout as sleep } from "node:timers/promises";
import createClient from "openapi-fetch";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddress,
  isHex,
  type TypedDataDomain,
  type TypedDataParameter,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { committedClientTypes, generateClientTypes } from "./client-types.ts";
import type { components, paths } from "./rfq-backend.generated.ts";

type SignatureData = components["schemas"]["PublicQuoteResponse"]["quotes"][number]["signatureData"];

function address(value: string, what: string): Address {
  if (!isAddress(value, { strict: false })) throw new Error(`${what} is not an address: ${value}`);
  return value;
}

function hex(value: string, what: string): Hex {
  if (!isHex(value)) throw new Error(`${what} is not hex: ${value}`);
  return value;
}

/**
 * The entry's typed data as viem's signer takes it. The reference types `signatureData` loosely (maps of unknown),
 * so each part is checked and passed on as it is: nothing is added, dropped or re-encoded.
 */
function typedDataOf(data: SignatureData) {
  const { name, version, chainId, verifyingContract } = data.domain;
  if (typeof name !== "string" || typeof version !== "string" || typeof chainId !== "number") {
    throw new Error(`unexpected domain ${JSON.stringify(data.domain)}`);
  }
  const domain: TypedDataDomain = {
    name,
    version,
    chainId,
    verifyingContract: address(String(verifyingContract), "verifyingContract"),
  };
  expect(Object.keys(data.domain).sort()).toEqual(Object.keys(domain).sort());
  const types: Record<string, TypedDataParameter[]> = {};
  for (const [typeName, fields] of Object.entries(data.types)) {
    types[typeName] = fields.map((field) => {
      const { name: fieldName, type } = field;
      if (typeof fieldName !== "string" || typeof type !== "string" || Object.keys(field).length !== 2) {
        throw new Error(`unexpected field of ${typeName}: ${JSON.stringify(field)}`);
      }
      return { name: fieldName, type };
    });
  }
  return { domain, types, primaryType: data.primaryType, message: data.value };
}

describe("a client typed from rfq-backend.openapi.json", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;

  beforeAll(async () => {
    devnet = await startTestDevnet(dataDir.path);
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("its committed types are what the reference document generates", async () => {
    expect(committedClientTypes()).toBe(await generateClientTypes());
  });

  it("runs the whole swap: faucet, check_approval, quote, sign signatureData unchanged, order, poll until filled", async () => {
    const client = createClient<paths>({ baseUrl: new URL(devnet.apiUrl).origin });
    const swapper = privateKeyToAccount(generatePrivateKey());
    const transport = http(devnet.chain.rpcUrl);
    const chain = {
      id: devnet.chain.chainId,
      name: "devnet",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [devnet.chain.rpcUrl] } },
    } as const;
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 100 });
    const wallet = createWalletClient({ chain, transport, account: swapper });

    // The devnet's assets, then tokens and ETH for the fresh wallet.
    const faucet = await client.GET("/api/v1/dev/faucet");
    expect(faucet.response.status).toBe(200);
    const assets = faucet.data!.assets;
    const rwa = assets.find((asset) => asset.symbol === "tRWA")!;
    const usd = assets.find((asset) => asset.symbol === "tUSD")!;
    const funded = await client.POST("/api/v1/dev/faucet", { body: { walletAddress: swapper.address } });
    expect(funded.response.status, JSON.stringify(funded.error)).toBe(200);
    const amount = (10n ** BigInt(rwa.decimals) * 3n).toString();

    const approval = await client.POST("/api/v1/check_approval", {
      body: { walletAddress: swapper.address, chainId: devnet.chain.chainId, token: rwa.token, amount },
    });
    expect(approval.response.status, JSON.stringify(approval.error)).toBe(200);
    expect(approval.data!.cancel).toBeNull();
    const approve = approval.data!.approval!;
    const approveHash = await wallet.sendTransaction({
      to: address(approve.to, "approval.to"),
      data: hex(approve.data, "approval.data"),
      value: BigInt(approve.value),
    });
    expect((await publicClient.waitForTransactionReceipt({ hash: approveHash })).status).toBe("success");

    const quoted = await client.POST("/api/v1/quote", {
      body: {
        tokenInChainId: devnet.chain.chainId,
        tokenOutChainId: devnet.chain.chainId,
        tokenIn: rwa.token,
        tokenOut: usd.token,
        type: "EXACT_INPUT",
        amount,
        swapper: swapper.address,
        outputs: [{ token: usd.token }],
        // The generated types require it (the document gives it a default); Sluice accepts its one value.
        routingPreference: "BEST_PRICE",
      },
    });
    expect(quoted.response.status, JSON.stringify(quoted.error)).toBe(200);
    expect(quoted.data!.routing).toBe("Priority");
    const [entry] = quoted.data!.quotes;
    const signature = await swapper.signTypedData(typedDataOf(entry!.signatureData));

    const ordered = await client.POST("/api/v1/order", { body: { quote: entry!.quote, signature } });
    expect(ordered.response.status, JSON.stringify(ordered.error)).toBe(200);
    const { orderId } = ordered.data!;

    // Bounded by the test's time limit: a block a second, the bundled solvers poll twice a second.
    for (;;) {
      const listed = await client.GET("/api/v1/orders", { params: { query: { orderId } } });
      expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
      const [order] = listed.data!.orders;
      expect(order?.orderId).toBe(orderId);
      if (order!.orderStatus === "filled") {
        expect(order!.txHash).toMatch(/^0x[0-9a-f]{64}$/);
        const settled = order!.settledAmounts;
        expect(settled.map((output) => [output.token, output.recipient.toLowerCase()])).toEqual([
          [usd.token, swapper.address.toLowerCase()],
        ]);
        expect(BigInt(settled[0]!.amount)).toBeGreaterThanOrEqual(
          BigInt(entry!.quote.aggregatedOutputs[0]!.amount),
        );
        const receipt = await publicClient.getTransactionReceipt({ hash: hex(order!.txHash!, "txHash") });
        expect(receipt.status).toBe("success");
        break;
      }
      expect(order!.orderStatus).toBe("open");
      await sleep(250);
    }
  });
});
