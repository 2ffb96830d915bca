// The Symbiotic-style contracts on anvil behave as symbioticfi/core's: `stake(subnetwork, operator)` follows each
// delegator type's formula (NetworkRestake: shares × min(activeStake, networkLimit) / total shares; OperatorSpecific:
// min(activeStake, networkLimit) for its one operator; FullRestake: min of the three), is 0 for an operator opted
// out of the network or of the vault, and follows limit changes (a lowered maximum lowers the limit without a
// SetNetworkLimit event); the vault's share math, slash and the tokenized vault's Transfer events.
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeAbiParameters,
  parseEventLogs,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { testERC20Abi } from "../../src/chain/abis.ts";
import type { ChainWalletClient } from "../../src/chain/client.ts";
import { deployPointsContracts } from "../../src/devnet/points-deploy.ts";
import { type PointsActor, pointsPlan } from "../../src/devnet/points-plan.ts";
import {
  fullRestakeDelegatorAbi,
  fullRestakeDelegatorBytecode,
  networkRestakeDelegatorAbi,
  operatorSpecificDelegatorAbi,
  optInServiceAbi,
  vaultAbi,
  vaultFactoryAbi,
  vaultTokenizedAbi,
} from "../../src/points-engine/chain/abis.ts";
import { subnetworkOf } from "../../src/points-engine/chain/subnetwork.ts";
import { useTestChain } from "../support/anvil.ts";

const plan = pointsPlan();
const chain = useTestChain({ deploy: false });
// The plan deployed once per file, before the first snapshot: each test runs on it and is reverted after.
beforeAll(async () => {
  await deployPointsContracts({ publicClient: chain.publicClient, rpcUrl: chain.rpcUrl, plan });
  // The deployment deposits on the stakers' behalf; the tests' own deposits need collateral in their wallets.
  for (const [staker, vault] of [
    [0, 0],
    [3, 0],
    [plan.deposits.find((d) => d.vault === 1)!.staker, 1],
  ] as const) {
    const { collateral, address } = plan.vaults[vault]!;
    const token = plan.collaterals[collateral]!.address;
    await send(plan.owner, token, testERC20Abi, "mint", [plan.stakers[staker]!.account.address, 10n ** 30n]);
    await send(plan.stakers[staker]!, token, testERC20Abi, "approve", [address, 10n ** 30n]);
  }
});

const wallets = new Map<string, ChainWalletClient>();
function walletOf(actor: PointsActor): ChainWalletClient {
  let wallet = wallets.get(actor.label);
  if (!wallet) {
    wallet = chain.wallet(actor.account);
    wallets.set(actor.label, wallet);
  }
  return wallet;
}

