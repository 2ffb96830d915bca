// The devnet's points contracts as `npm start` runs them: deployed at fixed addresses beside the core contracts,
// named by the deployment's pointsEngine section (which the engine's schema accepts), listed by /entities/*, and
// exercised by the scripted activity (every kind of stake event, from the points actors only, played again on a
// restart, which deploys nothing twice).
import { readFileSync } from "node:fs";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";
import { pointsPlan } from "../../src/devnet/points-plan.ts";
import { readStakeEvents } from "../../src/points-engine/chain/logs.ts";
import { readScope } from "../../src/points-engine/chain/scope.ts";
import { PartnerEntityListSchema, PartnerVaultListSchema } from "../../src/registry/schemas.ts";
import { devnetClient, getJson, startTestDevnet, temporaryDataDir } from "./support.ts";

const plan = pointsPlan();
const lower = (address: string) => address.toLowerCase() as Address;

describe("devnet points", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;

  beforeAll(async () => {
    // The activity played fast: its steps follow each other at once instead of every ten seconds.
    devnet = await startTestDevnet(dataDir.path, { pointsActivityStepMs: 0 });
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("deploys the points contracts at the same addresses on every fresh chain", async () => {
    expect(devnet.chain.points.deployedNow).toBe(true);
    // Written out: an address that changes is a change to every devnet's registry and points.
    expect(
      Object.fromEntries(Object.entries(plan.contracts).map(([name, address]) => [name, lower(address)])),
    ).toEqual({
      networkRegistry: "0x7fca6653a9b0883eca0193a094ac45cc4842d585",
      operatorRegistry: "0x2f21d0a8e6b7e597a22962553a1ecf58101e13d8",
      vaultFactory: "0x0b2149d8970d7a60009727afecb12afcdfab27d8",
      operatorNetworkOptInService: "0x7cc2ebb1bdfa13280051a7ded848da8a66c17df2",
      operatorVaultOptInService: "0x28c9b37901de840ac304b20f809f65d743abcd73",
    });
    // And the chain has them there.
    const client = devnetClient(devnet);
    for (const address of Object.values(plan.contracts))
      expect(await client.getCode({ address }), address).toMatch(/^0x[0-9a-f]{2,}/);
    expect(plan.vaults.map((v) => lower(v.address))).toEqual([
      "0x6ee037b4f7c62e548ebda961b7a01c03f9571ca3",
      "0x47c095ea36445fad20ed4fa64b97b606e1d1528f",
      "0x84ccd5aefa47784e3cc86c3b32867e36b2b61260",
    ]);
  });

  it("names them in the deployment's pointsEngine section, which the engine's schema accepts", () => {
    const section = devnet.bundled.deployment.pointsEngine!;
    expect(section.startBlock).toBe(devnet.chain.points.startBlock);
    expect(section).toMatchObject({ pointsType: "sluice", decimals: 48, snapshotEveryBlocks: 10 });
    expect(section.vaults.map((v) => v.address)).toEqual(plan.vaults.map((v) => lower(v.address)));
    expect(section.networks.map((n) => n.address)).toEqual(
      plan.networks.map((n) => lower(n.account.address)),
    );
    expect(section.priceFeeds).toEqual(
      plan.collaterals.map((c) => ({ collateral: lower(c.address), feed: lower(c.feed) })),
    );
    // deployment.json holds it with its big numbers as strings, and reads back the same.
    const written = JSON.parse(readFileSync(devnet.chain.files.deployment, "utf8"));
    expect(written.pointsEngine.defaults.ratePerUsdHour).toBe(
      "2500000000000000000000000000000000000000000000",
    );
    expect(PointsEngineConfigSchema.parse(written.pointsEngine)).toEqual(section);
  });

  it("has a readable scope: three vaults over 6, 8 and 18 decimals, two networks", async () => {
    const client = devnetClient(devnet);
    const scope = await readScope(
      client,
      devnet.bundled.deployment.pointsEngine!,
      await client.getBlockNumber(),
    );
    expect(scope.vaults.map((v) => [v.collateralDecimals, v.delegatorType])).toEqual([
      [6, "networkRestake"],
      [8, "networkRestake"],
      [18, "operatorSpecific"],
    ]);
    expect(scope.networks).toHaveLength(2);
    expect(new Set(scope.priceFeeds.map((f) => f.initialAnswer)).size).toBe(3);
  });

  it("lists its networks, operators and vaults in /entities/*", async () => {
    const api = devnet.sluice.apiUrl;
    const networks = PartnerEntityListSchema.parse((await getJson(`${api}/entities/networks`)).json);
    const operators = PartnerEntityListSchema.parse((await getJson(`${api}/entities/operators`)).json);
    const vaults = PartnerVaultListSchema.parse((await getJson(`${api}/entities/vaults`)).json);
    for (const network of plan.networks)
      expect(networks.map((n) => n.address)).toContain(lower(network.account.address));
    for (const operator of plan.operators)
      expect(operators.map((o) => o.address)).toContain(lower(operator.account.address));
    for (const [index, vault] of plan.vaults.entries()) {
      const served = vaults.find((v) => v.address === lower(vault.address));
      expect(served).toMatchObject({
        vaultType: "v1",
        collateral: lower(plan.collaterals[vault.collateral]!.address),
        curatorId: "sluice-devnet",
      });
      const deposited = plan.deposits.filter((d) => d.vault === index).reduce((sum, d) => sum + d.amount, 0n);
      expect(served!.totalSupply).toBe(deposited.toString());
    }
  });

  it("plays the scripted activity: every kind of stake event, each step through", async () => {
    await devnet.pointsActivity.done;
    expect(devnet.pointsActivity.played.filter((step) => !step.ok)).toEqual([]);
    expect(devnet.pointsActivity.played.length).toBeGreaterThanOrEqual(13);
    const client = devnetClient(devnet);
    const scope = await readScope(
      client,
      devnet.bundled.deployment.pointsEngine!,
      await client.getBlockNumber(),
    );
    const blocks = await readStakeEvents(
      client,
      scope,
      devnet.chain.points.startBlock,
      await client.getBlockNumber(),
    );
    const kinds = new Set(blocks.flatMap((b) => b.events.map((e) => e.kind)));
    for (const kind of [
      "deposit",
      "withdraw",
      "slash",
      "shareTransfer",
      "maxNetworkLimit",
      "networkLimit",
      "operatorNetworkShares",
      "optIn",
      "optOut",
      "price",
    ])
      expect(kinds, kind).toContain(kind);
  }, 180_000);

  it("on a restart deploys nothing again, keeps the registry as it was and plays the activity again", async () => {
    const api = devnet.sluice.apiUrl;
    const before = {
      vaults: (await getJson(`${api}/entities/vaults`)).json,
      networks: (await getJson(`${api}/entities/networks`)).json,
      record: JSON.parse(readFileSync(devnet.chain.files.record, "utf8")),
    };
    await devnet.sluice.stop();
    devnet = await startTestDevnet(dataDir.path, { pointsActivityStepMs: 0 });
    expect(devnet.chain.deployedNow).toBe(false);
    expect(devnet.chain.points.deployedNow).toBe(false);
    expect(JSON.parse(readFileSync(devnet.chain.files.record, "utf8"))).toEqual(before.record);
    const after = devnet.sluice.apiUrl;
    expect((await getJson(`${after}/entities/vaults`)).json).toEqual(before.vaults);
    expect((await getJson(`${after}/entities/networks`)).json).toEqual(before.networks);
    await devnet.pointsActivity.done;
    expect(devnet.pointsActivity.played.filter((step) => !step.ok)).toEqual([]);
  }, 180_000);
});
