// The adapter reader against anvil: every value of DESIGN §3 for a set of adapters and one input token, read in
// ONE eth_call per block (deployless multicall: no Multicall contract on the devnet), refreshed when a market
// maker or a token list changes, and pinned to the requested block.
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { liquidLaneAdapterAbi } from "../../src/chain/abis.ts";
import { AdapterReader } from "../../src/chain/adapter-reader.ts";
import { createChainPublicClient } from "../../src/chain/client.ts";
import { asChainUnavailable, rpcUnreachable } from "../../src/chain/unavailable.ts";
import { DEFAULT_VAULT_LIQUIDITY } from "../../src/devnet/deploy.ts";
import { addressFromSeed, useTestChain } from "../support/anvil.ts";

const chain = useTestChain();

function countingClient() {
  const counts = { http: 0, ethCall: 0, other: 0 };
  const client = createChainPublicClient({
    chainId: chain.chainId,
    rpcUrls: chain.rpcUrl,
    http: {
      onFetchRequest: async (request) => {
        counts.http++;
        const body = JSON.parse(await request.clone().text()) as { method: string } | { method: string }[];
        for (const call of Array.isArray(body) ? body : [body]) {
          if (call.method === "eth_call") counts.ethCall++;
          else counts.other++;
        }
      },
    },
  });
  return { client, counts };
}

async function write(
  functionName: string,
  args: readonly unknown[],
  adapter: Address,
  from = chain.accounts.deployer,
) {
  const hash = await chain.wallet(from).writeContract({
    address: adapter,
    abi: liquidLaneAdapterAbi,
    functionName,
    args,
  } as Parameters<ReturnType<typeof chain.wallet>["writeContract"]>[0]);
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

describe("AdapterReader", () => {
  it("reads every adapter value for a token in one eth_call per block", async () => {
    const { core, accounts } = chain;
    const { client, counts } = countingClient();
    const reader = new AdapterReader(client);
    const executor = core.executors[0]!;
    const params = {
      adapters: [core.adapters.usd, core.adapters.usdt],
      tokenIn: { address: core.tokens.rwa, decimals: 18 },
      fillers: [executor, accounts.marketMaker.address, accounts.other.address],
    };

    const first = await reader.read({ ...params, blockNumber: await chain.publicClient.getBlockNumber() });
    expect(first.roundTrips).toBe(2); // the first read learns vault → asset, the market maker and the token list
    const [usd, usdt] = first.adapters;
    expect(usd).toMatchObject({
      adapter: core.adapters.usd,
      ok: true,
      failedReads: [],
      vault: core.vaults.usd,
      asset: core.tokens.usd,
      tokensToRedeem: [core.tokens.rwa],
      acceptsTokenIn: true,
      paused: false,
      owner: core.deployer,
      marketMaker: core.marketMaker,
      maxAssets: DEFAULT_VAULT_LIQUIDITY,
      maxRate: 999_500_000_000_000_000n,
      amountOutPerUnit: 1_000_000n,
      minDiscount: 500n,
    });
    expect(usd!.fillers).toEqual([
      { filler: executor, isFiller: true, authorized: true },
      { filler: accounts.marketMaker.address, isFiller: false, authorized: true },
      { filler: accounts.other.address, isFiller: false, authorized: false },
    ]);
    expect(usdt).toMatchObject({
      asset: core.tokens.usdt,
      vault: core.vaults.usdt,
      acceptsTokenIn: true,
      ok: true,
    });

    await chain.mine();
    counts.ethCall = 0;
    counts.http = 0;
    const steady = await reader.read({ ...params, blockNumber: await chain.publicClient.getBlockNumber() });
    expect(steady.roundTrips).toBe(1);
    expect(counts.ethCall).toBe(1);
    expect(steady.adapters).toEqual(first.adapters);
  });

  it("re-reads when the market maker or the token list changes, and stays pinned to the block", async () => {
    const { core, accounts } = chain;
    const reader = new AdapterReader(chain.publicClient);
    const executor = core.executors[0]!;
    const params = {
      adapters: [core.adapters.usd],
      tokenIn: { address: core.tokens.rwa, decimals: 18 },
      fillers: [executor],
    };
    const before = await chain.publicClient.getBlockNumber();
    await reader.read({ ...params, blockNumber: before });

    // A new market maker that has not named the executor; a second token to redeem; a pause.
    await write("setMarketMaker", [accounts.other.address, false], core.adapters.usd);
    await write("addTokenToRedeem", [core.tokens.usdt], core.adapters.usd);
    await write("pause", [], core.adapters.usd);
    const after = await chain.publicClient.getBlockNumber();

    const changed = await reader.read({ ...params, blockNumber: after });
    expect(changed.roundTrips).toBe(2);
    const [state] = changed.adapters;
    expect(state!.marketMaker).toBe(accounts.other.address);
    expect(state!.fillers).toEqual([{ filler: executor, isFiller: false, authorized: false }]);
    expect(state!.tokensToRedeem).toEqual([core.tokens.rwa, core.tokens.usdt]);
    expect(state!.paused).toBe(true);
    expect(state!.maxAssets).toBe(0n);

    // The same reader at the earlier block sees the earlier state.
    const old = await reader.read({ ...params, blockNumber: before });
    expect(old.adapters[0]).toMatchObject({
      marketMaker: core.marketMaker,
      paused: false,
      tokensToRedeem: [core.tokens.rwa],
      maxAssets: DEFAULT_VAULT_LIQUIDITY,
    });
    expect(old.adapters[0]!.fillers[0]!.isFiller).toBe(true);
  });

  it("reports a token the adapter does not take, and an address that is not an adapter", async () => {
    const { core } = chain;
    const reader = new AdapterReader(chain.publicClient);
    const notAdapter = addressFromSeed(0xdead);
    const snapshot = await reader.read({
      adapters: [core.adapters.usd, notAdapter],
      tokenIn: { address: core.tokens.usdt, decimals: 6 },
    });
    const [usd, missing] = snapshot.adapters;
    expect(usd).toMatchObject({
      ok: true,
      acceptsTokenIn: false,
      maxAssets: 0n,
      maxRate: null,
      amountOutPerUnit: null,
    });
    expect(usd!.failedReads).toEqual(["getMaxRate", "getAmountOut"]);
    expect(missing!.ok).toBe(false);
    expect(missing!.failedReads).toContain("vault");
  });

  it("splits a deployless read that would exceed the init-code limit, at one block, with the same answers", async () => {
    const { core, accounts } = chain;
    const executor = core.executors[0]!;
    // 2 adapters x (9 reads + 1 token + 100 fillers) = 220 reads (4 eth_calls of at most 64): ~56 KB of init code as one deployless call,
    // which anvil refuses (EIP-3860).
    const strangers = Array.from({ length: 98 }, (_, i) => addressFromSeed(0x5000 + i));
    const fillers = [executor, ...strangers, accounts.marketMaker.address];
    const params = {
      adapters: [core.adapters.usd, core.adapters.usdt],
      tokenIn: { address: core.tokens.rwa, decimals: 18 },
      fillers,
    };
    const { client, counts } = countingClient();
    const reader = new AdapterReader(client);
    await reader.read(params); // learns vault, asset, market maker and token list
    counts.ethCall = 0;
    const snapshot = await reader.read(params);
    expect(snapshot.roundTrips).toBe(4);
    expect(counts.ethCall).toBe(4);
    for (const state of snapshot.adapters) {
      expect(state).toMatchObject({ ok: true, failedReads: [], acceptsTokenIn: true });
      expect(state.fillers).toHaveLength(100);
      expect(state.fillers[0]).toEqual({ filler: executor, isFiller: true, authorized: true });
      expect(state.fillers.slice(1, 99).every((filler) => !filler.authorized)).toBe(true);
      expect(state.fillers[99]).toMatchObject({ authorized: true });
    }
    expect(snapshot.adapters[0]!.maxAssets).toBe(DEFAULT_VAULT_LIQUIDITY);

    // Twenty such reads at once (a /liquidity-batch): 80 eth_calls of ~44 KB of JSON each, sent in JSON-RPC
    // batches small enough for anvil's request-body limit.
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => reader.read(params)));
    for (const read of concurrent) expect(read.adapters).toEqual(snapshot.adapters);
  });
});

