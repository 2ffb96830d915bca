// The README's example, run as a person would against a fresh devnet: it must end with `filled`, a real txHash,
// settled amounts equal to the committed outputs, and balances moved by exactly those amounts.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { devnetClient, startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { collectOutput } from "../support/cli.ts";

describe("examples/swap.ts on a fresh devnet", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;
  beforeAll(async () => {
    devnet = await startTestDevnet(dataDir.path);
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("swaps end to end through the API, the bundled solvers and anvil", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "examples/swap.ts", "--data-dir", dataDir.path, "--json"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const output = collectOutput(child);
    const [code] = await once(child, "exit");
    const { stdout, stderr } = output();
    expect(code, stderr).toBe(0);
    // It followed the order on the stream and printed the live events.
    expect(stderr).toMatch(/^event snapshot +id \d+ open/m);
    expect(stderr).toMatch(/^event order +id \d+ filled 0x[0-9a-f]{64}/m);
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(summary).toMatchObject({ orderStatus: "filled", settledMatch: true, balancesMatch: true });
    const receipt = await devnetClient(devnet).getTransactionReceipt({ hash: summary.txHash });
    expect(receipt.status).toBe("success");
    expect(summary.settledAmounts).toEqual(
      summary.outputs.map((o: { token: string; recipient: string; amount: string }) => ({
        ...o,
        txHash: summary.txHash,
      })),
    );
  });
});
