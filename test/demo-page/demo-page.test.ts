// The swap demo page (/demo) in a real browser on a fresh devnet: the whole swap through its buttons, as a person
// does it, until the page shows `filled` and a fill transaction the chain confirms; an unfillable order cancelled with
// its Cancel button. And the relay it uses passes only reads and signed transactions. One browser, serially.
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { RELAYED_METHODS } from "../../src/devnet/rpc-relay.ts";
import { devnetClient, postJson, startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { launchBrowser, type TestBrowser } from "../support/browser.ts";

describe("the demo page on a fresh devnet", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;
  let browser: TestBrowser;
  beforeAll(async () => {
    [devnet, browser] = await Promise.all([startTestDevnet(dataDir.path), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("swaps through its buttons until the order is filled, showing every solver's quote and the fill", async () => {
    const page = await browser.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const origin = new URL(devnet.apiUrl).origin;
    await page.goto(`${origin}/demo`);

    const wallet = (await page.locator("#wallet").textContent({ timeout: 20_000 }))!;
    expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await page.click("#fund");
    await page.waitForSelector("#quote:not([disabled])", { timeout: 30_000 });
    expect(await page.locator("#balances").textContent()).toMatch(
      /^[\d.]+ ETH, [\d.]+ tRWA, [\d.]+ tUSD, [\d.]+ tUSDT$/,
    );

    await page.fill("#amount", "25");
    await page.selectOption("#token-out", { label: "tUSD" });
    await page.click("#quote");
    await page.waitForSelector("#approve:not([disabled])", { timeout: 30_000 });
    const rows = page.locator("#quotes tr.quote");
    expect(await rows.count()).toBe(2);
    const solverNames = await rows.locator("td:nth-child(2)").allTextContents();
    expect(solverNames.sort()).toEqual(devnet.bundled.deployment.solvers.map((solver) => solver.name).sort());
    expect(await rows.first().locator("td:nth-child(3)").textContent()).toMatch(/^\d+(\.\d+)? tUSD$/);
    // Each solver's logo is served and loaded.
    const logosLoaded = await rows
      .locator("img.logo")
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0));
    expect(logosLoaded).toEqual([true, true]);

    await page.click("#approve");
    await page.waitForFunction(() => document.getElementById("approval")?.textContent !== "", undefined, {
      timeout: 30_000,
    });
    expect(await page.locator("#approval").textContent()).toMatch(/^approved in 0x[0-9a-f]{64}$/);

    await page.click("#submit");
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "filled", undefined, {
      timeout: 45_000,
    });
    // It followed the order on the stream: the live events list shows the order's events up to the fill.
    const events = await page.locator("#events li").allTextContents();
    expect(events[0]).toMatch(/^snapshot #\d+ open$/);
    expect(events.at(-1)).toMatch(/^order #\d+ filled$/);
    expect(await page.locator("#events-note").textContent()).toBe("");
    const txHash = (await page.locator("#tx-hash").textContent()) as Hex;
    const receipt = await devnetClient(devnet).getTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe("success");
    const settled = await page.locator("#settled li").allTextContents();
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatch(new RegExp(`^\\d+(\\.\\d+)? tUSD to ${wallet.toLowerCase()}$`));
    expect(await page.locator("#error").textContent()).toBe("");
    expect(pageErrors).toEqual([]);
  });

  it("explains: the minimum for a too-small amount, a re-quote on every change, an over-balance swap stopped before signing, two swaps without a reload", async () => {
    const page = await browser.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${new URL(devnet.apiUrl).origin}/demo`);
    await page.locator("#wallet").textContent({ timeout: 20_000 });
    await page.click("#fund");
    await page.waitForSelector("#quote:not([disabled])", { timeout: 30_000 });
    await page.selectOption("#token-out", { label: "tUSD" });
    const bestOutput = () =>
      page.locator("#quotes tr.quote").first().locator("td:nth-child(3)").textContent();

    // Below the input token's minimum: the server's reason and the minimum, in token units.
    await page.fill("#amount", "0.001");
    await page.click("#quote");
    await page.waitForFunction(() => document.getElementById("error")?.textContent?.includes("NO_QUOTES"));
    expect(await page.locator("#error").textContent()).toMatch(
      /^404 NO_QUOTES: No quotes available \(amount below the input token's minimum; the minimum is 0\.01 tRWA\) \[X-Request-Id [0-9a-f-]{36}\]$/,
    );

    // Changing the amount quotes again by itself, and clears the error.
    await page.fill("#amount", "25");
    await page.waitForSelector('#quotes[data-amount="25"]:not([hidden]) tr.quote', { timeout: 30_000 });
    expect(await page.locator("#error").textContent()).toBe("");
    const for25 = await bestOutput();
    expect(await page.locator("#quote-expiry").textContent()).toMatch(
      /^The best quote is good for \d+ s more/,
    );
    await page.fill("#amount", "30");
    await page.waitForSelector('#quotes[data-amount="30"]:not([hidden]) tr.quote', { timeout: 30_000 });
    expect(await bestOutput()).not.toBe(for25);

    // The first swap.
    await page.click("#approve");
    await page.waitForFunction(() => document.getElementById("approval")?.textContent !== "", undefined, {
      timeout: 30_000,
    });
    await page.click("#submit");
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "filled", undefined, {
      timeout: 45_000,
    });
    const first = await page.locator("#order-id").textContent();

    // More than the wallet holds: stopped before signing, with what it holds and what the swap needs.
    await page.fill("#amount", "50000");
    await page.waitForSelector('#quotes[data-amount="50000"]:not([hidden]) tr.quote', { timeout: 30_000 });
    await page.waitForSelector("#submit:not([disabled])", { timeout: 30_000 });
    await page.click("#submit");
    await page.waitForFunction(() =>
      document.getElementById("error")?.textContent?.startsWith("Not enough tRWA"),
    );
    expect(await page.locator("#error").textContent()).toMatch(
      /^Not enough tRWA: this wallet holds [\d.]+, the swap needs 50000\. Fund it again \(step 1\) or lower the amount\. Nothing was signed\.$/,
    );
    expect(await page.locator("#order-id").textContent()).toBe(first);

    // A second swap on the same page: quote, approve, submit, filled.
    await page.fill("#amount", "20");
    await page.waitForSelector('#quotes[data-amount="20"]:not([hidden]) tr.quote', { timeout: 30_000 });
    await page.click("#approve");
    await page.waitForFunction(() => document.getElementById("approval")?.textContent !== "", undefined, {
      timeout: 30_000,
    });
    await page.click("#submit");
    await page.waitForFunction(
      (before) =>
        document.getElementById("order-id")?.textContent !== before &&
        document.getElementById("status")?.textContent === "filled",
      first,
      { timeout: 45_000 },
    );
    expect(await page.locator("#error").textContent()).toBe("");
    expect(pageErrors).toEqual([]);
  });

  it("relays reads and signed transactions only: the devnet's unlocked accounts and anvil's methods are refused", async () => {
    const relay = `${devnet.apiUrl}/dev/rpc`;
    const chainId = await postJson(relay, { jsonrpc: "2.0", id: 1, method: "eth_chainId" });
    expect(chainId.json).toEqual({ jsonrpc: "2.0", id: 1, result: `0x${devnet.chain.chainId.toString(16)}` });
    for (const method of [
      "eth_sendTransaction",
      "eth_accounts",
      "anvil_setBalance",
      "evm_mine",
      "eth_sign",
    ]) {
      expect(RELAYED_METHODS).not.toContain(method);
      const refused = await postJson(relay, { jsonrpc: "2.0", id: 7, method, params: [] });
      expect(refused.status).toBe(200);
      expect(refused.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
    }
    const malformed = await postJson(relay, { id: 1, method: "eth_chainId" });
    expect(malformed.status).toBe(400);
  });

  it("cancels an open order nobody fills with its Cancel button (last: the solvers stop filling): the status becomes cancelled", async () => {
    const page = await browser.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${new URL(devnet.apiUrl).origin}/demo`);
    await page.locator("#wallet").textContent({ timeout: 20_000 });
    await page.click("#fund");
    await page.waitForSelector("#quote:not([disabled])", { timeout: 30_000 });
    await page.fill("#amount", "5");
    await page.selectOption("#token-out", { label: "tUSD" });
    await page.click("#quote");
    await page.waitForSelector("#approve:not([disabled])", { timeout: 30_000 });
    await page.click("#approve");
    await page.waitForFunction(() => document.getElementById("approval")?.textContent !== "", undefined, {
      timeout: 30_000,
    });
    // The bundled solvers stop filling (they still quote): the order stays open until the swapper cancels it.
    await devnet.bundled.stopFilling();
    await page.click("#submit");
    await page.waitForSelector("#cancel:not([disabled])", { timeout: 30_000 });
    await page.click("#cancel");
    // The status (from the order's watch) and the transaction's receipt (the cancel step's) arrive in either order.
    await page.waitForFunction(
      () =>
        document.getElementById("status")?.textContent === "cancelled" &&
        document.getElementById("cancel-tx")?.textContent?.startsWith("nonce invalidated in "),
      undefined,
      { timeout: 45_000 },
    );
    const sent = (await page.locator("#cancel-tx").textContent())!;
    expect(sent).toMatch(/^nonce invalidated in 0x[0-9a-f]{64}$/);
    const receipt = await devnetClient(devnet).getTransactionReceipt({ hash: sent.split(" ").at(-1) as Hex });
    expect(receipt.status).toBe("success");
    expect(await page.locator("#error").textContent()).toBe("");
    expect(pageErrors).toEqual([]);
  });
});
