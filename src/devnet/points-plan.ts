// What the devnet deploys for the points engine, decided before anything is sent: its actors (keys derived from
// fixed labels, so the same addresses on every fresh chain without the cost of deriving from the mnemonic), the
// address of every contract (from the points owner's nonces and the vault factory's), and the initial state: 2
// networks, 3 operators, 3 vaults over collaterals of 6, 8 and 18 decimals with different USD prices, 20 stakers.
// The registry entries (points-registry.ts), the deployment's `pointsEngine` section and the deployment itself
// (points-deploy.ts) all read this one plan.
import { type Address, getContractAddress, type Hex, keccak256, type LocalAccount, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface PointsActor {
  label: string;
  account: LocalAccount;
  privateKey: Hex;
}

function actor(label: string): PointsActor {
  const privateKey = keccak256(stringToHex(`sluice devnet points ${label}`));
  return { label, account: privateKeyToAccount(privateKey), privateKey };
}

export interface PlannedCollateral {
  symbol: string;
  name: string;
  decimals: number;
  address: Address;
  feed: Address;
  feedDecimals: number;
  /** The feed's first answer: the USD price at `feedDecimals`. */
  initialPrice: bigint;
}

export type PlannedDelegator =
  | { type: "networkRestake"; shares: { network: number; operator: number; shares: bigint }[] }
  | { type: "operatorSpecific"; operator: number };

export interface PlannedVault {
  label: string;
  /** The vault factory's version: 1 a Vault, 2 a VaultTokenized (its shares an ERC-20). */
  version: 1 | 2;
  address: Address;
  collateral: number;
  delegator: Address;
  delegatorPlan: PlannedDelegator;
  /** Per network index: the network's maximum and the curator's limit, in collateral units. */
  limits: { network: number; max: bigint; limit: bigint }[];
  /** The curator's share of the vault's points (the pointsEngine section's curatorFeeBps). */
  curatorFeeBps: number;
}

export interface PlannedDeposit {
  staker: number;
  vault: number;
  amount: bigint;
}

export interface PointsPlan {
  /** Deploys every contract, owns the collaterals and feeds, curates the vaults, is their slasher. */
  owner: PointsActor;
  networks: PointsActor[];
  operators: PointsActor[];
  stakers: PointsActor[];
  contracts: {
    networkRegistry: Address;
    operatorRegistry: Address;
    vaultFactory: Address;
    operatorNetworkOptInService: Address;
    operatorVaultOptInService: Address;
  };
  collaterals: PlannedCollateral[];
  vaults: PlannedVault[];
  /** Operator index → the networks and vaults (indexes) it opts in to. */
  optIns: { operator: number; networks: number[]; vaults: number[] }[];
  deposits: PlannedDeposit[];
  /** Collateral minted to each staker per vault it stakes in, as a multiple of its first deposit. */
  mintMultiple: bigint;
  /** Epoch length of every vault, in seconds. */
  epochDuration: number;
}

export const POINTS_STAKER_COUNT = 20;

const unit = (decimals: number) => 10n ** BigInt(decimals);

/** The owner's nonces, in the order points-deploy.ts sends its deployments and factory calls. */
const NONCE = {
  networkRegistry: 0,
  operatorRegistry: 1,
  vaultFactory: 2,
  operatorNetworkOptInService: 3,
  operatorVaultOptInService: 4,
  /** Three collateral tokens, then three feeds, then three `VaultFactory.create` calls. */
  collaterals: 5,
  feeds: 8,
  vaultCreates: 11,
  /** Three delegators, one per vault, once the operators are registered. */
  delegators: 14,
} as const;

let cached: PointsPlan | undefined;

/** The plan (built once per process: deriving keys is not free). */
export function pointsPlan(): PointsPlan {
  cached ??= buildPlan();
  return cached;
}

function buildPlan(): PointsPlan {
  const owner = actor("owner");
  const at = (nonce: number) => getContractAddress({ from: owner.account.address, nonce: BigInt(nonce) });
  const vaultFactory = at(NONCE.vaultFactory);
  // A contract's first CREATE uses nonce 1.
  const vaultAt = (index: number) => getContractAddress({ from: vaultFactory, nonce: BigInt(index + 1) });

  const collateralSpecs = [
    { symbol: "tUSDC", name: "Sluice Test USDC", decimals: 6, feedDecimals: 8, price: 1n },
    { symbol: "tWBTC", name: "Sluice Test Wrapped BTC", decimals: 8, feedDecimals: 8, price: 60_000n },
    { symbol: "tWETH", name: "Sluice Test Wrapped Ether", decimals: 18, feedDecimals: 18, price: 3_000n },
  ];
  const collaterals = collateralSpecs.map((spec, index) => ({
    symbol: spec.symbol,
    name: spec.name,
    decimals: spec.decimals,
    address: at(NONCE.collaterals + index),
    feed: at(NONCE.feeds + index),
    feedDecimals: spec.feedDecimals,
    initialPrice: spec.price * unit(spec.feedDecimals),
  }));
  const [usdc, btc, eth] = collaterals.map((c) => unit(c.decimals)) as [bigint, bigint, bigint];

  const vaults: PlannedVault[] = [
    {
      label: "tUSDC network restake",
      version: 1,
      address: vaultAt(0),
      collateral: 0,
      delegator: at(NONCE.delegators),
      delegatorPlan: {
        type: "networkRestake",
        shares: [
          { network: 0, operator: 0, shares: 60n },
          { network: 0, operator: 1, shares: 40n },
          { network: 1, operator: 0, shares: 1n },
          { network: 1, operator: 1, shares: 1n },
          { network: 1, operator: 2, shares: 2n },
        ],
      },
      limits: [
        { network: 0, max: 5_000_000n * usdc, limit: 2_000_000n * usdc },
        // Below the vault's stake: the limit, not the stake, decides this network's share.
        { network: 1, max: 1_000_000n * usdc, limit: 500_000n * usdc },
      ],
      curatorFeeBps: 1000,
    },
    {
      label: "tWBTC network restake (tokenized)",
      version: 2,
      address: vaultAt(1),
      collateral: 1,
      delegator: at(NONCE.delegators + 1),
      delegatorPlan: {
        type: "networkRestake",
        shares: [
          { network: 0, operator: 1, shares: 1n },
          { network: 0, operator: 2, shares: 1n },
          { network: 1, operator: 0, shares: 1n },
        ],
      },
      limits: [
        { network: 0, max: 1_000n * btc, limit: 100n * btc },
        { network: 1, max: 100n * btc, limit: 10n * btc },
      ],
      curatorFeeBps: 500,
    },
    {
      label: "tWETH operator-specific",
      version: 1,
      address: vaultAt(2),
      collateral: 2,
      delegator: at(NONCE.delegators + 2),
      delegatorPlan: { type: "operatorSpecific", operator: 2 },
      limits: [
        { network: 0, max: 2_000n * eth, limit: 1_000n * eth },
        { network: 1, max: 500n * eth, limit: 200n * eth },
      ],
      curatorFeeBps: 0,
    },
  ];

  const stakers = Array.from({ length: POINTS_STAKER_COUNT }, (_, i) => actor(`staker ${i}`));
  // Staker i stakes in vault i mod 3; every fourth also in the next vault. Amounts grow with i.
  const firstDeposit = (vault: number, i: number): bigint => {
    const n = BigInt(i + 1);
    if (vault === 0) return n * 10_000n * usdc;
    if (vault === 1) return (n * btc) / 2n;
    return n * 5n * eth;
  };
  const deposits: PlannedDeposit[] = [];
  for (let i = 0; i < stakers.length; i++) {
    deposits.push({ staker: i, vault: i % 3, amount: firstDeposit(i % 3, i) });
    if (i % 4 === 0) deposits.push({ staker: i, vault: (i + 1) % 3, amount: firstDeposit((i + 1) % 3, i) });
  }

  return {
    owner,
    networks: [actor("network 0"), actor("network 1")],
    operators: [actor("operator 0"), actor("operator 1"), actor("operator 2")],
    stakers,
    contracts: {
      networkRegistry: at(NONCE.networkRegistry),
      operatorRegistry: at(NONCE.operatorRegistry),
      vaultFactory,
      operatorNetworkOptInService: at(NONCE.operatorNetworkOptInService),
      operatorVaultOptInService: at(NONCE.operatorVaultOptInService),
    },
    collaterals,
    vaults,
    optIns: [
      { operator: 0, networks: [0, 1], vaults: [0, 1] },
      { operator: 1, networks: [0, 1], vaults: [0, 1] },
      { operator: 2, networks: [0, 1], vaults: [0, 1, 2] },
    ],
    deposits,
    mintMultiple: 10n,
    epochDuration: 600,
  };
}

/** Every actor of the plan (they need ETH for gas). */
export function pointsActors(plan: PointsPlan): PointsActor[] {
  return [plan.owner, ...plan.networks, ...plan.operators, ...plan.stakers];
}
