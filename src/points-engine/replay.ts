// The verifier's deliberately different path: replays every block from the accrual start with per-block,
// per-receiver arithmetic over the on-chain state read at each block through the contracts' own views (the
// delegators' `stake(subnetwork, operator)`, `activeSharesOf`, the feeds' answers), as the points template does.
// It shares only the formula's definitions with the ledger (formula.ts), not its state, events or accumulators.
//
// Block k accrues with the state at the end of block k−1 over ts_k − ts_{k−1}. Each receiver gets the floor of
// its exact share of the block; the stakers get the floor of (pool growth in the block × shares / active shares).
// Emission per vault is the floor of the exact cumulative numerator, as in the ledger, so totals agree exactly;
// what the per-block floors leave goes to the vault's own address as staker, as in the ledger.
import {
  BPS,
  type NetworkWeights,
  networkWeights,
  POINTS_DENOMINATOR,
  subnetworkNetwork,
  type UsdConversion,
  usdConversion,
  usdStake,
} from "./formula.ts";
import type {
  Address,
  ChainState,
  ChainStateReader,
  Hex,
  LedgerScope,
  LedgerSnapshot,
  ReceiverPoints,
  ReceiverType,
} from "./model.ts";

export interface ReplayOptions {
  scope: LedgerScope;
  /** The accrual start: points count for the blocks after it. */
  fromBlock: bigint;
  /** The block to replay up to (inclusive). */
  toBlock: bigint;
  readState: ChainStateReader;
  /** Called after each replayed block. */
  onBlock?: (block: bigint) => void;
}

export interface ReplayResult {
  block: bigint;
  timestamp: bigint;
  /** How many blocks accrued (toBlock − fromBlock). */
  blocks: bigint;
  emitted: bigint;
  vaults: { vault: Address; emitted: bigint }[];
  /** Every receiver with points, each vault's rounding receiver included. */
  receivers: ReceiverPoints[];
}

interface ReplayVault {
  address: Address;
  collateral: Address;
  conversion: UsdConversion;
  curator: Address | null;
  curatorFeeBps: bigint;
  emittedNumerator: bigint;
  stakersNumerator: bigint;
  operators: Map<Address, bigint>;
  networks: Map<Address, bigint>;
  curatorPoints: bigint;
  stakers: Map<Address, bigint>;
}

/** Replays blocks fromBlock+1 … toBlock; reads the state of every block from fromBlock to toBlock once. */
export async function replayPoints(options: ReplayOptions): Promise<ReplayResult> {
  const { scope, fromBlock, toBlock, readState } = options;
  const networkBySubnetwork = new Map<string, { address: Address; weights: NetworkWeights }>();
  for (const network of scope.networks) {
    const weights = networkWeights(network.ratePerUsdHour, network.operatorFeeBps, network.networkShareBps);
    for (const subnetwork of network.subnetworks) {
      networkBySubnetwork.set(subnetwork.toLowerCase(), { address: subnetworkNetwork(subnetwork), weights });
    }
  }
  const feedDecimals = new Map(
    scope.priceFeeds.map((feed) => [feed.collateral.toLowerCase(), feed.decimals]),
  );
  const vaults = new Map<Address, ReplayVault>();
  for (const vault of scope.vaults) {
    const curator = vault.curator === undefined ? null : (vault.curator.toLowerCase() as Address);
    vaults.set(vault.address.toLowerCase() as Address, {
      address: vault.address.toLowerCase() as Address,
      collateral: vault.collateral.toLowerCase() as Address,
      conversion: usdConversion(
        vault.collateralDecimals,
        feedDecimals.get(vault.collateral.toLowerCase()) ?? 0,
      ),
      curator,
      curatorFeeBps: curator === null ? 0n : BigInt(vault.curatorFeeBps),
      emittedNumerator: 0n,
      stakersNumerator: 0n,
      operators: new Map(),
      networks: new Map(),
      curatorPoints: 0n,
      stakers: new Map(),
    });
  }

  let previous = await readState(fromBlock);
  for (let block = fromBlock + 1n; block <= toBlock; block++) {
    const current = await readState(block);
    replayBlock(previous, current.timestamp - previous.timestamp, vaults, networkBySubnetwork);
    previous = current;
    options.onBlock?.(block);
  }

  const receivers: ReceiverPoints[] = [];
  const vaultTotals: ReplayResult["vaults"] = [];
  let emitted = 0n;
  for (const vault of vaults.values()) {
    const vaultEmitted = vault.emittedNumerator / POINTS_DENOMINATOR;
    emitted += vaultEmitted;
    vaultTotals.push({ vault: vault.address, emitted: vaultEmitted });
    const entries: ReceiverPoints[] = [];
    const add = (receiver: Address, type: ReceiverType, points: bigint) =>
      entries.push({ vault: vault.address, receiver, type, points });
    for (const [operator, points] of vault.operators) add(operator, "operator", points);
    for (const [network, points] of vault.networks) add(network, "network", points);
    if (vault.curator !== null) add(vault.curator, "curator", vault.curatorPoints);
    for (const [staker, points] of vault.stakers) add(staker, "staker", points);
    let credited = 0n;
    for (const entry of entries) credited += entry.points;
    const own = entries.find((entry) => entry.receiver === vault.address && entry.type === "staker");
    if (own !== undefined) own.points += vaultEmitted - credited;
    else add(vault.address, "staker", vaultEmitted - credited);
    for (const entry of entries) if (entry.points !== 0n) receivers.push(entry);
  }
  return {
    block: toBlock,
    timestamp: previous.timestamp,
    blocks: toBlock - fromBlock,
    emitted,
    vaults: vaultTotals,
    receivers,
  };
}

