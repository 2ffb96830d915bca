// The engine's scope is read from the chain at the start block once and kept: a restart must not need the chain's
// state at that block again (a devnet anvil reloaded from its state file, like a node without archive state, no
// longer answers reads that far back; test/devnet/restarts.test.ts failed on it before the scope was stored).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";
import type { ChainScope } from "../../src/points-engine/chain/scope.ts";
import { readStoredScope, scopeConfigKey, storeScope } from "../../src/points-engine/store/scope.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;

const config = (startBlock: string) =>
  PointsEngineConfigSchema.parse({
    startBlock,
    contracts: {
      networkRegistry: address(1),
      operatorRegistry: address(2),
      vaultFactory: address(3),
      operatorNetworkOptInService: address(4),
      operatorVaultOptInService: address(5),
    },
    networks: [{ address: address(6) }],
    vaults: [{ address: address(7) }],
    priceFeeds: [{ collateral: address(8), feed: address(9) }],
  });

const scope: ChainScope = {
  networks: [
    {
      address: address(6),
      subnetworks: [`0x${"00".repeat(12)}${address(6).slice(2)}`.slice(0, 66) as `0x${string}`],
      ratePerUsdHour: 2_500_000_000_000_000_000_000_000_000_000_000_000_000_000n,
      operatorFeeBps: 300,
      networkShareBps: 0,
    },
  ],
  vaults: [
    {
      address: address(7),
      collateral: address(8),
      collateralDecimals: 6,
      delegatorType: "operatorSpecific",
      operator: address(10),
      curatorFeeBps: 0,
    },
  ],
  priceFeeds: [{ collateral: address(8), feed: address(9), decimals: 8, initialAnswer: 99_995_000n }],
  delegators: [{ vault: address(7), delegator: address(11) }],
  optInServices: { network: address(4), vault: address(5) },
};

describe.each(databaseKinds)("the points engine's stored scope (%s)", (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await database.close();
  });

  it("gives back exactly the scope stored, bigints included, for the same section only", async () => {
    const key = scopeConfigKey(config("100"));
    expect(await readStoredScope(database, key)).toBeUndefined();
    await storeScope(database, key, scope);
    expect(await readStoredScope(database, key)).toEqual(scope);
    // Another section (here another start block) is read from the chain again, then replaces the stored one.
    const other = scopeConfigKey(config("101"));
    expect(other).not.toBe(key);
    expect(await readStoredScope(database, other)).toBeUndefined();
    await storeScope(database, other, { ...scope, vaults: [] });
    expect(await readStoredScope(database, other)).toEqual({ ...scope, vaults: [] });
    expect(await readStoredScope(database, key)).toBeUndefined();
  });
});
