import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidDeploymentError, loadDeployment, SHIPPED_NETWORKS } from "../../src/deployment/load.ts";
import { readDeploymentSecrets } from "../../src/deployment/secrets.ts";

const dir = mkdtempSync(join(tmpdir(), "sluice-deployment-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeFile(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const signerKey = generatePrivateKey();
const signer = privateKeyToAccount(signerKey).address;

function operatorFile(solverCount: number, reserved: number) {
  return {
    executors: [address(10)],
    adapterFactory: address(11),
    protocolSigner: signer,
    inputTokens: [
      {
        address: address(20),
        symbol: "RWA",
        name: "RWA Token",
        decimals: 18,
        minQuoteAmount: "1000",
        liquidityOutputToken: address(21),
      },
    ],
    outputTokens: [{ address: address(21), symbol: "USDC", name: "USD Coin", decimals: 6 }],
    adapters: [{ address: address(30) }],
    solvers: Array.from({ length: solverCount }, (_, i) => ({
      id: `ext_solver${i}`,
      name: `Solver ${i}`,
      endpoint: `https://solver${i}.example/rfq`,
      filler: address(40 + i),
      internal: i === 0,
      sharedSecretEnv: `SOLVER_${i}_SECRET`,
    })),
    reservedSolverIds: Array.from({ length: reserved }, (_, i) => `ext_reserved${i}`),
  };
}

describe("deployment files", () => {
  it.each(SHIPPED_NETWORKS)("ships %s with only public facts, so it is incomplete on its own", (network) => {
    let error: unknown;
    try {
      loadDeployment({ network });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidDeploymentError);
    const fields = (error as InvalidDeploymentError).problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining(["executors", "adapterFactory", "protocolSigner", "inputTokens"]),
    );
    expect((error as InvalidDeploymentError).problems.find((p) => p.field === "executors")?.reason).toBe(
      "required but missing",
    );
  });

  it("loads mainnet with a complete operator file: six solvers and two reserved ids", () => {
    const deployment = loadDeployment({
      network: "mainnet",
      file: writeFile("mainnet-ok.json", operatorFile(6, 2)),
    });
    expect(deployment.chainId).toBe(1);
    expect(deployment.reactor).toBe("0xc323b898d7e4105e3980082b74cc5d4602996b10");
    expect(deployment.solvers).toHaveLength(6);
    expect(deployment.quoteLifetimeSeconds).toBe(120);
    expect(deployment.solverTimeoutMs).toBe(1000);
    expect(deployment.solvers[0]?.enabled).toBe(true);
  });

  it("ships mainnet's finality depth (64) and refuses one below the confirmation depth", () => {
    const deployment = loadDeployment({
      network: "mainnet",
      file: writeFile("mainnet-finality.json", operatorFile(6, 2)),
    });
    expect(deployment.finalityDepth).toBe(64);
    const shallow = { ...operatorFile(6, 2), confirmationDepth: 5, finalityDepth: 4 };
    expect(() =>
      loadDeployment({ network: "mainnet", file: writeFile("mainnet-shallow.json", shallow) }),
    ).toThrow(/finalityDepth: must be at least confirmationDepth \(5\)/);
  });

  it("refuses mainnet with the wrong number of solver slots", () => {
    expect(() =>
      loadDeployment({ network: "mainnet", file: writeFile("mainnet-5.json", operatorFile(5, 2)) }),
    ).toThrow(/solvers: this network has 6 solver slots; 5 configured/);
  });

  it("names the field and the reason for a bad value", () => {
    const file = operatorFile(6, 2);
    file.inputTokens[0]!.address = "0x123";
    file.solvers[1]!.id = "NoPrefix";
    const path = writeFile("mainnet-bad.json", file);
    expect(() => loadDeployment({ network: "mainnet", file: path })).toThrow(
      /inputTokens\[0\]\.address: must be 0x/,
    );
    expect(() => loadDeployment({ network: "mainnet", file: path })).toThrow(
      /solvers\[1\]\.id: must look like/,
    );
  });

  it("rejects a liquidity output token that is not an output token, and duplicates", () => {
    const file = operatorFile(6, 2);
    file.inputTokens[0]!.liquidityOutputToken = address(99);
    file.reservedSolverIds = ["ext_solver0", "ext_reserved1"];
    const path = writeFile("mainnet-refs.json", file);
    expect(() => loadDeployment({ network: "mainnet", file: path })).toThrow(
      /liquidityOutputToken: must be one of outputTokens/,
    );
    expect(() => loadDeployment({ network: "mainnet", file: path })).toThrow(
      /duplicate solver id ext_solver0/,
    );
  });

  it("reports a missing or malformed file", () => {
    expect(() => loadDeployment({ file: join(dir, "absent.json") })).toThrow(/file not found/);
    expect(() => loadDeployment({ file: writeFile("broken.json", "{") })).toThrow(/not valid JSON/);
  });

  it("reads secrets from the environment only, naming what is missing", () => {
    const deployment = loadDeployment({
      network: "mainnet",
      file: writeFile("mainnet-secrets.json", operatorFile(6, 2)),
    });
    expect(() => readDeploymentSecrets(deployment, {})).toThrow(
      /env RPC_URLS: required[\s\S]*env PUBLIC_URL: required off the devnet[\s\S]*env PROTOCOL_SIGNER_KEY: required[\s\S]*SOLVER_0_SECRET is not set/,
    );
    const env: NodeJS.ProcessEnv = {
      RPC_URLS: "http://127.0.0.1:8545, http://127.0.0.1:8546",
      PROTOCOL_SIGNER_KEY: signerKey,
      PUBLIC_URL: "https://api.example.com",
    };
    for (let i = 0; i < 6; i++) env[`SOLVER_${i}_SECRET`] = `secret-${i}`;
    const secrets = readDeploymentSecrets(deployment, env);
    expect(secrets.rpcUrls).toEqual(["http://127.0.0.1:8545", "http://127.0.0.1:8546"]);
    expect(secrets.protocolSigner.address).toBe(signer);
    expect(secrets.solverSecrets.get("ext_solver3")).toBe("secret-3");
    // One URL in RPC_URL still works; RPC_URLS wins when both are set.
    const { RPC_URLS: _urls, ...single } = env;
    expect(
      readDeploymentSecrets(deployment, { ...single, RPC_URL: "http://127.0.0.1:8547" }).rpcUrls,
    ).toEqual(["http://127.0.0.1:8547"]);
    expect(
      readDeploymentSecrets(deployment, { ...env, RPC_URL: "http://127.0.0.1:8547" }).rpcUrls,
    ).toHaveLength(2);
    // Off the devnet, no PUBLIC_URL: refused before anything starts (logo URLs never follow the Host header).
    const { PUBLIC_URL: _publicUrl, ...noPublicUrl } = env;
    expect(() => readDeploymentSecrets(deployment, noPublicUrl)).toThrow(
      /env PUBLIC_URL: required off the devnet/,
    );
    expect(() =>
      readDeploymentSecrets(deployment, { ...env, PROTOCOL_SIGNER_KEY: generatePrivateKey() }),
    ).toThrow(/is not the deployment's protocolSigner/);
  });
});
