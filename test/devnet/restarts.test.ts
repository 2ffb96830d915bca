// Ten starts of the real `sluice serve` devnet on one data directory, stopped every way an operator stops it:
// SIGTERM to the server, SIGTERM to `npm start`'s npm alone (the server notices it is orphaned), SIGINT to the process
// group (Ctrl-C), SIGKILL of the whole process group after start-up, and SIGKILL of the server and anvil's watchdog
// (the next start stops the anvil left behind). Every start keeps the contract addresses, the filled order and a
// published discount, and never resets the swap state; every start's log is quiet and useful.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createChainPublicClient } from "../../src/chain/client.ts";
import { publishDemoDiscount } from "../../src/demo/discount.ts";
import { devnetAccounts } from "../../src/devnet/accounts.ts";
import { OrdersResponseSchema } from "../../src/orders/schemas.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { isAlive, waitUntilGone } from "../support/processes.ts";
import { type DevnetProcess, startDevnetProcess, stopDevnetProcesses } from "./process.ts";
import { getJson, postJson, swapUntilFilled, temporaryDataDir } from "./support.ts";

const ONE_RWA = 10n ** 18n;
const CHAIN_ID = 31337;
/** How long an orphaned server may take to stop everything (issue 10, item 9). */
const ORPHAN_STOP_MS = 5_000;

interface Addresses {
  reactor: Address;
  executors: Address[];
  adapters: Address[];
  tokens: Address[];
}

