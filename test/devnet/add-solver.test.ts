// `sluice devnet add-solver` against a running devnet, with a solver of the test's own: a real HTTP server that
// quotes per the protocol (test/support/solver-server.ts) and a filler that fills its won orders with the printed
// callerKey through the printed Executor. The solver is asked in the next auction without a restart, wins when it
// bids best, fills, survives a restart of the devnet, and `--remove` takes it out of the auctions and its Executor
// off the adapters.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { executorAbi, liquidLaneAdapterAbi } from "../../src/chain/abis.ts";
import { createChainWalletClient } from "../../src/chain/client.ts";
import { decodeOrder } from "../../src/chain/order.ts";
import { OrdersResponseSchema } from "../../src/orders/schemas.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { runSluice } from "../support/cli.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import {
  devnetClient,
  getJson,
  postJson,
  startTestDevnet,
  swapUntilFilled,
  temporaryDataDir,
} from "./support.ts";

interface AddedSolver {
  id: string;
  secret: string;
  executor: Address;
  callerKey: Hex;
  caller: Address;
  file: string;
}

/** The most the request's leg for its output token pays at its rate, less one unit for rounding. */
function bestAmountOut(request: SolverQuoteRequest): bigint {
  const leg = request.adapters.find((candidate) => candidate.asset === request.tokenOut);
  if (!leg) return 0n;
  return (BigInt(request.amount) * BigInt(leg.maxRate) * 10n ** BigInt(leg.assetDecimals)) / 10n ** 36n - 1n;
}

/**
 * The test solver's filler: polls its open orders and fills each through its Executor, from its calling account, with
 * one leg on the adapter paying the order's output token.
 */
