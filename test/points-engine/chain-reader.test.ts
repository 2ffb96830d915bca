// The points engine's chain reader on anvil, over the devnet's points contracts: readScope (decimals, delegator
// types, feeds; a FullRestake vault and a non-vault refused by name), readStakeEvents (every event kind decoded
// with its values, mint/burn Transfers and out-of-scope logs left out, blocks ascending with their hash and
// timestamp; a range the RPC refuses split until accepted; headers read by hash only where logs lack a timestamp)
// and readChainState (the contracts' own views at a block).
import {
  type Abi,
  type Address,
  createPublicClient,
  custom,
  type EIP1193RequestFn,
  encodeAbiParameters,
  RpcRequestError,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { testERC20Abi } from "../../src/chain/abis.ts";
import type { ChainPublicClient } from "../../src/chain/client.ts";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";
import { devnetPointsEngineSection } from "../../src/devnet/points-config.ts";
import { deployPointsContracts, type PointsDeployment } from "../../src/devnet/points-deploy.ts";
import { type PointsActor, pointsPlan } from "../../src/devnet/points-plan.ts";
import {
  fullRestakeDelegatorAbi,
  fullRestakeDelegatorBytecode,
  networkRestakeDelegatorAbi,
  optInServiceAbi,
  priceFeedAbi,
  vaultAbi,
  vaultFactoryAbi,
  vaultTokenizedAbi,
} from "../../src/points-engine/chain/abis.ts";
import {
  FullRestakeVaultError,
  LogRangeRefusedError,
  ScopeContractError,
} from "../../src/points-engine/chain/errors.ts";
import { readBlockStakeEvents, readStakeEvents } from "../../src/points-engine/chain/logs.ts";
import { type ChainScope, readScope } from "../../src/points-engine/chain/scope.ts";
import { readChainState } from "../../src/points-engine/chain/state.ts";
import { subnetworkOf } from "../../src/points-engine/chain/subnetwork.ts";
import type { BlockEvents, StakeEvent } from "../../src/points-engine/model.ts";
import { useTestChain } from "../support/anvil.ts";

const plan = pointsPlan();
const chain = useTestChain({ deploy: false });
let deployed: PointsDeployment;
let firstBlock: bigint;
const config = () => PointsEngineConfigSchema.parse(devnetPointsEngineSection(plan, deployed));

beforeAll(async () => {
  deployed = await deployPointsContracts({ publicClient: chain.publicClient, rpcUrl: chain.rpcUrl, plan });
  firstBlock = deployed.firstBlock;
});

const lower = (address: string) => address.toLowerCase() as Address;
const network = (i: number) => lower(plan.networks[i]!.account.address);
const operator = (i: number) => lower(plan.operators[i]!.account.address);
const staker = (i: number) => lower(plan.stakers[i]!.account.address);
const vault = (i: number) => lower(plan.vaults[i]!.address);

async function send(actor: PointsActor, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const hash = await chain.wallet(actor.account).writeContract({ address, abi, functionName, args } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt.blockNumber;
}

const scopeNow = async () =>
  readScope(chain.publicClient, config(), await chain.publicClient.getBlockNumber());
const head = () => chain.publicClient.getBlockNumber();
const allEvents = (blocks: BlockEvents[]) => blocks.flatMap((b) => b.events);
const big = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

describe("readScope", () => {
  it("reads each vault's collateral, decimals and delegator type, each network's subnetworks and each feed", async () => {
    const scope = await scopeNow();
    expect(scope.vaults.map((v) => [v.address, v.collateralDecimals, v.delegatorType, v.operator])).toEqual([
      [vault(0), 6, "networkRestake", undefined],
      [vault(1), 8, "networkRestake", undefined],
      [vault(2), 18, "operatorSpecific", operator(2)],
    ]);
    expect(scope.vaults.map((v) => [v.collateral, v.curator, v.curatorFeeBps])).toEqual(
      plan.vaults.map((v) => [
        lower(plan.collaterals[v.collateral]!.address),
        lower(plan.owner.account.address),
        v.curatorFeeBps,
      ]),
    );
    expect(scope.networks).toEqual([
      {
        address: network(0),
        subnetworks: [subnetworkOf(network(0))],
        ratePerUsdHour: 25n * 10n ** 44n,
        operatorFeeBps: 300,
        networkShareBps: 0,
      },
      {
        address: network(1),
        subnetworks: [subnetworkOf(network(1))],
        ratePerUsdHour: 5n * 10n ** 45n,
        operatorFeeBps: 300,
        networkShareBps: 500,
      },
    ]);
    expect(scope.priceFeeds).toEqual(
      plan.collaterals.map((c) => ({
        collateral: lower(c.address),
        feed: lower(c.feed),
        decimals: c.feedDecimals,
        initialAnswer: c.initialPrice,
      })),
    );
    expect(scope.delegators).toEqual(
      plan.vaults.map((v) => ({ vault: lower(v.address), delegator: lower(v.delegator) })),
    );
  });

  it("reads at the section's startBlock, as the engine does: the deployment is complete there", async () => {
    const scope = await readScope(chain.publicClient, config(), config().startBlock);
    expect(scope.vaults).toHaveLength(3);
    // One block before the deployment's first, nothing of it exists: the scope cannot be read there.
    await expect(readScope(chain.publicClient, config(), firstBlock - 1n)).rejects.toThrow(
      /points engine scope/,
    );
  });

  it("reads the feed's answer at the given block, not the latest", async () => {
    const before = await head();
    await send(plan.owner, plan.collaterals[2]!.feed, priceFeedAbi, "updateAnswer", [3_100n * 10n ** 18n]);
    const atBefore = await readScope(chain.publicClient, config(), before);
    expect(atBefore.priceFeeds[2]!.initialAnswer).toBe(3_000n * 10n ** 18n);
    expect((await scopeNow()).priceFeeds[2]!.initialAnswer).toBe(3_100n * 10n ** 18n);
  });

  it("refuses a FullRestake vault by name, and an address that is not a vault of the factory", async () => {
    const owner = plan.owner.account.address;
    const data = encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint48" }],
      [plan.collaterals[0]!.address, owner, 600],
    );
    const { result: fullVault } = await chain.publicClient.simulateContract({
      account: plan.owner.account,
      address: plan.contracts.vaultFactory,
      abi: vaultFactoryAbi,
      functionName: "create",
      args: [1n, owner, data],
    });
    await send(plan.owner, plan.contracts.vaultFactory, vaultFactoryAbi, "create", [1n, owner, data]);
    const hash = await chain.wallet(plan.owner.account).deployContract({
      abi: fullRestakeDelegatorAbi,
      bytecode: fullRestakeDelegatorBytecode,
      args: [
        plan.contracts.networkRegistry,
        plan.contracts.vaultFactory,
        plan.contracts.operatorVaultOptInService,
        plan.contracts.operatorNetworkOptInService,
        fullVault,
        owner,
      ],
    });
    const delegator = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    await send(plan.owner, fullVault, vaultAbi, "setDelegator", [delegator]);
    const withFull = {
      ...config(),
      vaults: [...config().vaults, { address: lower(fullVault), curatorFeeBps: 0 }],
    };
    const refused = await readScope(chain.publicClient, withFull, await head()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FullRestakeVaultError);
    expect((refused as Error).message).toContain(lower(fullVault));

    const notAVault = {
      ...config(),
      vaults: [{ address: lower(plan.collaterals[0]!.address), curatorFeeBps: 0 }],
    };
    const error = await readScope(chain.publicClient, notAVault, await head()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScopeContractError);
    expect((error as Error).message).toContain("is not a vault of the vault factory");

    const noFeed = { ...config(), priceFeeds: config().priceFeeds.slice(1) };
    const missing = await readScope(chain.publicClient, noFeed, await head()).catch((e: unknown) => e);
    expect((missing as Error).message).toContain(
      `collateral ${lower(plan.collaterals[0]!.address)} has no price feed`,
    );
  });
});

describe("readStakeEvents", () => {
  it("decodes the deployment: feeds, opt-ins, maximum and network limits, operator shares, deposits", async () => {
    const scope = await scopeNow();
    const blocks = await readStakeEvents(chain.publicClient, scope, firstBlock, await head());
    const events = allEvents(blocks);
    const of = <K extends StakeEvent["kind"]>(kind: K) =>
      events.filter((e): e is Extract<StakeEvent, { kind: K }> => e.kind === kind);
    expect(of("price")).toEqual(
      plan.collaterals.map((c) => ({ kind: "price", collateral: lower(c.address), answer: c.initialPrice })),
    );
    // Actors send side by side: across actors the order is the chain's, so these compare as sets.
    const sorted = <T>(events: T[]) =>
      [...events].sort((a, b) => (JSON.stringify(a, big) < JSON.stringify(b, big) ? -1 : 1));
    expect(sorted(of("optIn"))).toEqual(
      sorted(
        plan.optIns.flatMap((o) => [
          ...o.networks.map((n) => ({
            kind: "optIn",
            service: "network",
            operator: operator(o.operator),
            target: network(n),
          })),
          ...o.vaults.map((v) => ({
            kind: "optIn",
            service: "vault",
            operator: operator(o.operator),
            target: vault(v),
          })),
        ]),
      ),
    );
    expect(sorted(of("maxNetworkLimit"))).toEqual(
      sorted(
        plan.vaults.flatMap((v, i) =>
          v.limits.map((l) => ({
            kind: "maxNetworkLimit",
            vault: vault(i),
            subnetwork: subnetworkOf(network(l.network)),
            amount: l.max,
          })),
        ),
      ),
    );
    expect(of("networkLimit")).toEqual(
      plan.vaults.flatMap((v, i) =>
        v.limits.map((l) => ({
          kind: "networkLimit",
          vault: vault(i),
          subnetwork: subnetworkOf(network(l.network)),
          amount: l.limit,
        })),
      ),
    );
    expect(of("operatorNetworkShares")).toEqual(
      plan.vaults.flatMap((v, i) =>
        v.delegatorPlan.type === "networkRestake"
          ? v.delegatorPlan.shares.map((s) => ({
              kind: "operatorNetworkShares",
              vault: vault(i),
              subnetwork: subnetworkOf(network(s.network)),
              operator: operator(s.operator),
              shares: s.shares,
            }))
          : [],
      ),
    );
    const deposits = of("deposit");
    expect(deposits.map((d) => [d.vault, d.staker, d.amount])).toEqual(
      plan.deposits.map((d) => [vault(d.vault), staker(d.staker), d.amount]),
    );
    // The first deposit into an empty vault mints shares 1:1; the tokenized vault's mint Transfers are left out.
    expect(deposits[0]!.shares).toBe(deposits[0]!.amount);
    expect(of("shareTransfer")).toEqual([]);
    // Ascending blocks, each with its own header's hash and timestamp.
    const numbers = blocks.map((b) => b.number);
    expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const block of blocks.slice(0, 5)) {
      const header = await chain.publicClient.getBlock({ blockNumber: block.number });
      expect([block.hash, block.timestamp]).toEqual([header.hash, header.timestamp]);
    }
  });

  it("decodes withdrawals, slashes, share transfers, opt-outs, limit changes and prices with their values", async () => {
    const scope = await scopeNow();
    await chain.increaseTime(1);
    const from = (await head()) + 1n;
    const btcHolder = plan.deposits.find((d) => d.vault === 1)!.staker;
    await send(plan.stakers[1]!, vault(1), vaultAbi, "withdraw", [staker(1), 1_000n]);
    await send(plan.owner, vault(0), vaultAbi, "onSlash", [5_000_000n, Number(await chain.now())]);
    await send(plan.stakers[btcHolder]!, vault(1), vaultTokenizedAbi, "transfer", [staker(2), 777n]);
    await send(plan.operators[1]!, plan.contracts.operatorNetworkOptInService, optInServiceAbi, "optOut", [
      network(1),
    ]);
    await send(plan.operators[2]!, plan.contracts.operatorVaultOptInService, optInServiceAbi, "optOut", [
      vault(2),
    ]);
    await send(
      plan.networks[1]!,
      plan.vaults[2]!.delegator,
      networkRestakeDelegatorAbi,
      "setMaxNetworkLimit",
      [0n, 1n],
    );
    await send(plan.owner, plan.vaults[0]!.delegator, networkRestakeDelegatorAbi, "setNetworkLimit", [
      subnetworkOf(network(1)),
      1_000n,
    ]);
    await send(
      plan.owner,
      plan.vaults[0]!.delegator,
      networkRestakeDelegatorAbi,
      "setOperatorNetworkShares",
      [subnetworkOf(network(0)), operator(2), 7n],
    );
    await send(plan.owner, plan.collaterals[1]!.feed, priceFeedAbi, "updateAnswer", [-5n]);
    // Not the scope's: a collateral Transfer, a subnetwork outside the scope (identifier 1).
    await send(plan.owner, plan.collaterals[0]!.address, testERC20Abi, "mint", [staker(5), 1n]);
    await send(
      plan.networks[0]!,
      plan.vaults[0]!.delegator,
      networkRestakeDelegatorAbi,
      "setMaxNetworkLimit",
      [1n, 9n],
    );
    const blocks = await readStakeEvents(chain.publicClient, scope, from, await head());
    const withdrawn = blocks[0]!.events[0]!;
    expect(withdrawn).toMatchObject({ kind: "withdraw", vault: vault(1), staker: staker(1), amount: 1_000n });
    expect((withdrawn as { burnedShares: bigint }).burnedShares).toBeGreaterThan(0n);
    expect(allEvents(blocks).slice(1)).toEqual([
      { kind: "slash", vault: vault(0), slashedAmount: 5_000_000n },
      { kind: "shareTransfer", vault: vault(1), from: staker(btcHolder), to: staker(2), shares: 777n },
      { kind: "optOut", service: "network", operator: operator(1), target: network(1) },
      { kind: "optOut", service: "vault", operator: operator(2), target: vault(2) },
      { kind: "maxNetworkLimit", vault: vault(2), subnetwork: subnetworkOf(network(1)), amount: 1n },
      { kind: "networkLimit", vault: vault(0), subnetwork: subnetworkOf(network(1)), amount: 1_000n },
      {
        kind: "operatorNetworkShares",
        vault: vault(0),
        subnetwork: subnetworkOf(network(0)),
        operator: operator(2),
        shares: 7n,
      },
      { kind: "price", collateral: lower(plan.collaterals[1]!.address), answer: -5n },
    ]);
    expect(blocks).toHaveLength(9);
  });

  it("splits a range the RPC refuses until it is accepted, with the same result", async () => {
    const scope = await scopeNow();
    const to = await head();
    const expected = await readStakeEvents(chain.publicClient, scope, firstBlock, to);
    const fake = fakeRpc({ maxRange: 7 });
    const split = await readStakeEvents(fake.client, scope, firstBlock, to, { maxBlockRange: 1_000n });
    expect(split).toEqual(expected);
    expect(fake.refused).toBeGreaterThan(0);
    expect(Math.max(...fake.accepted)).toBeLessThanOrEqual(7);
    // Once a size is accepted, later ranges start there: few refusals for many ranges.
    expect(fake.refused).toBeLessThan(fake.accepted.length);
  });

  it("fails by name when even one block is refused, and passes other errors through without splitting", async () => {
    const scope = await scopeNow();
    const refusing = fakeRpc({ maxRange: 0 });
    await expect(readStakeEvents(refusing.client, scope, firstBlock, firstBlock + 3n)).rejects.toBeInstanceOf(
      LogRangeRefusedError,
    );
    const down = fakeRpc({ failWith: "connect ECONNREFUSED 127.0.0.1:1" });
    await expect(readStakeEvents(down.client, scope, firstBlock, firstBlock + 3n)).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(down.getLogsCalls).toBe(1);
  });

  it("reads headers by hash only for blocks with events when logs carry no timestamp", async () => {
    const scope = await scopeNow();
    const to = await head();
    const expected = await readStakeEvents(chain.publicClient, scope, firstBlock, to);
    const fake = fakeRpc({ stripTimestamps: true });
    expect(await readStakeEvents(fake.client, scope, firstBlock, to)).toEqual(expected);
    expect(fake.headersByHash.sort()).toEqual(expected.map((b) => b.hash).sort());
    expect(fake.otherHeaderReads).toBe(0);
  });
});