describe("AdapterReader with the chain out of reach", () => {
  it("throws the RPC failure rather than reading it as adapters that failed (zero capacity)", async () => {
    // A warm reader (its caches filled), then its RPC gone: viem's multicall with failures allowed reports the failed
    // eth_call as a failure of every call in it, which must not become "no capacity" (a 404 NO_QUOTES at /quote).
    let reachable = true;
    const client = createChainPublicClient({
      chainId: chain.chainId,
      name: "anvil",
      rpcUrls: chain.rpcUrl,
      retryCount: 0,
      http: {
        onFetchRequest: () => {
          if (!reachable) throw new Error("connect ECONNREFUSED (test)");
        },
      },
    });
    const reader = new AdapterReader(client);
    const params = {
      adapters: [chain.core.adapters.usd],
      tokenIn: { address: chain.core.tokens.rwa, decimals: 18 },
      blockNumber: await chain.publicClient.getBlockNumber(),
    };
    expect((await reader.read(params)).adapters[0]!.ok).toBe(true);
    reachable = false;
    const failure = await reader.read(params).catch((error: unknown) => error);
    expect(rpcUnreachable(failure)?.chain).toEqual({ chainId: chain.chainId, name: "anvil" });
    expect(asChainUnavailable(failure)?.shortMessage).toBe(
      `The chain anvil (${chain.chainId}) is unavailable: its RPC did not answer; retry shortly`,
    );
    reachable = true;
    expect((await reader.read(params)).adapters[0]!.ok).toBe(true);
  });
});
