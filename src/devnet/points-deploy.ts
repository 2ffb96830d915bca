// Deploys the plan of points-plan.ts on a local chain: the Symbiotic-style registries, vault factory and opt-in
// services, the collaterals and their price feeds, the vaults and their delegators; then the networks and operators
// register and opt in, the curator sets limits and operator shares, and the stakers make their first deposits.
// Each actor sends its transactions back to back with explicit nonces (TransactionSender), and the stages wait for
// each other only where a call needs the previous stage's state (a registered operator, a network's maximum limit).
import { type Address, createTestClient, encodeAbiParameters, isAddressEqual, parseEther } from "viem";
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
      account: a.account,
    });
  const sender = (a: PointsActor) => new TransactionSender(wallet(a), publicClient, pollingIntervalMs);
  const owner = sender(plan.owner);
  const networks = plan.networks.map(sender);
  const operators = plan.operators.map(sender);
  const stakers = plan.stakers.map(sender);
  const everyone = [owner, ...networks, ...operators, ...stakers];
  await Promise.all(everyone.map((s) => s.init()));
  const settle = (senders: readonly TransactionSender[]) => Promise.all(senders.map((s) => s.settle()));
  const startBlock = (await publicClient.getBlockNumber()) + 1n;
  const { contracts } = plan;
  const me = plan.owner.account.address;

  // A. The owner's contracts, at the plan's addresses.
  const expectAt = (planned: Address, actual: Address, what: string) => {
    if (!isAddressEqual(planned, actual))
      throw new Error(
        `points deployment: ${what} at ${actual}, planned at ${planned} (the owner has sent before)`,
      );
  };
  expectAt(
    contracts.networkRegistry,
    await owner.deploy("NetworkRegistry", networkRegistryAbi, networkRegistryBytecode, []),
    "NetworkRegistry",
  );
  expectAt(
    contracts.operatorRegistry,
    await owner.deploy("OperatorRegistry", operatorRegistryAbi, operatorRegistryBytecode, []),
    "OperatorRegistry",
  );
  expectAt(
    contracts.vaultFactory,
    await owner.deploy("VaultFactory", vaultFactoryAbi, vaultFactoryBytecode, [], 6_000_000n),
    "VaultFactory",
  );
  expectAt(
    contracts.operatorNetworkOptInService,
    await owner.deploy("OptInService operator→network", optInServiceAbi, optInServiceBytecode, [
      contracts.operatorRegistry,
      contracts.networkRegistry,
    ]),
    "the operator→network OptInService",
  );
  expectAt(
    contracts.operatorVaultOptInService,
    await owner.deploy("OptInService operator→vault", optInServiceAbi, optInServiceBytecode, [
      contracts.operatorRegistry,
      contracts.vaultFactory,
    ]),
    "the operator→vault OptInService",
  );
  for (const c of plan.collaterals) {
    expectAt(
      c.address,
      await owner.deploy(`TestERC20 ${c.symbol}`, testERC20Abi, testERC20Bytecode, [
        c.name,
        c.symbol,
        c.decimals,
        me,
      ]),
      c.symbol,
    );
  }
  for (const c of plan.collaterals) {
    expectAt(
      c.feed,
      await owner.deploy(`PriceFeed ${c.symbol}`, priceFeedAbi, priceFeedBytecode, [
        c.feedDecimals,
        `${c.symbol} / USD`,
        c.initialPrice,
        me,
      ]),
      `the ${c.symbol} feed`,
    );
  }
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
  await settle([owner]);

  // B. Networks and operators register themselves.
  for (const network of networks)
    await network.write(
      "registerNetwork",
      contracts.networkRegistry,
      networkRegistryAbi,
      "registerNetwork",
      [],
    );
  for (const operator of operators)
    await operator.write(
      "registerOperator",
      contracts.operatorRegistry,
      operatorRegistryAbi,
      "registerOperator",
      [],
    );
  await settle([...networks, ...operators]);

  // C. Delegators (an operator-specific one needs its operator registered), collateral for the stakers, opt-ins.
  for (const vault of plan.vaults) {
    const common = [
      contracts.networkRegistry,
      contracts.vaultFactory,
      contracts.operatorVaultOptInService,
      contracts.operatorNetworkOptInService,
    ] as const;
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
  for (const deposit of plan.deposits) {
    const c = plan.collaterals[plan.vaults[deposit.vault]!.collateral]!;
    const staker = plan.stakers[deposit.staker]!.account.address;
    await owner.write(`${c.symbol} mint`, c.address, testERC20Abi, "mint", [
      staker,
      deposit.amount * plan.mintMultiple,
    ]);
    await stakers[deposit.staker]!.write(`${c.symbol} approve`, c.address, testERC20Abi, "approve", [
      plan.vaults[deposit.vault]!.address,
      (1n << 256n) - 1n,
    ]);
  }
  for (const optIn of plan.optIns) {
    const operator = operators[optIn.operator]!;
    for (const n of optIn.networks)
      await operator.write("optIn network", contracts.operatorNetworkOptInService, optInServiceAbi, "optIn", [
        plan.networks[n]!.account.address,
      ]);
    for (const v of optIn.vaults)
      await operator.write("optIn vault", contracts.operatorVaultOptInService, optInServiceAbi, "optIn", [
        plan.vaults[v]!.address,
      ]);
  }
  await settle(everyone);

  // D. Vaults get their delegator and slasher; networks set their maximum limits; stakers deposit.
  for (const vault of plan.vaults) {
    await owner.write(`setDelegator ${vault.label}`, vault.address, vaultAbi, "setDelegator", [
      vault.delegator,
    ]);
    await owner.write(`setSlasher ${vault.label}`, vault.address, vaultAbi, "setSlasher", [me]);
    for (const limit of vault.limits)
      await networks[limit.network]!.write(
        "setMaxNetworkLimit",
        vault.delegator,
        networkRestakeDelegatorAbi,
        "setMaxNetworkLimit",
        [0n, limit.max],
      );
  }
  for (const deposit of plan.deposits) {
    const vault = plan.vaults[deposit.vault]!;
    await stakers[deposit.staker]!.write(`deposit ${vault.label}`, vault.address, vaultAbi, "deposit", [
      plan.stakers[deposit.staker]!.account.address,
      deposit.amount,
    ]);
  }
  await settle(everyone);

  // E. The curator's network limits and operator shares.
  for (const vault of plan.vaults) {
    for (const limit of vault.limits) {
      const subnetwork = subnetworkOf(plan.networks[limit.network]!.account.address);
      await owner.write("setNetworkLimit", vault.delegator, networkRestakeDelegatorAbi, "setNetworkLimit", [
        subnetwork,
        limit.limit,
      ]);
    }
    if (vault.delegatorPlan.type !== "networkRestake") continue;
    for (const share of vault.delegatorPlan.shares) {
      await owner.write(
        "setOperatorNetworkShares",
        vault.delegator,
        networkRestakeDelegatorAbi,
        "setOperatorNetworkShares",
        [
          subnetworkOf(plan.networks[share.network]!.account.address),
          plan.operators[share.operator]!.account.address,
          share.shares,
        ],
      );
    }
  }
  await settle([owner]);
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