async function send(actor: PointsActor, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const hash = await walletOf(actor).writeContract({ address, abi, functionName, args } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function revertName(
  actor: PointsActor,
  address: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
) {
  try {
    await chain.publicClient.simulateContract({
      account: actor.account,
      address,
      abi,
      functionName,
      args,
    } as never);
  } catch (error) {
    const reverted =
      error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    throw error;
  }
  return undefined;
}

const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
  chain.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>;

const network = (i: number) => plan.networks[i]!.account.address;
const operator = (i: number) => plan.operators[i]!.account.address;
const staker = (i: number) => plan.stakers[i]!.account.address;
const sub = (i: number) => subnetworkOf(network(i));
const [usdcVault, btcVault, ethVault] = plan.vaults as [
  (typeof plan.vaults)[0],
  (typeof plan.vaults)[0],
  (typeof plan.vaults)[0],
];

const stakeOf = (vault: { delegator: Address }, n: number, o: number) =>
  read<bigint>(vault.delegator, networkRestakeDelegatorAbi, "stake", [sub(n), operator(o)]);

/** Core's NetworkRestakeDelegator formula, from the contracts' own state views. */
async function expectedNetworkRestakeStake(
  vault: { address: Address; delegator: Address },
  n: number,
  o: number,
) {
  const [optedVault, optedNetwork, activeStake, limit, shares, total] = await Promise.all([
    read<boolean>(plan.contracts.operatorVaultOptInService, optInServiceAbi, "isOptedIn", [
      operator(o),
      vault.address,
    ]),
    read<boolean>(plan.contracts.operatorNetworkOptInService, optInServiceAbi, "isOptedIn", [
      operator(o),
      network(n),
    ]),
    read<bigint>(vault.address, vaultAbi, "activeStake"),
    read<bigint>(vault.delegator, networkRestakeDelegatorAbi, "networkLimit", [sub(n)]),
    read<bigint>(vault.delegator, networkRestakeDelegatorAbi, "operatorNetworkShares", [sub(n), operator(o)]),
    read<bigint>(vault.delegator, networkRestakeDelegatorAbi, "totalOperatorNetworkShares", [sub(n)]),
  ]);
  if (!optedVault || !optedNetwork || total === 0n) return 0n;
  return (shares * minOf(activeStake, limit)) / total;
}

const minOf = (a: bigint, b: bigint) => (a < b ? a : b);

const depositsInto = (vault: number) =>
  plan.deposits.filter((d) => d.vault === vault).reduce((sum, d) => sum + d.amount, 0n);

describe("NetworkRestakeDelegator.stake", () => {
  it("is shares × min(activeStake, networkLimit) / total shares for every network and operator", async () => {
    for (const vault of [usdcVault, btcVault]) {
      for (const n of [0, 1]) {
        for (const o of [0, 1, 2]) {
          expect(await stakeOf(vault, n, o), `${vault.label} network ${n} operator ${o}`).toBe(
            await expectedNetworkRestakeStake(vault, n, o),
          );
        }
      }
    }
    // Written out: the tUSDC vault holds more than network 1's 500,000 limit, shared 1:1:2.
    const usdc = 10n ** 6n;
    expect(await read<bigint>(usdcVault.address, vaultAbi, "activeStake")).toBe(depositsInto(0));
    expect(depositsInto(0)).toBeGreaterThan(500_000n * usdc);
    expect(await stakeOf(usdcVault, 1, 2)).toBe(250_000n * usdc);
    expect(await stakeOf(usdcVault, 1, 0)).toBe(125_000n * usdc);
    // Network 0's limit (2,000,000) is above the stake: 60/100 of the whole stake.
    expect(await stakeOf(usdcVault, 0, 0)).toBe((depositsInto(0) * 60n) / 100n);
    // Operator 2 has no shares of network 0 in the tUSDC vault.
    expect(await stakeOf(usdcVault, 0, 2)).toBe(0n);
  });

  it("is 0 for an operator opted out of the network or of the vault, and back after opting in", async () => {
    // An opt-out in the second of the opt-in reverts (OptOutCooldown, as in core): the deployment just opted in.
    await chain.increaseTime(1);
    const before = await stakeOf(usdcVault, 0, 0);
    const otherBefore = await stakeOf(usdcVault, 1, 1);
    expect(before).toBeGreaterThan(0n);
    await send(plan.operators[0]!, plan.contracts.operatorNetworkOptInService, optInServiceAbi, "optOut", [
      network(0),
    ]);
    expect(await stakeOf(usdcVault, 0, 0)).toBe(0n);
    expect(await stakeOf(btcVault, 0, 0)).toBe(0n);
    // Its shares still count in the total: the other operators' stake does not grow (core's formula).
    expect(await stakeOf(usdcVault, 0, 1)).toBe((depositsInto(0) * 40n) / 100n);
    await send(plan.operators[1]!, plan.contracts.operatorVaultOptInService, optInServiceAbi, "optOut", [
      usdcVault.address,
    ]);
    expect(await stakeOf(usdcVault, 1, 1)).toBe(0n);
    expect(await stakeOf(usdcVault, 0, 1)).toBe(0n);
    expect(otherBefore).toBeGreaterThan(0n);
    // Still in the tWBTC vault, which it did not leave.
    expect(await stakeOf(btcVault, 0, 1)).toBe(await expectedNetworkRestakeStake(btcVault, 0, 1));
    expect(await stakeOf(btcVault, 0, 1)).toBeGreaterThan(0n);
    await send(plan.operators[0]!, plan.contracts.operatorNetworkOptInService, optInServiceAbi, "optIn", [
      network(0),
    ]);
    expect(await stakeOf(usdcVault, 0, 0)).toBe(before);
    expect(
      await revertName(
        plan.operators[0]!,
        plan.contracts.operatorNetworkOptInService,
        optInServiceAbi,
        "optIn",
        [network(0)],
      ),
    ).toBe("AlreadyOptedIn");
  });

  it("follows limit changes; a lowered maximum lowers the limit with only SetMaxNetworkLimit", async () => {
    const usdc = 10n ** 6n;
    await send(plan.owner, usdcVault.delegator, networkRestakeDelegatorAbi, "setNetworkLimit", [
      sub(1),
      100_000n * usdc,
    ]);
    expect(await stakeOf(usdcVault, 1, 2)).toBe(50_000n * usdc);
    expect(
      await revertName(plan.owner, usdcVault.delegator, networkRestakeDelegatorAbi, "setNetworkLimit", [
        sub(1),
        1_000_001n * usdc,
      ]),
    ).toBe("ExceedsMaxNetworkLimit");
    const receipt = await send(
      plan.networks[1]!,
      usdcVault.delegator,
      networkRestakeDelegatorAbi,
      "setMaxNetworkLimit",
      [0n, 40_000n * usdc],
    );
    const events = parseEventLogs({ abi: networkRestakeDelegatorAbi, logs: receipt.logs });
    expect(events.map((e) => e.eventName)).toEqual(["SetMaxNetworkLimit"]);
    expect(
      await read<bigint>(usdcVault.delegator, networkRestakeDelegatorAbi, "networkLimit", [sub(1)]),
    ).toBe(40_000n * usdc);
    expect(await stakeOf(usdcVault, 1, 2)).toBe(20_000n * usdc);
    // Shares: operator 2 gets 2 of 1+1+2, then 2 of 5+1+2 once operator 0 has 5.
    await send(plan.owner, usdcVault.delegator, networkRestakeDelegatorAbi, "setOperatorNetworkShares", [
      sub(1),
      operator(0),
      5n,
    ]);
    expect(await stakeOf(usdcVault, 1, 2)).toBe(10_000n * usdc);
    expect(await stakeOf(usdcVault, 1, 0)).toBe(25_000n * usdc);
  });
});

describe("OperatorSpecificDelegator.stake", () => {
  it("is min(activeStake, networkLimit) for its operator only, 0 once it opts out", async () => {
    const activeStake = depositsInto(2);
    const eth = 10n ** 18n;
    await chain.increaseTime(1);
    expect(await read<bigint>(ethVault.delegator, operatorSpecificDelegatorAbi, "TYPE")).toBe(2n);
    expect(await stakeOf(ethVault, 0, 2)).toBe(minOf(activeStake, 1_000n * eth));
    expect(await stakeOf(ethVault, 1, 2)).toBe(minOf(activeStake, 200n * eth));
    expect(activeStake).toBeGreaterThan(200n * eth);
    expect(await stakeOf(ethVault, 0, 0)).toBe(0n);
    await send(plan.operators[2]!, plan.contracts.operatorVaultOptInService, optInServiceAbi, "optOut", [
      ethVault.address,
    ]);
    expect(await stakeOf(ethVault, 0, 2)).toBe(0n);
  });
});

describe("FullRestakeDelegator", () => {
  it("is TYPE 1 and gives each operator min(activeStake, networkLimit, operatorNetworkLimit)", async () => {
    const owner = plan.owner.account.address;
    const data = encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint48" }],
      [plan.collaterals[0]!.address, owner, 600],
    );
    const { result: vault } = await chain.publicClient.simulateContract({
      account: plan.owner.account,
      address: plan.contracts.vaultFactory,
      abi: vaultFactoryAbi,
      functionName: "create",
      args: [1n, owner, data],
    });
    await send(plan.owner, plan.contracts.vaultFactory, vaultFactoryAbi, "create", [1n, owner, data]);
    const hash = await walletOf(plan.owner).deployContract({
      abi: fullRestakeDelegatorAbi,
      bytecode: fullRestakeDelegatorBytecode,
      args: [
        plan.contracts.networkRegistry,
        plan.contracts.vaultFactory,
        plan.contracts.operatorVaultOptInService,
        plan.contracts.operatorNetworkOptInService,
        vault,
        owner,
      ],
    });
    const delegator = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    expect(await read<bigint>(delegator, fullRestakeDelegatorAbi, "TYPE")).toBe(1n);
    await send(plan.owner, vault, vaultAbi, "setDelegator", [delegator]);
    await send(plan.operators[0]!, plan.contracts.operatorVaultOptInService, optInServiceAbi, "optIn", [
      vault,
    ]);
    await send(plan.networks[0]!, delegator, fullRestakeDelegatorAbi, "setMaxNetworkLimit", [0n, 1_000n]);
    await send(plan.owner, delegator, fullRestakeDelegatorAbi, "setNetworkLimit", [sub(0), 700n]);
    await send(plan.owner, delegator, fullRestakeDelegatorAbi, "setOperatorNetworkLimit", [
      sub(0),
      operator(0),
      300n,
    ]);
    const stake = () => read<bigint>(delegator, fullRestakeDelegatorAbi, "stake", [sub(0), operator(0)]);
    expect(await stake()).toBe(0n); // the vault is empty
    await send(plan.stakers[0]!, plan.collaterals[0]!.address, testERC20Abi, "approve", [vault, 10_000n]);
    await send(plan.stakers[0]!, vault, vaultAbi, "deposit", [staker(0), 200n]);
    expect(await stake()).toBe(200n);
    await send(plan.stakers[0]!, vault, vaultAbi, "deposit", [staker(0), 800n]);
    expect(await stake()).toBe(300n);
  });
});

describe("Vault", () => {
  it("mints shares as amount × (shares + 1) / (stake + 1), burns them rounded up, and a slash keeps shares", async () => {
    const vault = usdcVault.address;
    const [stake0, shares0] = await Promise.all([
      read<bigint>(vault, vaultAbi, "activeStake"),
      read<bigint>(vault, vaultAbi, "activeShares"),
    ]);
    const receipt = await send(plan.stakers[3]!, vault, vaultAbi, "deposit", [staker(3), 1_234_567n]);
    const [deposit] = parseEventLogs({ abi: vaultAbi, logs: receipt.logs, eventName: "Deposit" });
    expect(deposit!.args).toEqual({
      depositor: staker(3),
      onBehalfOf: staker(3),
      amount: 1_234_567n,
      shares: (1_234_567n * (shares0 + 1n)) / (stake0 + 1n),
    });
    // A slash lowers the stake, not the shares: each share is now worth less.
    const slash = await send(plan.owner, vault, vaultAbi, "onSlash", [1_000_000n, Number(await chain.now())]);
    const [onSlash] = parseEventLogs({ abi: vaultAbi, logs: slash.logs, eventName: "OnSlash" });
    expect(onSlash!.args.slashedAmount).toBe(1_000_000n);
    const [stake1, shares1, mine] = await Promise.all([
      read<bigint>(vault, vaultAbi, "activeStake"),
      read<bigint>(vault, vaultAbi, "activeShares"),
      read<bigint>(vault, vaultAbi, "activeSharesOf", [staker(3)]),
    ]);
    expect(stake1).toBe(stake0 + 1_234_567n - 1_000_000n);
    expect(shares1).toBe(shares0 + deposit!.args.shares);
    expect(await read<bigint>(vault, vaultAbi, "activeBalanceOf", [staker(3)])).toBe(
      (mine * (stake1 + 1n)) / (shares1 + 1n),
    );
    const withdrawal = await send(plan.stakers[3]!, vault, vaultAbi, "withdraw", [staker(3), 999_999n]);
    const [withdraw] = parseEventLogs({ abi: vaultAbi, logs: withdrawal.logs, eventName: "Withdraw" });
    const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
    expect(withdraw!.args.burnedShares).toBe(ceil(999_999n * (shares1 + 1n), stake1 + 1n));
    expect(await read<bigint>(vault, vaultAbi, "activeStake")).toBe(stake1 - 999_999n);
    expect(
      await revertName(plan.stakers[3]!, vault, vaultAbi, "onSlash", [1n, Number(await chain.now())]),
    ).toBe("NotSlasher");
  });

  it("tokenized: a deposit emits Deposit then a mint Transfer; a transfer moves active shares", async () => {
    const vault = btcVault.address;
    const holder = plan.deposits.find((d) => d.vault === 1)!.staker;
    const receipt = await send(plan.stakers[holder]!, vault, vaultAbi, "deposit", [staker(holder), 1_000n]);
    const logs = parseEventLogs({ abi: vaultTokenizedAbi, logs: receipt.logs }).filter(
      (log) => log.address.toLowerCase() === vault.toLowerCase(),
    );
    expect(logs.map((log) => log.eventName)).toEqual(["Deposit", "Transfer"]);
    const shares = await read<bigint>(vault, vaultTokenizedAbi, "balanceOf", [staker(holder)]);
    expect(shares).toBe(await read<bigint>(vault, vaultAbi, "activeSharesOf", [staker(holder)]));
    const moved = shares / 4n;
    const transfer = await send(plan.stakers[holder]!, vault, vaultTokenizedAbi, "transfer", [
      staker(2),
      moved,
    ]);
    const [event] = parseEventLogs({ abi: vaultTokenizedAbi, logs: transfer.logs, eventName: "Transfer" });
    expect(event!.args).toEqual({ from: staker(holder), to: staker(2), value: moved });
    expect(await read<bigint>(vault, vaultAbi, "activeSharesOf", [staker(holder)])).toBe(shares - moved);
    expect(await read<bigint>(vault, vaultAbi, "activeSharesOf", [staker(2)])).toBe(moved);
  });
});
