// The dev helpers refuse every request (403 DEV_ONLY, the swap-flow envelope) on a deployment that is not a local
// devnet with a faucet, before looking at the body; and they are documented in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { Deployment } from "../../src/deployment/schema.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";

const WALLET = `0x${"7".padStart(40, "0")}`;

/** A local devnet that is someone's anvil, or a public testnet. */
function deployment(local: boolean): Deployment {
  return placeholderDeployment(
    local
      ? { name: "someone's anvil", confirmationDepth: 2 }
      : { name: "sepolia", chainId: 11155111, chainName: "Sepolia", local: false, confirmationDepth: 2 },
  );
}

describe("dev helpers off the devnet", () => {
  let database: Database;
  const apps: Record<string, App> = {};

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    for (const [name, served] of [
      ["public network", deployment(false)],
      ["local deployment without a faucet", deployment(true)],
    ] as const) {
      apps[name] = (await createTestServer(database, { deployment: unstartedDeployment(served) })).app;
    }
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await database?.close();
  });

  const requests = [
    { method: "GET", url: "/api/v1/dev/faucet" },
    { method: "POST", url: "/api/v1/dev/faucet", payload: { walletAddress: WALLET } },
    { method: "POST", url: "/api/v1/dev/fund", payload: { walletAddress: WALLET } },
    // Refused before validation: a malformed body still learns it is on the wrong deployment.
    { method: "POST", url: "/api/v1/dev/fund", payload: { walletAddress: "nope" } },
    // The demo page and the chain relay it uses.
    { method: "POST", url: "/api/v1/dev/rpc", payload: { jsonrpc: "2.0", id: 1, method: "eth_chainId" } },
    { method: "GET", url: "/demo" },
    { method: "GET", url: "/demo/page.js" },
  ] as const;

  for (const name of ["public network", "local deployment without a faucet"]) {
    it.each(requests)(`${name}: $method $url answers 403 DEV_ONLY`, async (request) => {
      const response = await apps[name]!.inject(request);
      expect(response.statusCode).toBe(403);
      const body = response.json();
      expect(body).toMatchObject({ error: { code: "DEV_ONLY", status: 403 } });
      expect(body.error.message).toMatch(/local/);
      expect(response.headers["x-request-id"]).toEqual(expect.any(String));
    });
  }

  it("documents the three helpers with their 403", async () => {
    const document = (await apps["public network"]!.inject({ url: "/api/v1/openapi.json" })).json();
    expect(Object.keys(document.paths["/dev/faucet"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(document.paths["/dev/fund"])).toEqual(["post"]);
    expect(document.paths["/dev/faucet"].get.responses).toHaveProperty("403");
    expect(document.paths["/dev/fund"].post.responses).toHaveProperty("403");
    expect(document.components.schemas).toHaveProperty("DevFaucetResponse");
  });
});
