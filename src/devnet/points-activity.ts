// A scripted staking activity during the first minutes of every devnet run, so the points the engine computes grow
// and change while someone watches: deposits, withdrawals, a transfer of tokenized shares, price updates, limit
// changes, an operator's opt-out (and back), a slash. Each step reads the chain first and picks what is valid now
// (toggles go back and forth across runs, amounts follow balances), so any run on any kept chain can play it.
// It sends only from the points actors (points-plan.ts), one transaction at a time each, so its nonces never meet
// the swap flow's accounts; a failed step is logged and the script goes on. It runs in the background and stops
// with the devnet (before anvil).
import { setTimeout as sleep } from "node:timers/promises";
import type { Abi, Address } from "viem";
import { testERC20Abi } from "../chain/abis.ts";
import { type ChainPublicClient, createChainWalletClient } from "../chain/client.ts";
import type { Logger } from "../logger.ts";
import {
  networkRestakeDelegatorAbi,
  optInServiceAbi,
  priceFeedAbi,
  vaultAbi,
  vaultTokenizedAbi,
} from "../points-engine/chain/abis.ts";
import { subnetworkOf } from "../points-engine/chain/subnetwork.ts";
import type { PointsActor, PointsPlan } from "./points-plan.ts";

/** Seconds between two steps on the devnet: the script spans about two minutes. */
export const POINTS_ACTIVITY_STEP_MS = 10_000;

export interface PointsActivityOptions {
  publicClient: ChainPublicClient;
  rpcUrl: string;
  plan: PointsPlan;
  logger: Logger;
  /** Pause before each step (default POINTS_ACTIVITY_STEP_MS). */
  stepIntervalMs?: number;
}

export interface PointsActivity {
  /** Resolves when the script has played every step (or was stopped). */
  done: Promise<void>;
  /** Names of the steps played so far, each with whether it went through. */
  readonly played: readonly { step: string; ok: boolean }[];
  /** Stops before the next step and waits for the current one. */
  stop(): Promise<void>;
}

interface Step {
  name: string;
  run(): Promise<void>;
}