function replayBlock(
  state: ChainState,
  dt: bigint,
  vaults: Map<Address, ReplayVault>,
  networkBySubnetwork: Map<string, { address: Address; weights: NetworkWeights }>,
): void {
  const prices = new Map(state.prices.map((price) => [price.collateral.toLowerCase(), price.answer]));
  // This block's exact numerators, per vault and receiver, before any floor.
  const blockNumerators = new Map<
    Address,
    { emitted: bigint; vault: bigint; operators: Map<Address, bigint>; networks: Map<Address, bigint> }
  >();
  for (const pair of state.stakes) {
    const vault = vaults.get(pair.vault.toLowerCase() as Address);
    const network = networkBySubnetwork.get(pair.subnetwork.toLowerCase() as Hex);
    if (vault === undefined || network === undefined || pair.stake === 0n) continue;
    const usd = usdStake(pair.stake, prices.get(vault.collateral) ?? 0n, vault.conversion);
    if (usd === 0n) continue;
    let numerators = blockNumerators.get(vault.address);
    if (numerators === undefined) {
      numerators = { emitted: 0n, vault: 0n, operators: new Map(), networks: new Map() };
      blockNumerators.set(vault.address, numerators);
    }
    const usdSeconds = usd * dt;
    numerators.emitted += network.weights.emitted * usdSeconds;
    numerators.vault += network.weights.vault * usdSeconds;
    const operator = pair.operator.toLowerCase() as Address;
    numerators.operators.set(
      operator,
      (numerators.operators.get(operator) ?? 0n) + network.weights.operator * usdSeconds,
    );
    if (network.weights.network !== 0n) {
      numerators.networks.set(
        network.address,
        (numerators.networks.get(network.address) ?? 0n) + network.weights.network * usdSeconds,
      );
    }
  }
  const sharesByVault = new Map(state.vaults.map((vault) => [vault.vault.toLowerCase(), vault]));
  for (const [address, numerators] of blockNumerators) {
    const vault = vaults.get(address)!;
    vault.emittedNumerator += numerators.emitted;
    for (const [operator, numerator] of numerators.operators) {
      vault.operators.set(operator, (vault.operators.get(operator) ?? 0n) + numerator / POINTS_DENOMINATOR);
    }
    for (const [network, numerator] of numerators.networks) {
      vault.networks.set(network, (vault.networks.get(network) ?? 0n) + numerator / POINTS_DENOMINATOR);
    }
    vault.curatorPoints += (numerators.vault * vault.curatorFeeBps) / POINTS_DENOMINATOR;
    const poolBefore = vault.stakersNumerator / POINTS_DENOMINATOR;
    vault.stakersNumerator += numerators.vault * (BPS - vault.curatorFeeBps);
    const poolGrowth = vault.stakersNumerator / POINTS_DENOMINATOR - poolBefore;
    const shares = sharesByVault.get(address);
    if (shares === undefined || shares.activeShares === 0n || poolGrowth === 0n) continue;
    for (const { staker, shares: stakerShares } of shares.stakers) {
      if (stakerShares === 0n) continue;
      const key = staker.toLowerCase() as Address;
      vault.stakers.set(
        key,
        (vault.stakers.get(key) ?? 0n) + (poolGrowth * stakerShares) / shares.activeShares,
      );
    }
  }
}

export interface ReceiverDifference {
  vault: Address;
  receiver: Address;
  type: ReceiverType;
  ledger: bigint;
  replay: bigint;
  /** ledger − replay. */
  difference: bigint;
  /** The rounding the two paths may differ by: one unit per block, the sum of the others' for a rounding receiver. */
  allowed: bigint;
  withinBound: boolean;
}

