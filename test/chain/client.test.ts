// The chain clients against anvil: fallback over RPC URLs, JSON-RPC batching, the chain definition, and revert
// decoding of raw data.
import { encodeErrorResult, parseEther } from "viem";
import { describe, expect, it, vi } from "vitest";
import { reactorAbi } from "../../src/chain/abis.ts";
import {
  createChainPublicClient,
  createChainWalletClient,
  defineSluiceChain,
} from "../../src/chain/client.ts";
import { decodeRevert } from "../../src/chain/errors.ts";
import { RpcUnreachableError, rpcUnreachable } from "../../src/chain/unavailable.ts";
import type { OutageLog } from "../../src/outages.ts";
import { TEST_CHAIN_ID, useTestChain } from "../support/anvil.ts";
import { revertErrorName } from "../support/reverts.ts";

const chain = useTestChain({ deploy: false });
/** Nothing listens on port 1: connections are refused at once. */
const DEAD_URL = "http://127.0.0.1:1";

describe("chain clients", () => {
  it("define the chain from its id and RPC URLs", () => {
    const defined = defineSluiceChain({
      chainId: 560048,
      rpcUrls: ["http://a", " http://b "],
      name: "hoodi",
    });
    expect(defined.id).toBe(560048);
    expect(defined.name).toBe("hoodi");
    expect(defined.rpcUrls.default.http).toEqual(["http://a", "http://b"]);
    expect(defined.contracts?.multicall3).toBeUndefined();
    expect(() => defineSluiceChain({ chainId: 1, rpcUrls: [] })).toThrow(/RPC URL/);
  });

  it("fall back to the next RPC URL when one is down", async () => {
    const client = createChainPublicClient({
      chainId: TEST_CHAIN_ID,
      rpcUrls: [DEAD_URL, chain.rpcUrl],
      retryCount: 0,
    });
    expect(await client.getChainId()).toBe(TEST_CHAIN_ID);
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
  });

  it("try a URL that failed after the others for a while, then first again", async () => {
    const tried: string[] = [];
    const record = { onFetchRequest: (request: Request) => void tried.push(new URL(request.url).port) };
    const deadPort = new URL(DEAD_URL).port;
    const client = createChainPublicClient({
      chainId: TEST_CHAIN_ID,
      rpcUrls: [DEAD_URL, chain.rpcUrl],
      retryCount: 0,
      failoverBenchMs: 300,
      http: record,
    });
    for (let i = 0; i < 3; i++) await client.getBlockNumber({ cacheTime: 0 });
    // The dead URL costs the first request only; the next go straight to the live one.
    expect(tried.filter((port) => port === deadPort)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await client.getBlockNumber({ cacheTime: 0 });
    expect(tried.filter((port) => port === deadPort)).toHaveLength(2);
  });

  it("mark a request no URL answered with the chain's name, and tell its outage log once", async () => {
    const outage = { failed: vi.fn(), succeeded: vi.fn() };
    const client = createChainPublicClient({
      chainId: TEST_CHAIN_ID,
      name: "anvil",
      rpcUrls: [DEAD_URL, DEAD_URL],
      retryCount: 0,
      outage: outage as unknown as OutageLog,
    });
    const failure = await client.getBlockNumber().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcUnreachableError);
    expect((failure as RpcUnreachableError).chain).toEqual({ chainId: TEST_CHAIN_ID, name: "anvil" });
    expect(outage.failed).toHaveBeenCalledTimes(1);
    // A revert is an answer: the chain is reachable, and the call's own failure is no outage.
    const live = createChainPublicClient({
      chainId: TEST_CHAIN_ID,
      rpcUrls: chain.rpcUrl,
      outage: outage as unknown as OutageLog,
    });
    const reverted = await live
      .call({ to: "0x0000000000000000000000000000000000000001", data: "0x12" })
      .catch((error: unknown) => error);
    expect(rpcUnreachable(reverted)).toBeUndefined();
    expect(outage.succeeded).toHaveBeenCalled();
  });

  it("batch concurrent requests into one HTTP request", async () => {
    let httpRequests = 0;
    let rpcCalls = 0;
    const client = createChainPublicClient({
      chainId: TEST_CHAIN_ID,
      rpcUrls: chain.rpcUrl,
      http: {
        onFetchRequest: async (request) => {
          httpRequests++;
          const body = JSON.parse(await request.clone().text()) as unknown;
          rpcCalls += Array.isArray(body) ? body.length : 1;
        },
      },
    });
    const balances = await Promise.all(
      Object.values(chain.accounts).map((account) => client.getBalance({ address: account.address })),
    );
    expect(balances.every((b) => b > 0n)).toBe(true);
    expect(rpcCalls).toBe(balances.length);
    expect(httpRequests).toBe(1);
  });

  it("send transactions from a local account", async () => {
    const wallet = createChainWalletClient({
      chainId: TEST_CHAIN_ID,
      rpcUrls: [DEAD_URL, chain.rpcUrl],
      retryCount: 0,
      account: chain.accounts.other,
    });
    const to = chain.accounts.feeRecipient.address;
    const before = await chain.publicClient.getBalance({ address: to });
    const hash = await wallet.sendTransaction({ to, value: parseEther("1") });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(await chain.publicClient.getBalance({ address: to })).toBe(before + parseEther("1"));
  });
});

describe("revert decoding", () => {
  it("names the project's errors from raw revert data", () => {
    const data = encodeErrorResult({ abi: reactorAbi, errorName: "InvalidOutput" });
    expect(revertErrorName(data)).toBe("InvalidOutput");
    expect(revertErrorName(new Error("wrapped", { cause: { data } }))).toBe("InvalidOutput");
    const decoded = decodeRevert(
      encodeErrorResult({
        abi: reactorAbi,
        errorName: "SafeERC20FailedOperation",
        args: [chain.accounts.other.address],
      }),
    );
    expect(decoded?.name).toBe("SafeERC20FailedOperation");
    expect(decoded?.args).toEqual([chain.accounts.other.address]);
    expect(revertErrorName(new Error("no data"))).toBeUndefined();
    expect(revertErrorName(undefined)).toBeUndefined();
    expect(revertErrorName("0x12345678")).toBeUndefined();
  });
});