export function startPointsActivity(options: PointsActivityOptions): PointsActivity {
  const { logger } = options;
  const controller = new AbortController();
  const played: { step: string; ok: boolean }[] = [];
  const steps = pointsActivitySteps(options);
  const done = (async () => {
    logger.info({ steps: steps.length }, "devnet: points activity started");
    for (const step of steps) {
      try {
        await sleep(options.stepIntervalMs ?? POINTS_ACTIVITY_STEP_MS, undefined, {
          signal: controller.signal,
        });
      } catch {
        return;
      }
      try {
        await step.run();
        played.push({ step: step.name, ok: true });
        logger.debug({ step: step.name }, "devnet: points activity step");
      } catch (error) {
        if (controller.signal.aborted) return;
        played.push({ step: step.name, ok: false });
        logger.warn({ step: step.name, err: error }, "devnet: a points activity step failed; going on");
      }
    }
    logger.info({ steps: played.length }, "devnet: points activity finished");
  })();
  return {
    done,
    played,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

/** The script: each step decides from the chain's current state. */
function pointsActivitySteps(options: PointsActivityOptions): Step[] {
  const { publicClient, plan } = options;
  const chainId = publicClient.chain!.id;
  const wallets = new Map<string, ReturnType<typeof createChainWalletClient>>();
  const send = async (
    actor: PointsActor,
    address: Address,
    abi: Abi,
    functionName: string,
    args: unknown[],
  ) => {
    let wallet = wallets.get(actor.label);
    if (!wallet) {
      wallet = createChainWalletClient({
        chainId,
        rpcUrls: options.rpcUrl,
        cacheTimeMs: 0,
        account: actor.account,
      });
      wallets.set(actor.label, wallet);
    }
    const hash = await wallet.writeContract({ address, abi, functionName, args } as never);
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: 250,
      timeout: 60_000,
    });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted (${hash})`);
  };
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>;

  const owner = plan.owner;
  const vaultOf = (staker: number) => plan.deposits.find((d) => d.staker === staker)!.vault;
  const subnetwork = (network: number) => subnetworkOf(plan.networks[network]!.account.address);

  /** A staker deposits from its own wallet: the owner mints it the collateral, it approves and deposits. */
  const deposit = (staker: number, vault: number, amount: bigint): Step => ({
    name: `staker ${staker} deposits`,
    async run() {
      const actor = plan.stakers[staker]!;
      const { address: vaultAddress, collateral } = plan.vaults[vault]!;
      const token = plan.collaterals[collateral]!.address;
      await send(owner, token, testERC20Abi, "mint", [actor.account.address, amount]);
      await send(actor, token, testERC20Abi, "approve", [vaultAddress, amount]);
      await send(actor, vaultAddress, vaultAbi, "deposit", [actor.account.address, amount]);
    },
  });

  /** A staker withdraws `percent` of its active balance (to claim after the epoch). */
  const withdraw = (staker: number, percent: bigint): Step => ({
    name: `staker ${staker} withdraws ${percent}%`,
    async run() {
      const actor = plan.stakers[staker]!;
      const vault = plan.vaults[vaultOf(staker)]!.address;
      const balance = await read<bigint>(vault, vaultAbi, "activeBalanceOf", [actor.account.address]);
      const amount = (balance * percent) / 100n;
      if (amount === 0n) return;
      await send(actor, vault, vaultAbi, "withdraw", [actor.account.address, amount]);
    },
  });

  /** The feed moves by `bps` away from its first price: down when at or above it, else up. */
  const price = (collateral: number, bps: bigint): Step => ({
    name: `${plan.collaterals[collateral]!.symbol} price update`,
    async run() {
      const { feed, initialPrice } = plan.collaterals[collateral]!;
      const current = await read<bigint>(feed, priceFeedAbi, "latestAnswer");
      const next =
        current >= initialPrice
          ? (current * (10_000n - bps)) / 10_000n
          : (current * (10_000n + bps)) / 10_000n;
      await send(owner, feed, priceFeedAbi, "updateAnswer", [next]);
    },
  });

  /** The curator moves a network's limit in a vault between two values. */
  const limit = (vault: number, network: number, a: bigint, b: bigint): Step => ({
    name: `network ${network} limit change in ${plan.vaults[vault]!.label}`,
    async run() {
      const { delegator } = plan.vaults[vault]!;
      const current = await read<bigint>(delegator, networkRestakeDelegatorAbi, "networkLimit", [
        subnetwork(network),
      ]);
      await send(owner, delegator, networkRestakeDelegatorAbi, "setNetworkLimit", [
        subnetwork(network),
        current === a ? b : a,
      ]);
    },
  });

  /** A network moves its maximum in a vault between two values (lowering it lowers the limit with it). */
  const maxLimit = (vault: number, network: number, a: bigint, b: bigint): Step => ({
    name: `network ${network} maximum change in ${plan.vaults[vault]!.label}`,
    async run() {
      const { delegator } = plan.vaults[vault]!;
      const current = await read<bigint>(delegator, networkRestakeDelegatorAbi, "maxNetworkLimit", [
        subnetwork(network),
      ]);
      await send(plan.networks[network]!, delegator, networkRestakeDelegatorAbi, "setMaxNetworkLimit", [
        0n,
        current === a ? b : a,
      ]);
    },
  });

  /** An operator leaves a network (or comes back when it had left). */
  const optToggle = (operator: number, network: number): Step => ({
    name: `operator ${operator} opts out of (or back into) network ${network}`,
    async run() {
      const actor = plan.operators[operator]!;
      const target = plan.networks[network]!.account.address;
      const service = plan.contracts.operatorNetworkOptInService;
      const optedIn = await read<boolean>(service, optInServiceAbi, "isOptedIn", [
        actor.account.address,
        target,
      ]);
      await send(actor, service, optInServiceAbi, optedIn ? "optOut" : "optIn", [target]);
    },
  });

  /** A holder of the tokenized vault sends a tenth of its shares to another staker. */
  const shareTransfer = (from: number, to: number): Step => ({
    name: `staker ${from} transfers vault shares to staker ${to}`,
    async run() {
      const vault = plan.vaults.find((v) => v.version === 2)!.address;
      const actor = plan.stakers[from]!;
      const shares = await read<bigint>(vault, vaultTokenizedAbi, "balanceOf", [actor.account.address]);
      if (shares / 10n === 0n) return;
      await send(actor, vault, vaultTokenizedAbi, "transfer", [
        plan.stakers[to]!.account.address,
        shares / 10n,
      ]);
    },
  });

  /** The vault's slasher (the owner) slashes 1 % of its active stake. */
  const slash = (vault: number): Step => ({
    name: `slash of ${plan.vaults[vault]!.label}`,
    async run() {
      const { address } = plan.vaults[vault]!;
      const stake = await read<bigint>(address, vaultAbi, "activeStake");
      const block = await publicClient.getBlock({ blockTag: "latest" });
      if (stake / 100n === 0n) return;
      await send(owner, address, vaultAbi, "onSlash", [stake / 100n, Number(block.timestamp)]);
    },
  });

  const unit = (collateral: number) => 10n ** BigInt(plan.collaterals[collateral]!.decimals);
  const btcHolder = plan.deposits.find((d) => d.vault === 1)!.staker;
  return [
    deposit(0, 0, 25_000n * unit(0)),
    deposit(2, 2, 10n * unit(2)),
    withdraw(5, 25n),
    price(2, 400n),
    limit(0, 1, 500_000n * unit(0), 300_000n * unit(0)),
    optToggle(1, 1),
    shareTransfer(btcHolder, 3),
    maxLimit(2, 1, 500n * unit(2), 150n * unit(2)),
    slash(1),
    withdraw(10, 10n),
    price(1, 300n),
    optToggle(1, 1),
    deposit(7, vaultOf(7), 3n * unit(plan.vaults[vaultOf(7)]!.collateral)),
  ];
}
