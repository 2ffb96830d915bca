// Seeded random stake histories for the ledger's properties: a small scope (networks with one or two
// subnetworks, operators, vaults over 6/8/18-decimal collaterals, one operator-specific, one with a curator),
// every block from the start with its events, and the reference chain's state at the end of each block.
import type {
  Address,
  ChainState,
  Hex,
  LedgerBlock,
  LedgerScope,
  StakeEvent,
} from "../../../src/points-engine/model.ts";
import { mulberry32 } from "../../../src/shared/seeded-random.ts";
import { ReferenceChain } from "./reference-chain.ts";

export function address(prefix: string, index: number): Address {
  return `0x${prefix}${index.toString(16).padStart(40 - prefix.length, "0")}` as Address;
}

export function subnetworkOf(network: Address, identifier: number): Hex {
  return `${network}${identifier.toString(16).padStart(24, "0")}` as Hex;
}

export interface Scenario {
  scope: LedgerScope;
  startBlock: bigint;
  startTimestamp: bigint;
  /** Every block after the start, with or without events. */
  blocks: LedgerBlock[];
  /** The reference chain's state at the end of each block, the start block included. */
  states: Map<bigint, ChainState>;
  stakers: Address[];
  /** A vault outside the scope (a FullRestake vault) whose events the ledger must ignore. */
  outsideVault: Address;
}

export interface ScenarioSize {
  blocks: number;
  /** Chance that a block has events. */
  eventChance: number;
  /** Stakers whose shares never change after the first block: [vault index, staker, staker]. */
  constantPair?: boolean;
}

const NETWORKS = [address("a1", 1), address("a1", 2)];
const OPERATORS = [address("b2", 1), address("b2", 2), address("b2", 3)];
const COLLATERALS = [address("c3", 1), address("c3", 2), address("c3", 3)];
const VAULTS = [address("d4", 1), address("d4", 2), address("d4", 3)];
const CURATOR = address("e5", 1);
const OUTSIDE_VAULT = address("d4", 99);

export function scenarioScope(): LedgerScope {
  return {
    networks: [
      {
        address: NETWORKS[0]!,
        subnetworks: [subnetworkOf(NETWORKS[0]!, 0), subnetworkOf(NETWORKS[0]!, 1)],
        ratePerUsdHour: 2_500_000_000_000_000_000_000_000_000_000_000_000_000_000_000n,
        operatorFeeBps: 300,
        networkShareBps: 0,
      },
      {
        address: NETWORKS[1]!,
        subnetworks: [subnetworkOf(NETWORKS[1]!, 0)],
        ratePerUsdHour: 7_777_777_777_777_777_777_777_777_777_777_777_777_777_777_777n,
        operatorFeeBps: 1_250,
        networkShareBps: 333,
      },
    ],
    vaults: [
      {
        address: VAULTS[0]!,
        collateral: COLLATERALS[0]!,
        collateralDecimals: 6,
        delegatorType: "networkRestake",
        curatorFeeBps: 0,
      },
      {
        address: VAULTS[1]!,
        collateral: COLLATERALS[1]!,
        collateralDecimals: 8,
        delegatorType: "operatorSpecific",
        operator: OPERATORS[2]!,
        curatorFeeBps: 0,
      },
      {
        address: VAULTS[2]!,
        collateral: COLLATERALS[2]!,
        collateralDecimals: 18,
        delegatorType: "networkRestake",
        curator: CURATOR,
        curatorFeeBps: 1_000,
      },
    ],
    priceFeeds: [
      { collateral: COLLATERALS[0]!, feed: address("f6", 1), decimals: 8, initialAnswer: 100_000_000n },
      { collateral: COLLATERALS[1]!, feed: address("f6", 2), decimals: 8, initialAnswer: 6_543_210_987_654n },
      {
        collateral: COLLATERALS[2]!,
        feed: address("f6", 3),
        decimals: 18,
        initialAnswer: 3_141_592_653_589_793_238_462n,
      },
    ],
  };
}