describe("readBlockStakeEvents", () => {
  it("reads a block's events by its hash, as the range read has them, and refuses a hash the node does not know", async () => {
    const scope = await scopeNow();
    const blocks = await readStakeEvents(chain.publicClient, scope, firstBlock, await head());
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks)
      expect(await readBlockStakeEvents(chain.publicClient, scope, block)).toEqual(block.events);
    // A block without events of the scope: none.
    const quiet = await chain.publicClient.getBlock({ blockNumber: firstBlock - 1n });
    expect(await readBlockStakeEvents(chain.publicClient, scope, quiet)).toEqual([]);
    // A block the node does not have (a reorged one, or one a lagging node has not seen yet): refused, not empty.
    const unknown = { number: blocks[0]!.number, hash: `0x${"ab".repeat(32)}` as const };
    await expect(readBlockStakeEvents(chain.publicClient, scope, unknown)).rejects.toThrow();
  });
});

describe("readChainState", () => {
  it("reads stakes, shares and prices through the contracts' views at a block", async () => {
    const scope: ChainScope = await scopeNow();
    const block = await head();
    const stakers = plan.vaults.map((_, v) => ({
      vault: vault(v),
      stakers: plan.deposits.filter((d) => d.vault === v).map((d) => staker(d.staker)),
    }));
    const operators = plan.operators.map((o) => lower(o.account.address));
    const state = await readChainState(chain.publicClient, scope, { stakers, operators }, block);
    expect(state.block).toBe(block);
    expect(state.timestamp).toBe((await chain.publicClient.getBlock({ blockNumber: block })).timestamp);
    for (const v of state.vaults) {
      expect(v.activeStake).toBe(
        await chain.publicClient.readContract({
          address: v.vault,
          abi: vaultAbi,
          functionName: "activeStake",
        }),
      );
      for (const s of v.stakers)
        expect(s.shares).toBe(
          await chain.publicClient.readContract({
            address: v.vault,
            abi: vaultAbi,
            functionName: "activeSharesOf",
            args: [s.staker],
          }),
        );
    }
    expect(state.stakes).toHaveLength(3 * 2 * 3);
    for (const s of state.stakes) {
      const delegator = plan.vaults.find((v) => lower(v.address) === s.vault)!.delegator;
      expect(s.stake).toBe(
        await chain.publicClient.readContract({
          address: delegator,
          abi: networkRestakeDelegatorAbi,
          functionName: "stake",
          args: [s.subnetwork, s.operator],
        }),
      );
    }
    expect(state.stakes.some((s) => s.stake > 0n)).toBe(true);
    expect(state.prices).toEqual(
      plan.collaterals.map((c) => ({ collateral: lower(c.address), answer: c.initialPrice })),
    );
    // At an earlier block the state is that block's: before the first deposit, nothing is staked.
    const blocks = await readStakeEvents(chain.publicClient, scope, firstBlock, block);
    const firstDeposit = blocks.find((b) => b.events.some((e) => e.kind === "deposit"))!.number;
    const early = await readChainState(chain.publicClient, scope, { stakers, operators }, firstDeposit - 1n);
    expect(early.vaults.every((v) => v.activeStake === 0n)).toBe(true);
  });
});

