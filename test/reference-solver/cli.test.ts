// The solver's config file (validation names the field and the reason; secrets come from the variables it names)
// and `sluice solver --config <file>` as a real process on anvil: it serves quotes, logs JSON, and stops on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InvalidSolverConfigError,
  loadSolverConfig,
  parseSolverConfig,
  readSolverSecrets,
} from "../../src/reference-solver/config.ts";
import { useTestChain } from "../support/anvil.ts";
import { collectOutput, REPO_ROOT, SLUICE_BIN } from "../support/cli.ts";
import { postSolverQuote, SOLVER_SECRET, solverKey, solverQuoteRequest } from "./support.ts";

const ADDRESS = `0x${"a".repeat(40)}`;

const valid = {
  solverId: "sluice_alpha",
  apiUrl: "http://127.0.0.1:8080/api/v1/",
  chainId: 31337,
  rpcUrls: ["http://127.0.0.1:8545"],
  executor: ADDRESS,
  reactor: ADDRESS,
  adapters: [ADDRESS],
  marginBps: 10,
  sharedSecretEnv: "SLUICE_ALPHA_SECRET",
  privateKeyEnv: "SLUICE_ALPHA_KEY",
};

function problems(value: unknown): Array<{ field: string; reason: string }> {
  try {
    parseSolverConfig(value, "test");
  } catch (error) {
    if (error instanceof InvalidSolverConfigError) return error.problems;
    throw error;
  }
  throw new Error("the config was accepted");
}