export interface TotalDifference {
  /** null: the overall total. */
  vault: Address | null;
  ledger: bigint;
  replay: bigint;
}

export interface ReplayComparison {
  block: bigint;
  blocks: bigint;
  /** Totals equal, every receiver within its bound, both sides' receivers summing to their emission. */
  ok: boolean;
  emitted: { ledger: bigint; replay: bigint };
  /** Emission totals that differ (must be none). */
  totals: TotalDifference[];
  /** Every receiver whose points differ, within the bound or not. */
  receivers: ReceiverDifference[];
  /** Problems that are not a receiver's difference (blocks that do not match, sums that do not add up). */
  problems: string[];
}

/** Compares the ledger's snapshot and receivers at a block with the replay's; reports every difference. */
export function compareWithReplay(
  ledger: { snapshot: LedgerSnapshot; receivers: readonly ReceiverPoints[] },
  replay: ReplayResult,
): ReplayComparison {
  const problems: string[] = [];
  if (ledger.snapshot.block !== replay.block) {
    problems.push(`ledger snapshot is at block ${ledger.snapshot.block}, replay at ${replay.block}`);
  }
  const totals: TotalDifference[] = [];
  if (ledger.snapshot.emitted !== replay.emitted) {
    totals.push({ vault: null, ledger: ledger.snapshot.emitted, replay: replay.emitted });
  }
  const replayVaults = new Map(replay.vaults.map((vault) => [vault.vault, vault.emitted]));
  const vaultAddresses = new Set<Address>([
    ...replayVaults.keys(),
    ...ledger.snapshot.vaults.map((v) => v.vault),
  ]);
  for (const vault of vaultAddresses) {
    const ledgerVault = ledger.snapshot.vaults.find((v) => v.vault === vault)?.emitted ?? 0n;
    const replayVault = replayVaults.get(vault) ?? 0n;
    if (ledgerVault !== replayVault) totals.push({ vault, ledger: ledgerVault, replay: replayVault });
  }
  const sum = (entries: readonly ReceiverPoints[]) => entries.reduce((acc, entry) => acc + entry.points, 0n);
  if (sum(ledger.receivers) !== ledger.snapshot.emitted) {
    problems.push(
      `ledger receivers sum to ${sum(ledger.receivers)}, its emission is ${ledger.snapshot.emitted}`,
    );
  }
  if (sum(replay.receivers) !== replay.emitted) {
    problems.push(`replay receivers sum to ${sum(replay.receivers)}, its emission is ${replay.emitted}`);
  }

  const key = (entry: { vault: string; receiver: string; type: string }) =>
    `${entry.vault}|${entry.receiver}|${entry.type}`;
  const pairs = new Map<
    string,
    { vault: Address; receiver: Address; type: ReceiverType; ledger: bigint; replay: bigint }
  >();
  const slot = (entry: ReceiverPoints) => {
    let found = pairs.get(key(entry));
    if (found === undefined) {
      found = { vault: entry.vault, receiver: entry.receiver, type: entry.type, ledger: 0n, replay: 0n };
      pairs.set(key(entry), found);
    }
    return found;
  };
  for (const entry of ledger.receivers) slot(entry).ledger += entry.points;
  for (const entry of replay.receivers) slot(entry).replay += entry.points;
  const othersPerVault = new Map<Address, bigint>();
  for (const pair of pairs.values()) {
    if (isRoundingReceiver(pair)) continue;
    othersPerVault.set(pair.vault, (othersPerVault.get(pair.vault) ?? 0n) + 1n);
  }
  const receivers: ReceiverDifference[] = [];
  for (const pair of pairs.values()) {
    const difference = pair.ledger - pair.replay;
    if (difference === 0n) continue;
    const allowed = isRoundingReceiver(pair)
      ? replay.blocks * (othersPerVault.get(pair.vault) ?? 0n)
      : replay.blocks;
    const magnitude = difference < 0n ? -difference : difference;
    receivers.push({ ...pair, difference, allowed, withinBound: magnitude <= allowed });
  }
  const ok = problems.length === 0 && totals.length === 0 && receivers.every((entry) => entry.withinBound);
  return {
    block: replay.block,
    blocks: replay.blocks,
    ok,
    emitted: { ledger: ledger.snapshot.emitted, replay: replay.emitted },
    totals,
    receivers,
    problems,
  };
}

/** Each vault's own address, as staker, collects that vault's rounding remainders. */
function isRoundingReceiver(entry: { vault: Address; receiver: Address; type: ReceiverType }): boolean {
  return entry.type === "staker" && entry.receiver === entry.vault;
}
