// The points-engine suite's generated chain history: deterministic (seeded mulberry32), held as a few typed arrays
// (about 30 bytes per event) and encoded into logs only when a range is asked for. Addresses are numbered by role
// (vault i is 0x10…i), so nothing maps an address to its index but parsing it back.
//
// The history's first events set the stake up (every operator opted in to every network; per vault two networks
// with their max and network limits, five operators with operator-network shares, each opted in to the vault); the
// rest are deposits and withdrawals of the stakers (each staker in one vault, a withdrawal never more than it
// holds, shares 1:1 with the amount), price updates, network-limit and operator-share changes, spread evenly over
// the blocks. No slash: a slash changes the share price and the generator does not model it.

import { mulberry32 } from "../../src/shared/seeded-random.ts";

export interface HistoryPlan {
  /** Blocks of history (the engine's start block is the first of them). */
  blocks: number;
  vaults: number;
  networks: number;
  operators: number;
  stakers: number;
  /** Events over the history, the setup ones included. */
  events: number;
  seed: number;
}

export const FULL_PLAN: HistoryPlan = {
  blocks: 1_000_000,
  vaults: 200,
  networks: 20,
  operators: 100,
  stakers: 100_000,
  events: 1_000_000,
  seed: 22,
};

/** The plan at a fraction of the blocks, stakers and events (the registry's sizes unchanged). */
export function scaledPlan(scale: number): HistoryPlan {
  const scaled = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    ...FULL_PLAN,
    blocks: scaled(FULL_PLAN.blocks),
    stakers: scaled(FULL_PLAN.stakers),
    events: Math.max(scaled(FULL_PLAN.events), setupEventCount(FULL_PLAN)),
  };
}

/** The history's first block (the engine's start block); the block before it is its origin. */
export const FIRST_BLOCK = 1_000;
export const GENESIS_TIMESTAMP = 1_760_000_000;
export const BLOCK_SECONDS = 12;
export const OPERATORS_PER_VAULT = 5;
const NETWORKS_PER_VAULT = 2;
const COLLATERALS = 10;
const COLLATERAL_DECIMALS = [6, 8, 18] as const;
const FEED_DECIMALS = 8;
/** Network limits far above any vault's stake: the stake is bounded by the deposits. */
export const LARGE_LIMIT = 10n ** 40n;

export type Role =
  | "vault"
  | "delegator"
  | "collateral"
  | "feed"
  | "network"
  | "operator"
  | "staker"
  | "service"
  | "registry";
const ROLE_PREFIX: Record<Role, string> = {
  vault: "10",
  delegator: "20",
  collateral: "30",
  feed: "40",
  network: "50",
  operator: "60",
  staker: "70",
  service: "80",
  registry: "90",
};

export const addressOf = (role: Role, index: number): `0x${string}` =>
  `0x${ROLE_PREFIX[role]}${index.toString(16).padStart(38, "0")}`;

/** The role and index of a generated address, or undefined for any other. */
export function parseAddress(address: string): { role: Role; index: number } | undefined {
  const hex = address.toLowerCase().slice(2);
  const role = (Object.keys(ROLE_PREFIX) as Role[]).find((r) => ROLE_PREFIX[r] === hex.slice(0, 2));
  if (!role || hex.length !== 40) return undefined;
  return { role, index: Number.parseInt(hex.slice(2), 16) };
}

export const SERVICE = { network: 1, vault: 2 } as const;
export const REGISTRY = { network: 1, operator: 2, vaultFactory: 3 } as const;

export const collateralOfVault = (vault: number) => vault % COLLATERALS;
export const collateralCount = (plan: HistoryPlan) => Math.min(COLLATERALS, plan.vaults);
export const decimalsOfCollateral = (collateral: number) =>
  COLLATERAL_DECIMALS[collateral % COLLATERAL_DECIMALS.length]!;
export const feedDecimals = () => FEED_DECIMALS;
/** The USD price of collateral c at the start (in whole dollars, before FEED_DECIMALS). */
export const initialPrice = (collateral: number) => 1 + ((collateral * 37) % 3000);

export function networksOfVault(plan: HistoryPlan, vault: number): number[] {
  const first = vault % plan.networks;
  const second = (vault * 7 + 3) % plan.networks;
  return plan.networks === 1 || second === first ? [first] : [first, second].slice(0, NETWORKS_PER_VAULT);
}

export function operatorsOfVault(plan: HistoryPlan, vault: number): number[] {
  const operators = new Set<number>();
  for (let k = 0; k < OPERATORS_PER_VAULT; k++)
    operators.add((vault * OPERATORS_PER_VAULT + k) % plan.operators);
  return [...operators];
}

export const vaultOfStaker = (plan: HistoryPlan, staker: number) => staker % plan.vaults;

export const blockHash = (block: number): `0x${string}` =>
  `0x${"b10c"}${block.toString(16).padStart(60, "0")}`;