describe("solver config", () => {
  it("applies the defaults and normalises the API URL", () => {
    expect(parseSolverConfig(valid, "test")).toMatchObject({
      apiUrl: "http://127.0.0.1:8080/api/v1",
      port: 0,
      host: "127.0.0.1",
      basePath: "",
      pollIntervalMs: 500,
    });
  });

  it("names each bad field and the reason", () => {
    const { solverId: _missing, ...withoutId } = valid;
    expect(problems(withoutId)).toEqual([{ field: "solverId", reason: "required but missing" }]);
    expect(problems({ ...valid, marginBps: 10_000 })).toEqual([
      { field: "marginBps", reason: expect.stringContaining("9999") },
    ]);
    expect(problems({ ...valid, adapters: [ADDRESS, ADDRESS.toUpperCase().replace("0X", "0x")] })).toEqual([
      { field: "adapters", reason: "must not repeat an adapter" },
    ]);
    expect(problems({ ...valid, executor: "0x12" })[0]!.field).toBe("executor");
    expect(problems({ ...valid, rpcUrls: ["ftp://x"] })[0]!.field).toBe("rpcUrls[0]");
    expect(problems({ ...valid, basePath: "/rfq/" })[0]!.field).toBe("basePath");
    expect(problems({ ...valid, sharedSecretEnv: "lower-case" })[0]!.field).toBe("sharedSecretEnv");
    expect(problems({ ...valid, sharedSecret: "inline" })).toEqual([
      { field: "(root)", reason: expect.stringContaining("sharedSecret") },
    ]);
  });

  it("reads the secrets from the variables the config names, and names a missing or malformed one", () => {
    const config = parseSolverConfig(valid, "test");
    const key = `0x${"1".repeat(64)}`;
    expect(readSolverSecrets(config, { SLUICE_ALPHA_SECRET: "s", SLUICE_ALPHA_KEY: key })).toEqual({
      sharedSecret: "s",
      privateKey: key,
    });
    try {
      readSolverSecrets(config, { SLUICE_ALPHA_KEY: "0x1234" });
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidSolverConfigError).problems).toEqual([
        { field: "env SLUICE_ALPHA_SECRET", reason: expect.stringContaining("required") },
        { field: "env SLUICE_ALPHA_KEY", reason: "must be a 32-byte 0x hex key" },
      ]);
    }
  });

  it("is external unless it says internal; an internal one needs the internal listener's URL", () => {
    const external = parseSolverConfig(valid, "test");
    expect(external.internal).toBe(false);
    expect(external.internalApiUrl).toBeUndefined();
    expect(
      parseSolverConfig(
        { ...valid, internal: true, internalApiUrl: "https://i.example/api-internal/v1/" },
        "test",
      ).internalApiUrl,
    ).toBe("https://i.example/api-internal/v1");
    // Not derived from apiUrl: Sluice serves the internal API on its own listener.
    expect(problems({ ...valid, internal: true })).toEqual([
      { field: "internalApiUrl", reason: expect.stringContaining("INTERNAL_PORT") },
    ]);
  });

  it("reports a missing file and a file that is not JSON", () => {
    expect(() => loadSolverConfig("/nonexistent/solver.json")).toThrow(/file not found/);
    const dir = mkdtempSync(join(tmpdir(), "sluice-solver-config-"));
    try {
      writeFileSync(join(dir, "bad.json"), "{");
      expect(() => loadSolverConfig(join(dir, "bad.json"))).toThrow(/not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sluice solver --config", () => {
  const chain = useTestChain();
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sluice-solver-cli-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function writeConfig(name: string, overrides: Record<string, unknown> = {}): string {
    const path = join(dir, name);
    const config = {
      ...valid,
      apiUrl: "http://127.0.0.1:9/api/v1",
      rpcUrls: [chain.rpcUrl],
      executor: chain.core.executors[0],
      reactor: chain.core.reactor,
      adapters: [chain.core.adapters.usd],
      basePath: "/rfq",
      ...overrides,
    };
    writeFileSync(path, JSON.stringify(config));
    return path;
  }

  function spawnSolver(configPath: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [SLUICE_BIN, "solver", "--config", configPath], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: "info", ...env },
    });
    const output = collectOutput(child);
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    return { child, exited, output };
  }

  function listeningUrl(child: ChildProcess): Promise<string> {
    return new Promise((resolve, reject) => {
      let buffer = "";
      child.stdout!.on("data", (chunk) => {
        buffer += chunk;
        const match = buffer.match(/listening on (http:\/\/\S+)/);
        if (match) resolve(match[1]!);
      });
      child.on("close", (code) => reject(new Error(`solver exited (${code}) before listening`)));
    });
  }

  it("serves quotes from the config file with the secrets from env, logs JSON, and stops on SIGTERM", async () => {
    const run = spawnSolver(writeConfig("good.json"), {
      SLUICE_ALPHA_SECRET: SOLVER_SECRET,
      SLUICE_ALPHA_KEY: solverKey(),
    });
    try {
      const url = await listeningUrl(run.child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rfq$/);
      const response = await postSolverQuote(
        url,
        solverQuoteRequest(chain, 10n ** 18n, [
          {
            adapter: chain.core.adapters.usd,
            asset: chain.core.tokens.usd,
            assetDecimals: 6,
            maxAssets: "1000000000000",
            maxRate: "999500000000000000",
          },
        ]),
      );
      expect(response.status).toBe(200);
      // 0.9995 tUSD less one unit, less 10 bps.
      expect(((await response.json()) as { amountOut: string }).amountOut).toBe(
        String((999_499n * 9_990n) / 10_000n),
      );
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exited).toBe(0);
    const lines = run
      .output()
      .stdout.split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["reference solver started", "quote request", "reference solver stopped"]),
    );
    expect(lines.find((line) => line.msg === "quote request")).toMatchObject({
      solver: "sluice_alpha",
      status: 200,
    });
  });

  it("exits 1 naming the field of a bad config file, or the missing secret's variable", async () => {
    const bad = spawnSolver(writeConfig("bad.json", { marginBps: -1 }), {});
    expect(await bad.exited).toBe(1);
    expect(bad.output().stderr).toMatch(/marginBps: .*0/);

    const noSecret = spawnSolver(writeConfig("no-secret.json"), { SLUICE_ALPHA_KEY: solverKey() });
    expect(await noSecret.exited).toBe(1);
    expect(noSecret.output().stderr).toContain("env SLUICE_ALPHA_SECRET: required");
  });

  it("refuses to start with an account that may not call its Executor", async () => {
    const run = spawnSolver(writeConfig("other-key.json"), {
      SLUICE_ALPHA_SECRET: SOLVER_SECRET,
      SLUICE_ALPHA_KEY: `0x${"7".repeat(64)}`,
    });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toMatch(/is not a caller of executor/);
  });
});
