// Deploys the plan of points-plan.ts on a local chain: the Symbiotic-style registries, vault factory and opt-in
// services, the collaterals and their price feeds, the vaults and their delegators; then the networks and operators
// register and opt in, the curator sets limits and operator shares, and the stakers make their first deposits.
// Each actor sends its transactions back to back with explicit nonces (TransactionSender), and the stages wait for
// each other only where a call needs the previous stage's state (a registered operator, a network's maximum limit).
import {
  type Abi,
  type Address,
  createTestClient,
  encodeAbiParameters,
  type Hex,
  isAddressEqual,
  parseEther,
} from "viem";
import { testERC20Abi, testERC20Bytecode } from "../chain/abis.ts";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  createChainWalletClient,
  createRpcTransport,
} from "../chain/client.ts";
import {
  networkRegistryAbi,
  networkRegistryBytecode,
  networkRestakeDelegatorAbi,
  networkRestakeDelegatorBytecode,
  operatorRegistryAbi,
  operatorRegistryBytecode,
  operatorSpecificDelegatorAbi,
  operatorSpecificDelegatorBytecode,
  optInServiceAbi,
  optInServiceBytecode,
  priceFeedAbi,
  priceFeedBytecode,
  vaultAbi,
  vaultFactoryAbi,
  vaultFactoryBytecode,
} from "../points-engine/chain/abis.ts";
import { subnetworkOf } from "../points-engine/chain/subnetwork.ts";
import { MAX_UINT256 } from "../shared/wire.ts";
import { TransactionSender } from "./deploy.ts";
import { type PointsActor, type PointsPlan, pointsActors } from "./points-plan.ts";

/** ETH each points actor gets for gas (anvil_setBalance). */
const ACTOR_ETH = parseEther("1000");

export interface PointsDeployment {
  /** The block of the first points transaction: where the points engine starts reading. */
  startBlock: bigint;
}

export interface DeployPointsOptions {
  publicClient: ChainPublicClient;
  rpcUrl: string;
  plan: PointsPlan;
  /** Receipt polling interval (default 50 ms). */
  pollingIntervalMs?: number;
}