/** A client over anvil whose eth_getLogs refuses ranges wider than `maxRange`, or fails, or drops timestamps. */
function fakeRpc(options: { maxRange?: number; failWith?: string; stripTimestamps?: boolean }) {
  const state = {
    refused: 0,
    accepted: [] as number[],
    getLogsCalls: 0,
    headersByHash: [] as string[],
    otherHeaderReads: 0,
  };
  const forward = async (method: string, params: unknown) => {
    const response = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error)
      throw new RpcRequestError({ body: { method, params }, error: body.error, url: chain.rpcUrl });
    return body.result;
  };
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    if (method === "eth_getLogs") {
      state.getLogsCalls++;
      if (options.failWith) throw new Error(options.failWith);
      const [filter] = params as [{ fromBlock: string; toBlock: string }];
      const width = Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n);
      if (options.maxRange !== undefined && width > options.maxRange) {
        state.refused++;
        throw new RpcRequestError({
          body: { method, params },
          error: { code: -32005, message: "query returned more than 10000 results" },
          url: "fake",
        });
      }
      state.accepted.push(width);
      const logs = (await forward(method, params)) as Record<string, unknown>[];
      return options.stripTimestamps ? logs.map(({ blockTimestamp: _, ...log }) => log) : logs;
    }
    if (method === "eth_getBlockByHash") state.headersByHash.push((params as [string])[0]);
    if (method === "eth_getBlockByNumber") state.otherHeaderReads++;
    return forward(method, params);
  }) as EIP1193RequestFn;
  const client = createPublicClient({
    chain: chain.publicClient.chain,
    transport: custom({ request }, { retryCount: 0 }),
  }) as unknown as ChainPublicClient;
  return Object.assign(state, { client });
}