describe("devnet restarts (real processes, one data directory)", () => {
  const dataDir = temporaryDataDir();
  const accounts = devnetAccounts();
  const runs: DevnetProcess[] = [];
  let first: Addresses;
  let order: { orderId: string; txHash: string };

  // A failed step stops what it left running, so the next one starts from a stopped devnet.
  afterEach(async (context) => {
    if (context.task.result?.state === "fail") await stopDevnetProcesses();
  });
  afterAll(async () => {
    await stopDevnetProcesses();
    dataDir.remove();
  });

  async function start(via: "node" | "npm" = "node"): Promise<DevnetProcess> {
    const run = await startDevnetProcess(dataDir.path, { via });
    runs.push(run);
    return run;
  }

  /** What deployment.json (rewritten at every start) says is deployed. */
  function deployedAddresses(): Addresses {
    const deployment = JSON.parse(readFileSync(join(dataDir.path, "devnet", "deployment.json"), "utf8"));
    return {
      reactor: deployment.reactor,
      executors: deployment.executors,
      adapters: deployment.adapters.map((adapter: { address: Address }) => adapter.address),
      tokens: [...deployment.inputTokens, ...deployment.outputTokens].map(
        (t: { address: Address }) => t.address,
      ),
    };
  }

  /**
   * The run reused the first run's contracts and kept its swap state. Soft assertions: a run that lost them is
   * reported, and the step goes on to stop it the way it meant to, so every stop mode is still tried.
   */
  async function expectKept(run: DevnetProcess): Promise<void> {
    const chainReady = await run.waitForLog(
      (line) => line.msg === "devnet chain ready",
      "devnet chain ready",
    );
    expect.soft(chainReady).toMatchObject({ reactor: first.reactor, deployedNow: false });
    expect.soft(deployedAddresses()).toEqual(first);
    expect
      .soft(run.logs.filter((line) => /chain behind the stored swap state changed/.test(String(line.msg))))
      .toEqual([]);
    await expectSwapState(run);
  }

  /** The first run's filled order and its discount, as the API shows them. */
  async function expectSwapState(run: DevnetProcess): Promise<void> {
    const { orders } = OrdersResponseSchema.parse(
      (await getJson(`${run.apiUrl}/orders?orderId=${order.orderId}`)).json,
    );
    expect
      .soft(orders.map((o) => [o.orderId, o.orderStatus, o.txHash]))
      .toEqual([[order.orderId, "filled", order.txHash]]);

    // The discount published in the first run on the tUSDT adapter is still live: the internal solver is offered it.
    const request = {
      tokenInChainId: CHAIN_ID,
      tokenOutChainId: CHAIN_ID,
      tokenIn: first.tokens[0],
      tokenOut: first.tokens[2],
      type: "EXACT_INPUT",
      amount: (10n * ONE_RWA).toString(),
      swapper: accounts.demo[1]!.account.address,
      outputs: [{ token: first.tokens[2] }],
    };
    // As a wallet does: a server just started may shed a round while its event loop catches up (503 OVERLOADED,
    // Retry-After), on a machine the other test files load too.
    let quote = await postJson(`${run.apiUrl}/quote`, request);
    for (let retries = 0; quote.status === 503 && retries < 5; retries++) {
      expect((quote.json as { error?: { code?: string } }).error?.code).toBe("OVERLOADED");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      quote = await postJson(`${run.apiUrl}/quote`, request);
    }
    expect.soft(quote.status, JSON.stringify(quote.json)).toBe(200);
    if (quote.status !== 200) return;
    const { requestId } = QuoteResponseSchema.parse(quote.json);
    const offered = await run.waitForLog(
      (line) =>
        line.msg === "quote request" && line.solver === "sluice_alpha" && line.requestId === requestId,
      "sluice_alpha's quote request",
    );
    // The only discount on that adapter.
    expect.soft(offered.discountLegs).toBe(1);
  }

  async function stopWithSigterm(run: DevnetProcess): Promise<void> {
    process.kill(run.serverPid, "SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(run.anvilPid, 15_000)).toBe(true);
  }

  it("start 1 deploys; an order is filled and a discount published; SIGTERM to the server exits 0", async () => {
    const run = await start();
    const chainReady = await run.waitForLog(
      (line) => line.msg === "devnet chain ready",
      "devnet chain ready",
    );
    expect(chainReady.deployedNow).toBe(true);
    first = deployedAddresses();
    expect(chainReady.reactor).toBe(first.reactor);
    const [rwa, usd] = first.tokens as [Address, Address];

    order = await swapUntilFilled({
      apiUrl: run.apiUrl,
      rpcUrl: String(chainReady.rpcUrl),
      chainId: CHAIN_ID,
      reactor: first.reactor,
      swapper: accounts.demo[0]!.account,
      tokenIn: rwa,
      tokenOut: usd,
      amount: 100n * ONE_RWA,
    });
    // The market maker may sign discounts on both adapters; the demo curator's is on tUSD and replaced at every start.
    await publishDemoDiscount({
      apiUrl: run.apiUrl,
      chainId: CHAIN_ID,
      publicClient: createChainPublicClient({ chainId: CHAIN_ID, rpcUrls: String(chainReady.rpcUrl) }),
      adapter: first.adapters[1]!,
      tokenToRedeem: rwa,
      curator: accounts.marketMaker.account,
      protocol: accounts.protocol.account.address,
    });
    await expectSwapState(run);
    await stopWithSigterm(run);
  }, 180_000);

  it("start 2 by npm: SIGTERM to npm alone, and the orphaned server stops with anvil within 5 s", async () => {
    const run = await start("npm");
    await expectKept(run);
    const signalled = Date.now();
    process.kill(run.leader.pid!, "SIGTERM");
    expect(await waitUntilGone(run.serverPid, ORPHAN_STOP_MS)).toBe(true);
    expect(await waitUntilGone(run.anvilPid, Math.max(0, ORPHAN_STOP_MS - (Date.now() - signalled)))).toBe(
      true,
    );
    await run.outputClosed;
    expect(run.logs.find((line) => line.msg === "shutdown requested")).toMatchObject({ reason: "orphaned" });
  }, 120_000);

  it("start 3: SIGINT to the process group (Ctrl-C) stops everything, exit 0", async () => {
    const run = await start();
    await expectKept(run);
    run.signalGroup("SIGINT");
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(run.anvilPid, 15_000)).toBe(true);
  }, 120_000);

  it("start 4, then SIGKILL of the whole process group after start-up", async () => {
    const run = await start();
    await expectKept(run);
    run.signalGroup("SIGKILL");
    expect((await run.exited).signal).toBe("SIGKILL");
  }, 120_000);

  it("start 5, then SIGKILL of the server and anvil's watchdog: start 6 stops the anvil left behind first", async () => {
    const killed = await start();
    await expectKept(killed);
    expect(killed.watchdogPid).toBeDefined();
    process.kill(killed.watchdogPid!, "SIGKILL");
    process.kill(killed.serverPid, "SIGKILL");
    await killed.exited;
    expect(isAlive(killed.anvilPid)).toBe(true);

    const run = await start();
    expect(isAlive(killed.anvilPid)).toBe(false);
    expect(
      run.logs.find((line) => line.msg === "devnet: stopping a process a previous run left behind"),
    ).toMatchObject({ role: "anvil", pid: killed.anvilPid, signal: "SIGINT" });
    await expectKept(run);
    await stopWithSigterm(run);
  }, 180_000);

  it("starts 7 to 10 (SIGKILL of the process group after start 8) keep everything", async () => {
    for (const stop of ["SIGTERM", "SIGKILL", "SIGTERM", "SIGTERM"] as const) {
      const run = await start();
      await expectKept(run);
      if (stop === "SIGKILL") {
        run.signalGroup("SIGKILL");
        await run.exited;
      } else {
        await stopWithSigterm(run);
      }
    }
  }, 240_000);

  it("every start logs no ECONNREFUSED and no stack trace, its facts as one line, and no solver poll at info", () => {
    for (const run of runs) {
      const output = `${run.logs.map((line) => JSON.stringify(line)).join("\n")}\n${run.otherOutput()}`;
      expect(output).not.toMatch(/ECONNREFUSED/);
      expect(run.logs.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([]);
      const facts = run.logs.filter((line) => line.msg === "devnet ready");
      expect(facts).toHaveLength(1);
      expect(facts[0]).toMatchObject({
        apiUrl: run.apiUrl,
        rpcUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        chainId: CHAIN_ID,
        contracts: { reactor: first.reactor, executors: first.executors },
        tokens: first.tokens.map((address) => ({ symbol: expect.any(String), address })),
        demoAccounts: accounts.demo.map((demo) => ({
          address: demo.account.address,
          privateKey: demo.privateKey,
        })),
      });
      const polls = run.logs.filter((line) => line.msg === "request" && /solverId=/.test(String(line.url)));
      expect(polls.filter((line) => Number(line.level) >= 30)).toEqual([]);
    }
    expect(runs).toHaveLength(10);
  });
});