export async function deployPointsContracts(options: DeployPointsOptions): Promise<PointsDeployment> {
  const { publicClient, plan } = options;
  const chainId = await publicClient.getChainId();
  const pollingIntervalMs = options.pollingIntervalMs ?? 50;
  const testClient = createTestClient({ mode: "anvil", transport: createRpcTransport(options.rpcUrl) });
  await Promise.all(
    pointsActors(plan).map((a) => testClient.setBalance({ address: a.account.address, value: ACTOR_ETH })),
  );
  const wallet = (a: PointsActor): ChainWalletClient =>
    createChainWalletClient({
      chainId,
      rpcUrls: options.rpcUrl,
      pollingIntervalMs,
      cacheTimeMs: 0,
      // With automine a send answers once its block is mined: on a busy machine that can take seconds.
      timeoutMs: 60_000,
      account: a.account,
    });
  // Fees fixed once (well above a local chain's base fee): no fee request before each of the many sends.
  const latest = await publicClient.getBlock({ blockTag: "latest" });
  const fees = { maxFeePerGas: 2n * (latest.baseFeePerGas ?? 0n) + 10n ** 9n, maxPriorityFeePerGas: 0n };
  const sender = (a: PointsActor) => new TransactionSender(wallet(a), publicClient, pollingIntervalMs, fees);
  const owner = sender(plan.owner);
  const networks = plan.networks.map(sender);
  const operators = plan.operators.map(sender);
  const stakers = plan.stakers.map(sender);
  const everyone = [owner, ...networks, ...operators, ...stakers];
  await Promise.all(everyone.map((s) => s.init()));
  // Every address is the plan's only from the owner's first transaction on.
  const sent = await publicClient.getTransactionCount({ address: plan.owner.account.address });
  if (sent !== 0)
    throw new Error(
      `the devnet's points owner ${plan.owner.account.address} has sent ${sent} transactions on this chain ` +
        "(a deployment interrupted?): its contracts would not be at the planned addresses; remove the data " +
        "directory's devnet/ folder to start on a fresh chain",
    );
  const settle = (senders: readonly TransactionSender[]) => Promise.all(senders.map((s) => s.settle()));
  /** One stage: each actor sends its own transactions in order, the actors side by side; then all are mined. */
  const stage = async (sequences: (() => Promise<void>)[]) => {
    await Promise.all(sequences.map((sequence) => sequence()));
    await settle(everyone);
  };
  const startBlock = (await publicClient.getBlockNumber()) + 1n;
  const { contracts } = plan;
  const me = plan.owner.account.address;
  const expectAt = (planned: Address, actual: Address, what: string) => {
    if (!isAddressEqual(planned, actual))
      throw new Error(`points deployment: ${what} at ${actual}, planned at ${planned}`);
  };
  const subnetwork = (network: number) => subnetworkOf(plan.networks[network]!.account.address);

  // A. The owner's contracts, at the plan's addresses.
  await stage([
    async () => {
      const deploy = async (
        planned: Address,
        label: string,
        abi: Abi,
        bytecode: Hex,
        args: unknown[],
        gas?: bigint,
      ) => expectAt(planned, await owner.deploy(label, abi, bytecode, args, gas), label);
      await deploy(
        contracts.networkRegistry,
        "NetworkRegistry",
        networkRegistryAbi,
        networkRegistryBytecode,
        [],
      );
      await deploy(
        contracts.operatorRegistry,
        "OperatorRegistry",
        operatorRegistryAbi,
        operatorRegistryBytecode,
        [],
      );
      await deploy(
        contracts.vaultFactory,
        "VaultFactory",
        vaultFactoryAbi,
        vaultFactoryBytecode,
        [],
        6_000_000n,
      );
      await deploy(
        contracts.operatorNetworkOptInService,
        "OptInService operator→network",
        optInServiceAbi,
        optInServiceBytecode,
        [contracts.operatorRegistry, contracts.networkRegistry],
      );
      await deploy(
        contracts.operatorVaultOptInService,
        "OptInService operator→vault",
        optInServiceAbi,
        optInServiceBytecode,
        [contracts.operatorRegistry, contracts.vaultFactory],
      );
      for (const c of plan.collaterals)
        await deploy(c.address, `TestERC20 ${c.symbol}`, testERC20Abi, testERC20Bytecode, [
          c.name,
          c.symbol,
          c.decimals,
          me,
        ]);
      for (const c of plan.collaterals)
        await deploy(c.feed, `PriceFeed ${c.symbol}`, priceFeedAbi, priceFeedBytecode, [
          c.feedDecimals,
          `${c.symbol} / USD`,
          c.initialPrice,
          me,
        ]);
      for (const vault of plan.vaults) {
        const c = plan.collaterals[vault.collateral]!;
        const data =
          vault.version === 1
            ? encodeAbiParameters(
                [{ type: "address" }, { type: "address" }, { type: "uint48" }],
                [c.address, me, plan.epochDuration],
              )
            : encodeAbiParameters(
                [
                  { type: "address" },
                  { type: "address" },
                  { type: "uint48" },
                  { type: "string" },
                  { type: "string" },
                ],
                [c.address, me, plan.epochDuration, `Staked ${c.symbol}`, `st${c.symbol}`],
              );
        await owner.write(
          `VaultFactory.create ${vault.label}`,
          contracts.vaultFactory,
          vaultFactoryAbi,
          "create",
          [BigInt(vault.version), me, data],
          3_000_000n,
        );
      }
    },
  ]);

  // B. Networks and operators register themselves.
  await stage([
    ...networks.map(
      (network) => () =>
        network.write(
          "registerNetwork",
          contracts.networkRegistry,
          networkRegistryAbi,
          "registerNetwork",
          [],
        ),
    ),
    ...operators.map(
      (operator) => () =>
        operator.write(
          "registerOperator",
          contracts.operatorRegistry,
          operatorRegistryAbi,
          "registerOperator",
          [],
        ),
    ),
  ]);

  // C. Delegators (an operator-specific one needs its operator registered), the owner's collateral to deposit for
  // the stakers, the operators' opt-ins.
  const initialDeposits = (collateral: number) =>
    plan.deposits
      .filter((d) => plan.vaults[d.vault]!.collateral === collateral)
      .reduce((sum, d) => sum + d.amount, 0n);
  await stage([
    async () => {
      const common = [
        contracts.networkRegistry,
        contracts.vaultFactory,
        contracts.operatorVaultOptInService,
        contracts.operatorNetworkOptInService,
      ] as const;
      for (const vault of plan.vaults) {
        const p = vault.delegatorPlan;
        const deployed =
          p.type === "networkRestake"
            ? await owner.deploy(
                `NetworkRestakeDelegator ${vault.label}`,
                networkRestakeDelegatorAbi,
                networkRestakeDelegatorBytecode,
                [...common, vault.address, me],
              )
            : await owner.deploy(
                `OperatorSpecificDelegator ${vault.label}`,
                operatorSpecificDelegatorAbi,
                operatorSpecificDelegatorBytecode,
                [
                  ...common,
                  contracts.operatorRegistry,
                  vault.address,
                  me,
                  plan.operators[p.operator]!.account.address,
                ],
              );
        expectAt(vault.delegator, deployed, `the delegator of ${vault.label}`);
      }
      for (const [index, c] of plan.collaterals.entries()) {
        await owner.write(`${c.symbol} mint`, c.address, testERC20Abi, "mint", [me, initialDeposits(index)]);
        for (const vault of plan.vaults.filter((v) => v.collateral === index))
          await owner.write(`${c.symbol} approve`, c.address, testERC20Abi, "approve", [
            vault.address,
            MAX_UINT256,
          ]);
      }
    },
    ...plan.optIns.map((optIn) => async () => {
      const operator = operators[optIn.operator]!;
      for (const n of optIn.networks)
        await operator.write(
          "optIn network",
          contracts.operatorNetworkOptInService,
          optInServiceAbi,
          "optIn",
          [plan.networks[n]!.account.address],
        );
      for (const v of optIn.vaults)
        await operator.write("optIn vault", contracts.operatorVaultOptInService, optInServiceAbi, "optIn", [
          plan.vaults[v]!.address,
        ]);
    }),
  ]);

  // D. Vaults get their delegator and slasher; the owner deposits on behalf of each staker; networks set their
  // maximum limits.
  await stage([
    async () => {
      for (const vault of plan.vaults) {
        await owner.write(`setDelegator ${vault.label}`, vault.address, vaultAbi, "setDelegator", [
          vault.delegator,
        ]);
        await owner.write(`setSlasher ${vault.label}`, vault.address, vaultAbi, "setSlasher", [me]);
      }
      for (const deposit of plan.deposits) {
        const vault = plan.vaults[deposit.vault]!;
        await owner.write(`deposit ${vault.label}`, vault.address, vaultAbi, "deposit", [
          plan.stakers[deposit.staker]!.account.address,
          deposit.amount,
        ]);
      }
    },
    ...networks.map((network, n) => async () => {
      for (const vault of plan.vaults)
        for (const limit of vault.limits.filter((l) => l.network === n))
          await network.write(
            "setMaxNetworkLimit",
            vault.delegator,
            networkRestakeDelegatorAbi,
            "setMaxNetworkLimit",
            [0n, limit.max],
          );
    }),
  ]);

  // E. The curator's network limits and operator shares.
  await stage([
    async () => {
      for (const vault of plan.vaults) {
        for (const limit of vault.limits)
          await owner.write(
            "setNetworkLimit",
            vault.delegator,
            networkRestakeDelegatorAbi,
            "setNetworkLimit",
            [subnetwork(limit.network), limit.limit],
          );
        if (vault.delegatorPlan.type !== "networkRestake") continue;
        for (const share of vault.delegatorPlan.shares)
          await owner.write(
            "setOperatorNetworkShares",
            vault.delegator,
            networkRestakeDelegatorAbi,
            "setOperatorNetworkShares",
            [subnetwork(share.network), plan.operators[share.operator]!.account.address, share.shares],
          );
      }
    },
  ]);
  return { startBlock };
}

/** The plan's contracts that must have code for a recorded points deployment to be reused. */
export function plannedPointsContracts(plan: PointsPlan): Address[] {
  return [
    ...Object.values(plan.contracts),
    ...plan.collaterals.flatMap((c) => [c.address, c.feed]),
    ...plan.vaults.flatMap((v) => [v.address, v.delegator]),
  ];
}
