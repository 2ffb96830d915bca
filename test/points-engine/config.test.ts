// The deployment file's `pointsEngine` section: defaults filled in, numbers beyond 2^53 as decimal strings, and every
// mistake named by its field.
import { describe, expect, it } from "vitest";
import { InvalidDeploymentError, parseDeployment } from "../../src/deployment/load.ts";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

const section = (overrides: Record<string, unknown> = {}) => ({
  startBlock: 5,
  contracts: {
    networkRegistry: address(1),
    operatorRegistry: address(2),
    vaultFactory: address(3),
    operatorNetworkOptInService: address(4),
    operatorVaultOptInService: address(5),
  },
  networks: [{ address: address(10) }],
  vaults: [{ address: address(20) }],
  priceFeeds: [{ collateral: address(30), feed: address(31) }],
  ...overrides,
});

describe("pointsEngine configuration", () => {
  it("fills in the defaults: sluice at 48 decimals, 2.5e45 per USD-hour, 3 % to operators", () => {
    const config = PointsEngineConfigSchema.parse(section());
    expect(config).toMatchObject({
      pointsType: "sluice",
      decimals: 48,
      startBlock: 5n,
      snapshotEveryBlocks: 200,
      defaults: {
        ratePerUsdHour: 25n * 10n ** 44n,
        operatorFeeBps: 300,
        networkShareBps: 0,
        curatorFeeBps: 0,
      },
      networks: [{ address: address(10), subnetworkIds: [0] }],
    });
    expect(config.confirmations).toBeUndefined();
  });

  it("takes numbers beyond 2^53 as decimal strings and refuses them as JSON numbers", () => {
    const config = PointsEngineConfigSchema.parse(
      section({ networks: [{ address: address(10), ratePerUsdHour: "12345678901234567890123456789" }] }),
    );
    expect(config.networks[0]!.ratePerUsdHour).toBe(12345678901234567890123456789n);
    const parsed = PointsEngineConfigSchema.safeParse(section({ startBlock: 2 ** 60 }));
    expect(parsed.success).toBe(false);
  });

  it("names the field of each mistake in the deployment's error", () => {
    const deployment = {
      name: "x",
      chainId: 1,
      chainName: "x",
      reactor: address(1),
      executors: [address(2)],
      adapterFactory: address(3),
      protocolSigner: address(4),
      inputTokens: [{ address: address(5), symbol: "A", name: "A", decimals: 18, minQuoteAmount: "1" }],
      outputTokens: [{ address: address(6), symbol: "B", name: "B", decimals: 6 }],
      adapters: [],
      solvers: [],
      confirmationDepth: 0,
      pointsEngine: section({
        snapshotEveryBlocks: 0,
        networks: [{ address: "0x12", operatorFeeBps: 9000, networkShareBps: 2000 }],
        priceFeeds: [{ collateral: address(30) }],
      }),
    };
    let error: unknown;
    try {
      parseDeployment(deployment, "test");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidDeploymentError);
    const fields = (error as InvalidDeploymentError).problems.map((problem) => problem.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "pointsEngine.snapshotEveryBlocks",
        "pointsEngine.networks[0].address",
        "pointsEngine.priceFeeds[0].feed",
      ]),
    );
    const problems = (error as InvalidDeploymentError).problems.map((p) => `${p.field}: ${p.reason}`);
    expect(problems).toContain("pointsEngine.priceFeeds[0].feed: required but missing");
  });

  it("refuses a vault listed twice, naming the second", () => {
    const parsed = PointsEngineConfigSchema.safeParse(
      section({ vaults: [{ address: address(20) }, { address: address(20) }] }),
    );
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["vaults.1", `duplicate vault ${address(20)}`],
    ]);
  });

  it("refuses fees that together exceed the whole", () => {
    const parsed = PointsEngineConfigSchema.safeParse(
      section({ networks: [{ address: address(10), operatorFeeBps: 9000, networkShareBps: 2000 }] }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["networks.0"]);
  });
});