export const blockOfHash = (hash: string): number | undefined =>
  hash.toLowerCase().startsWith("0xb10c") && hash.length === 66
    ? Number.parseInt(hash.slice(6), 16)
    : undefined;
export const timestampOf = (block: number) => GENESIS_TIMESTAMP + block * BLOCK_SECONDS;

/** Event kinds as stored. */
export const KIND = {
  networkOptIn: 0,
  vaultOptIn: 1,
  maxNetworkLimit: 2,
  networkLimit: 3,
  operatorNetworkShares: 4,
  deposit: 5,
  withdraw: 6,
  price: 7,
} as const;

/**
 * One event in the arrays: `a` a vault (collateral for a price), `b` a staker, operator or network, `c` a network
 * (for shares: the network, `b` the operator), `amount` whole tokens, shares, or the price in feed units.
 */
export interface History {
  plan: HistoryPlan;
  kind: Uint8Array;
  a: Uint32Array;
  b: Uint32Array;
  c: Uint32Array;
  amount: Float64Array;
  /** Whole tokens each staker holds after the history (live deposits add to it). */
  balances: Float64Array;
  /** The last block of the history. */
  lastBlock: number;
}

export function setupEventCount(plan: HistoryPlan): number {
  let count = plan.operators * plan.networks;
  for (let v = 0; v < plan.vaults; v++)
    count +=
      networksOfVault(plan, v).length * (2 + operatorsOfVault(plan, v).length) +
      operatorsOfVault(plan, v).length;
  return count;
}

export function generateHistory(plan: HistoryPlan): History {
  const total = Math.max(plan.events, setupEventCount(plan));
  const history: History = {
    plan,
    kind: new Uint8Array(total),
    a: new Uint32Array(total),
    b: new Uint32Array(total),
    c: new Uint32Array(total),
    amount: new Float64Array(total),
    balances: new Float64Array(plan.stakers),
    lastBlock: FIRST_BLOCK + plan.blocks - 1,
  };
  let i = 0;
  const push = (kind: number, a: number, b: number, c: number, amount: number) => {
    history.kind[i] = kind;
    history.a[i] = a;
    history.b[i] = b;
    history.c[i] = c;
    history.amount[i] = amount;
    i++;
  };
  for (let o = 0; o < plan.operators; o++)
    for (let n = 0; n < plan.networks; n++) push(KIND.networkOptIn, 0, o, n, 0);
  for (let v = 0; v < plan.vaults; v++) {
    const operators = operatorsOfVault(plan, v);
    for (const n of networksOfVault(plan, v)) {
      push(KIND.maxNetworkLimit, v, 0, n, 0);
      push(KIND.networkLimit, v, 0, n, 0);
      operators.forEach((o, k) => {
        push(KIND.operatorNetworkShares, v, o, n, (k + 1) * 1000);
      });
    }
    for (const o of operators) push(KIND.vaultOptIn, v, o, 0, 0);
  }
  const random = mulberry32(plan.seed);
  const int = (n: number) => Math.floor(random() * n);
  const prices = Array.from(
    { length: collateralCount(plan) },
    (_, c) => initialPrice(c) * 10 ** FEED_DECIMALS,
  );
  while (i < total) {
    const r = random();
    if (r < 0.01) {
      const c = int(prices.length);
      prices[c] = Math.round(initialPrice(c) * 10 ** FEED_DECIMALS * (0.8 + 0.4 * random()));
      push(KIND.price, c, 0, 0, prices[c]!);
    } else if (r < 0.015) {
      const v = int(plan.vaults);
      const networks = networksOfVault(plan, v);
      push(KIND.networkLimit, v, 0, networks[int(networks.length)]!, 1 + int(1000));
    } else if (r < 0.02) {
      const v = int(plan.vaults);
      const networks = networksOfVault(plan, v);
      const operators = operatorsOfVault(plan, v);
      push(
        KIND.operatorNetworkShares,
        v,
        operators[int(operators.length)]!,
        networks[int(networks.length)]!,
        int(2000),
      );
    } else {
      const s = int(plan.stakers);
      const held = history.balances[s]!;
      if (held > 0 && random() < 0.3) {
        const amount = Math.max(1, Math.floor(held * random()));
        history.balances[s] = held - amount;
        push(KIND.withdraw, vaultOfStaker(plan, s), s, 0, amount);
      } else {
        const amount = 1 + int(1000);
        history.balances[s] = held + amount;
        push(KIND.deposit, vaultOfStaker(plan, s), s, 0, amount);
      }
    }
  }
  return history;
}

/** The events of block `block` of the history: indexes [from, to). */
export function eventRangeOfBlock(history: History, block: number): [number, number] {
  const offset = block - FIRST_BLOCK;
  if (offset < 0 || offset >= history.plan.blocks) return [0, 0];
  const total = history.kind.length;
  const blocks = history.plan.blocks;
  const first = (k: number) => Math.ceil((k * total) / blocks);
  return [first(offset), Math.min(total, first(offset + 1))];
}
