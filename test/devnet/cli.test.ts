// `sluice serve` as a real process: with no deployment it runs the devnet and serves it, and exits 0 on SIGTERM
// after anvil has written its state; with a deployment it validates the file and the secrets first, names every
// bad field and exits non-zero, or serves that deployment (where the dev helpers answer 403).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { devnetAccounts } from "../../src/devnet/accounts.ts";
import { DevFaucetResponseSchema } from "../../src/devnet/schemas.ts";
import { SERVE_ENV } from "./process.ts";
import { getJson, temporaryDataDir } from "./support.ts";

interface Started {
  child: ChildProcess;
  /** Each JSON log line the process printed before it said it was serving. */
  logs: Array<Record<string, unknown>>;
  apiUrl: string;
  readyMs: number;
}

function spawnSluice(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["bin/sluice.mjs", "serve"], {
    env: {
      ...process.env,
      ...SERVE_ENV,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

async function startServing(env: Record<string, string>): Promise<Started> {
  const started = performance.now();
  const child = spawnSluice(env);
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const logs: Array<Record<string, unknown>> = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    logs.push(entry);
    if (entry.msg === "sluice is serving") {
      // Keep draining stdout so the process never blocks on a full pipe.
      child.stdout!.resume();
      return { child, logs, apiUrl: String(entry.apiUrl), readyMs: Math.round(performance.now() - started) };
    }
  }
  throw new Error(`sluice exited before serving (code ${child.exitCode}):\n${stderr}`);
}

async function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawnSluice(env);
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout!.resume();
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stderr };
}

describe("sluice serve (process)", () => {
  const dirs = [temporaryDataDir(), temporaryDataDir()];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
    for (const dir of dirs) dir.remove();
  });

  it("without a deployment runs the devnet: health, the faucet bundle, a deployment served; SIGTERM exits 0", async () => {
    const devnet = await startServing({ DATA_DIR: dirs[0]!.path, SLUICE_DEMO_DATA: "0" });
    children.push(devnet.child);
    console.info(`sluice serve (devnet, fresh data directory) ready in ${devnet.readyMs} ms`);
    const chainReady = devnet.logs.find((entry) => entry.msg === "devnet chain ready");
    expect(chainReady).toMatchObject({
      chainId: 31337,
      rpcUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(chainReady!.demoAccounts).toHaveLength(5);

    expect((await getJson(`${devnet.apiUrl}/health`)).json).toEqual({
      status: "ok",
      timestamp: expect.any(String),
    });
    const faucet = await getJson(`${devnet.apiUrl}/dev/faucet`);
    expect(faucet.status).toBe(200);
    expect(DevFaucetResponseSchema.parse(faucet.json).assets.map((a) => a.symbol)).toEqual([
      "tRWA",
      "tUSD",
      "tUSDT",
    ]);

    // The devnet's deployment.json, run as a deployment file by a second process: validated, served, and the dev
    // helpers refused (it names a local chain, but this process has no faucet).
    const protocolKey = devnetAccounts().protocol.privateKey;
    const served = await startServing({
      DATA_DIR: dirs[1]!.path,
      SLUICE_DEMO_DATA: "0",
      DEPLOYMENT_FILE: join(dirs[0]!.path, "devnet", "deployment.json"),
      RPC_URLS: String(chainReady!.rpcUrl),
      PUBLIC_URL: "http://127.0.0.1:8080",
      PROTOCOL_SIGNER_KEY: protocolKey,
      SLUICE_ALPHA_SHARED_SECRET: "alpha-secret",
      SLUICE_BETA_SHARED_SECRET: "beta-secret",
    });
    children.push(served.child);
    expect((await getJson(`${served.apiUrl}/health`)).status).toBe(200);
    const refused = await getJson(`${served.apiUrl}/dev/faucet`);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: "DEV_ONLY" } });
    served.child.kill("SIGTERM");
    expect((await once(served.child, "exit"))[0]).toBe(0);

    devnet.child.kill("SIGTERM");
    const [code] = await once(devnet.child, "exit");
    expect(code).toBe(0);
    // anvil was stopped with SIGINT, so it wrote the chain; the API and the RPC are gone.
    expect(existsSync(join(dirs[0]!.path, "devnet", "anvil-state.json"))).toBe(true);
    await expect(fetch(`${devnet.apiUrl}/health`)).rejects.toThrow();
    await expect(fetch(String(chainReady!.rpcUrl))).rejects.toThrow();
    // Two processes, each initialising a fresh embedded database: slow on a loaded 2-core CI machine.
  }, 240_000);

  it("DEPLOYMENT=mainnet without an operator file exits non-zero naming each missing field", async () => {
    const { code, stderr } = await runToExit({ DEPLOYMENT: "mainnet", DATA_DIR: dirs[1]!.path });
    expect(code).not.toBe(0);
    for (const field of [
      "executors",
      "adapterFactory",
      "protocolSigner",
      "inputTokens",
      "outputTokens",
      "solvers",
    ]) {
      expect(stderr).toContain(`${field}: required but missing`);
    }
  });

  it("a deployment file with a bad field, or a missing secret, exits non-zero naming it", async () => {
    const badFile = await runToExit({
      DEPLOYMENT_FILE: join(dirs[1]!.path, "missing.json"),
      DATA_DIR: dirs[1]!.path,
    });
    expect(badFile.code).not.toBe(0);
    expect(badFile.stderr).toContain("file not found");

    const noSecrets = await runToExit({
      DEPLOYMENT_FILE: join(dirs[0]!.path, "devnet", "deployment.json"),
      DATA_DIR: dirs[1]!.path,
      RPC_URLS: "http://127.0.0.1:1",
      PROTOCOL_SIGNER_KEY: devnetAccounts().deployer.privateKey,
    });
    expect(noSecrets.code).not.toBe(0);
    expect(noSecrets.stderr).toContain("env PROTOCOL_SIGNER_KEY: its address");
    expect(noSecrets.stderr).toContain("env SLUICE_ALPHA_SHARED_SECRET is not set");
    // Off the devnet, the URLs Sluice hands out never follow a request's Host header.
    expect(noSecrets.stderr).toContain("env PUBLIC_URL: required off the devnet");
  });
});