function startFilling(devnet: DevnetSluice, solver: AddedSolver): { stop(): Promise<void> } {
  const client = devnetClient(devnet);
  const wallet = createChainWalletClient({
    chainId: devnet.chain.chainId,
    rpcUrls: devnet.chain.rpcUrl,
    account: privateKeyToAccount(solver.callerKey),
  });
  const adapters = devnet.chain.core.adapters;
  const tokens = devnet.chain.core.tokens;
  const done = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { orders } = OrdersResponseSchema.parse(
        (await getJson(`${devnet.apiUrl}/orders?solverId=${solver.id}&orderStatus=open`)).json,
      );
      for (const record of orders) {
        if (!record.encodedOrder || !record.protocolSignature || done.has(record.orderId)) continue;
        done.add(record.orderId);
        const order = decodeOrder(record.encodedOrder as Hex);
        const total = order.outputs.reduce((sum, output) => sum + output.amount, 0n);
        const tokenOut = order.outputs[0]!.token.toLowerCase();
        const hash = await wallet.writeContract({
          address: solver.executor,
          abi: executorAbi,
          functionName: "fill",
          args: [
            order,
            record.protocolSignature as Hex,
            [
              {
                adapter: tokenOut === tokens.usdt ? adapters.usdt : adapters.usd,
                swap: {
                  recipient: solver.executor,
                  tokenIn: order.request.tokenIn,
                  amountIn: order.request.amountIn,
                  amountOut: total,
                },
              },
            ],
            "0x",
          ],
        });
        await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
      }
      await sleep(200);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

async function quote(devnet: DevnetSluice, swapper: Address) {
  const { core } = devnet.chain;
  const answer = await postJson(`${devnet.apiUrl}/quote`, {
    tokenInChainId: devnet.chain.chainId,
    tokenOutChainId: devnet.chain.chainId,
    tokenIn: core.tokens.rwa,
    tokenOut: core.tokens.usd,
    type: "EXACT_INPUT",
    amount: (100n * 10n ** 18n).toString(),
    swapper,
    outputs: [{ token: core.tokens.usd }],
  });
  expect(answer.status).toBe(200);
  return QuoteResponseSchema.parse(answer.json).quotes.map((entry) => ({
    solverId: entry.solver.id,
    filler: entry.solver.filler,
    amount: BigInt(entry.quote.aggregatedOutputs[0]!.amount),
  }));
}

async function isFillerEverywhere(devnet: DevnetSluice, executor: Address): Promise<boolean[]> {
  const client = devnetClient(devnet);
  const { core } = devnet.chain;
  return Promise.all(
    Object.values(core.adapters).map((adapter) =>
      client.readContract({
        address: adapter,
        abi: liquidLaneAdapterAbi,
        functionName: "isFiller",
        args: [core.marketMaker, executor],
      }),
    ),
  );
}

function addSolver(dataDir: string, endpoint: string) {
  return runSluice(["devnet", "add-solver", "--name", "Test Maker", "--endpoint", endpoint, "--json"], {
    DATA_DIR: dataDir,
  });
}

describe("sluice devnet add-solver", () => {
  const dir = temporaryDataDir();
  let devnet: DevnetSluice;
  let solver: ScriptedSolver;
  let added: AddedSolver;

  beforeAll(async () => {
    [devnet, solver] = await Promise.all([
      startTestDevnet(dir.path),
      startScriptedSolver({ kind: "decline" }),
    ]);
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    await solver?.close();
    dir.remove();
  });

  it("adds a solver that the next auction asks, without a restart; it wins when it bids best and fills", async () => {
    const swapper = devnet.chain.accounts.demo[1]!.account;
    const run = await addSolver(dir.path, solver.url);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    added = JSON.parse(run.stdout) as AddedSolver;
    expect(added).toMatchObject({
      id: "devnet_test_maker",
      executor: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    expect(privateKeyToAccount(added.callerKey).address.toLowerCase()).toBe(added.caller);
    // What it printed is in a file only its owner reads, beside the admin token.
    expect(added.file).toBe(join(dir.path, "devnet", "solver-devnet_test_maker.json"));
    expect(statSync(added.file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir.path, "admin-token")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir.path, "devnet", "added-solvers.json")).mode & 0o777).toBe(0o600);
    expect(await isFillerEverywhere(devnet, added.executor)).toEqual([true, true]);

    // Asked by the very next auction, with its secret; a low bid ranks below the bundled solvers.
    solver.setBehaviour({
      kind: "quote",
      filler: added.executor,
      amountOut: (request) => bestAmountOut(request) / 2n,
    });
    const low = await quote(devnet, swapper.address);
    expect(low.map((entry) => entry.solverId)).toContain("devnet_test_maker");
    expect(low[0]!.solverId).not.toBe("devnet_test_maker");
    expect(solver.requests.at(-1)?.secret).toBe(added.secret);

    // Its best bid wins: the order is its, and it fills it through its Executor with the printed key.
    solver.setBehaviour({ kind: "quote", filler: added.executor, amountOut: bestAmountOut });
    const best = await quote(devnet, swapper.address);
    expect(best[0]).toMatchObject({ solverId: "devnet_test_maker", filler: added.executor });
    const filling = startFilling(devnet, added);
    try {
      const { orderId, txHash } = await swapUntilFilled({
        apiUrl: devnet.apiUrl,
        rpcUrl: devnet.chain.rpcUrl,
        chainId: devnet.chain.chainId,
        reactor: devnet.chain.core.reactor,
        swapper,
        tokenIn: devnet.chain.core.tokens.rwa,
        tokenOut: devnet.chain.core.tokens.usd,
        amount: 100n * 10n ** 18n,
      });
      const receipt = await devnetClient(devnet).getTransactionReceipt({ hash: txHash });
      expect(receipt.from.toLowerCase()).toBe(added.caller);
      expect(receipt.to?.toLowerCase()).toBe(added.executor);
      // The order is the solver's: its polls by id list it, filled.
      const { orders } = OrdersResponseSchema.parse(
        (await getJson(`${devnet.apiUrl}/orders?orderId=${orderId}&solverId=devnet_test_maker`)).json,
      );
      expect(orders.map((order) => [order.orderId, order.orderStatus])).toEqual([[orderId, "filled"]]);
    } finally {
      await filling.stop();
    }
  });

  it("keeps the added solver across a restart of the devnet, with the same secret and Executor", async () => {
    const tokenBefore = readFileSync(join(dir.path, "admin-token"), "utf8").trim();
    await devnet.sluice.stop();
    devnet = await startTestDevnet(dir.path);
    // The admin routes take this run's token only: none, or the last run's, is refused.
    const token = readFileSync(join(dir.path, "admin-token"), "utf8").trim();
    const admin = (bearer?: string) =>
      fetch(`${devnet.internalApiUrl}/admin/solvers`, {
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      }).then((response) => response.status);
    expect([await admin(), await admin(tokenBefore), await admin(token)]).toEqual([401, 401, 200]);
    const asked = solver.requests.length;
    const entries = await quote(devnet, devnet.chain.accounts.demo[2]!.account.address);
    expect(entries[0]).toMatchObject({ solverId: "devnet_test_maker", filler: added.executor });
    expect(solver.requests.length).toBe(asked + 1);
    expect(solver.requests.at(-1)?.secret).toBe(added.secret);
  });

  it("--remove takes it out of the next auction and its Executor off the adapters", async () => {
    const run = await runSluice(["devnet", "add-solver", "--name", "Test Maker", "--remove"], {
      DATA_DIR: dir.path,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const asked = solver.requests.length;
    const entries = await quote(devnet, devnet.chain.accounts.demo[2]!.account.address);
    expect(entries.map((entry) => entry.solverId)).not.toContain("devnet_test_maker");
    expect(solver.requests.length).toBe(asked);
    expect(await isFillerEverywhere(devnet, added.executor)).toEqual([false, false]);
    const again = await runSluice(["devnet", "add-solver", "--name", "Test Maker", "--remove"], {
      DATA_DIR: dir.path,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No solver devnet_test_maker/);
  });

  it("refuses without a running devnet, naming what to do", async () => {
    const empty = temporaryDataDir();
    try {
      const run = await addSolver(empty.path, solver.url);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/no devnet is running on DATA_DIR .*start it with `npm start`/);
    } finally {
      empty.remove();
    }
  });
});
