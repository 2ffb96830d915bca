// A replica can be kept from following the chain: INDEXER=off and POINTS_ENGINE=off leave the Reactor indexer and the
// points engine out of its parts (another replica on the same database runs them), while it still serves what they
// write (the own points' position is kept either way).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

const withPointsEngine = () =>
  unstartedDeployment(
    placeholderDeployment({
      pointsEngine: {
        startBlock: 5,
        contracts: {
          networkRegistry: address(101),
          operatorRegistry: address(102),
          vaultFactory: address(103),
          operatorNetworkOptInService: address(104),
          operatorVaultOptInService: address(105),
        },
        networks: [{ address: address(110) }],
        vaults: [{ address: address(120) }],
        priceFeeds: [{ collateral: address(130), feed: address(131) }],
      },
    }),
  );

describe("followers left out of a replica", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.close());

  const stepNames = async (env: Record<string, string>) => {
    const { sluice } = await createTestServer(database, { env, deployment: withPointsEngine() });
    try {
      return sluice.steps.map((step) => step.name);
    } finally {
      await sluice.http.close();
      await sluice.internalHttp.close();
    }
  };

  it("runs the indexer and the points engine by default", async () => {
    expect(await stepNames({})).toEqual(
      expect.arrayContaining(["indexer", "points engine", "points engine position"]),
    );
  });

  it("leaves out the indexer with INDEXER=off and the engine with POINTS_ENGINE=off, and still serves the points", async () => {
    const names = await stepNames({ INDEXER: "off", POINTS_ENGINE: "off" });
    expect(names).not.toContain("indexer");
    expect(names).not.toContain("points engine");
    expect(names).toContain("points engine position");
    expect(names).toContain("block tracker");
  });

  it("refuses any other value", async () => {
    await expect(stepNames({ POINTS_ENGINE: "no" })).rejects.toThrow(/POINTS_ENGINE/);
  });
});