export function randomScenario(seed: number, size: ScenarioSize): Scenario {
  const random = mulberry32(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const big = (n: number) => BigInt(int(n));
  const scope = scenarioScope();
  const chain = new ReferenceChain(scope);
  const stakers = Array.from({ length: 6 }, (_, i) => address("99", i + 1));
  const subnetworks = scope.networks.flatMap((network) => network.subnetworks);
  const startBlock = 1_000n;
  const startTimestamp = 1_700_000_000n;
  const states = new Map<bigint, ChainState>([[startBlock, chain.state(startBlock, startTimestamp)]]);
  const blocks: LedgerBlock[] = [];

  const unit = (vault: (typeof scope.vaults)[number]) => 10n ** BigInt(vault.collateralDecimals);
  const deposit = (vaultIndex: number, staker: Address, tokens: bigint): StakeEvent => {
    const vault = scope.vaults[vaultIndex]!;
    const storage = chain.vault(vault.address)!;
    const amount = tokens * unit(vault) + big(1_000);
    const shares =
      storage.activeShares === 0n || storage.activeStake === 0n
        ? amount
        : (amount * storage.activeShares) / storage.activeStake + 1n;
    return { kind: "deposit", vault: vault.address, staker, amount, shares };
  };
  const constantStakers = [stakers[4]!, stakers[5]!];
  const movable = size.constantPair ? stakers.slice(0, 4) : stakers;

  const setup = (): StakeEvent[] => {
    const events: StakeEvent[] = [];
    for (const operator of OPERATORS) {
      for (const network of NETWORKS)
        events.push({ kind: "optIn", service: "network", operator, target: network });
      for (const vault of VAULTS) events.push({ kind: "optIn", service: "vault", operator, target: vault });
    }
    for (const vault of scope.vaults) {
      for (const subnetwork of subnetworks) {
        const max = (big(5_000) + 1n) * unit(vault);
        events.push({ kind: "maxNetworkLimit", vault: vault.address, subnetwork, amount: max });
        events.push({
          kind: "networkLimit",
          vault: vault.address,
          subnetwork,
          amount: max - big(100) * unit(vault),
        });
        if (vault.delegatorType === "networkRestake") {
          for (const operator of OPERATORS) {
            events.push({
              kind: "operatorNetworkShares",
              vault: vault.address,
              subnetwork,
              operator,
              shares: big(5) + 1n,
            });
          }
        }
      }
    }
    for (let i = 0; i < scope.vaults.length; i++) events.push(deposit(i, pick(movable), big(3_000) + 1n));
    if (size.constantPair) {
      events.push(deposit(2, constantStakers[0]!, 700n));
      events.push(deposit(2, constantStakers[1]!, 1_900n));
    }
    events.push({
      kind: "deposit",
      vault: OUTSIDE_VAULT,
      staker: stakers[0]!,
      amount: 10n ** 24n,
      shares: 10n ** 24n,
    });
    return events;
  };

  const randomEvent = (): StakeEvent | undefined => {
    const roll = random();
    const vaultIndex = int(scope.vaults.length);
    const vault = scope.vaults[vaultIndex]!;
    const storage = chain.vault(vault.address)!;
    const holders = [...storage.sharesOf].filter(
      ([staker, shares]) => shares > 0n && movable.includes(staker),
    );
    if (roll < 0.3) return deposit(vaultIndex, pick(movable), big(2_000) + 1n);
    if (roll < 0.45) {
      if (holders.length === 0 || storage.activeShares === 0n) return undefined;
      const [staker, shares] = pick(holders);
      const burnedShares = (shares * (big(100) + 1n)) / 100n;
      const amount = (burnedShares * storage.activeStake) / storage.activeShares;
      return { kind: "withdraw", vault: vault.address, staker, amount, burnedShares };
    }
    if (roll < 0.53) {
      if (holders.length === 0) return undefined;
      const [from, shares] = pick(holders);
      return {
        kind: "shareTransfer",
        vault: vault.address,
        from,
        to: pick(movable),
        shares: (shares * (big(100) + 1n)) / 100n,
      };
    }
    if (roll < 0.57) {
      return {
        kind: "slash",
        vault: vault.address,
        slashedAmount: (storage.activeStake * (big(20) + 1n)) / 100n,
      };
    }
    const subnetwork = pick(subnetworks);
    if (roll < 0.65) {
      const max = storage.maxNetworkLimit.get(subnetwork) ?? 0n;
      return { kind: "networkLimit", vault: vault.address, subnetwork, amount: (max * big(101)) / 100n };
    }
    if (roll < 0.7) {
      return { kind: "maxNetworkLimit", vault: vault.address, subnetwork, amount: big(6_000) * unit(vault) };
    }
    if (roll < 0.78) {
      const target = scope.vaults.filter((v) => v.delegatorType === "networkRestake");
      return {
        kind: "operatorNetworkShares",
        vault: pick(target).address,
        subnetwork,
        operator: pick(OPERATORS),
        shares: big(6),
      };
    }
    if (roll < 0.9) {
      const service = random() < 0.5 ? "network" : "vault";
      const operator = pick(OPERATORS);
      const target = service === "network" ? pick(NETWORKS) : pick(VAULTS);
      return {
        kind: chain.isOptedIn(service, operator, target) ? "optOut" : "optIn",
        service,
        operator,
        target,
      };
    }
    if (roll < 0.97) {
      const collateral = pick(COLLATERALS);
      const answer = random() < 0.05 ? 0n : (chain.answer(collateral) * (big(100) + 50n)) / 100n + 1n;
      return { kind: "price", collateral, answer };
    }
    return {
      kind: "deposit",
      vault: OUTSIDE_VAULT,
      staker: pick(stakers),
      amount: 10n ** 20n,
      shares: 10n ** 20n,
    };
  };

  let timestamp = startTimestamp;
  for (let i = 1; i <= size.blocks; i++) {
    const number = startBlock + BigInt(i);
    timestamp += random() < 0.05 ? 0n : big(24) + 1n;
    const events: StakeEvent[] = i === 1 ? setup() : [];
    if (i > 1 && random() < size.eventChance) {
      const count = 1 + int(3);
      for (let j = 0; j < count; j++) {
        const event = randomEvent();
        if (event !== undefined) {
          chain.apply(event);
          events.push(event);
        }
      }
    } else {
      for (const event of events) chain.apply(event);
    }
    blocks.push({ number, timestamp, events });
    states.set(number, chain.state(number, timestamp));
  }
  return { scope, startBlock, startTimestamp, blocks, states, stakers, outsideVault: OUTSIDE_VAULT };
}
