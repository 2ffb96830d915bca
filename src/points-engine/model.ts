// The points engine's domain types: what the chain layer decodes (stake events, the scope, the on-chain state at a
// block), what the ledger keeps and persists (records, snapshots, receivers' points) and the ledger's public face.
// Shared by the chain reader, the ledger, the replay verifier and the engine; no behaviour here.
import type { Address, Hex } from "viem";

export type { Address, Hex };

/**
 * One decoded log that changes stake, in the ledger's terms. Addresses are lowercase. A tokenized vault's mint and
 * burn `Transfer`s are not separate events: `deposit`/`withdraw` carry them.
 */
export type StakeEvent =
  /** Vault `Deposit(depositor, onBehalfOf, amount, shares)`: `staker` is `onBehalfOf`. */
  | { kind: "deposit"; vault: Address; staker: Address; amount: bigint; shares: bigint }
  /** Vault `Withdraw(withdrawer, claimer, amount, burnedShares, mintedShares)`: `staker` is the withdrawer. */
  | { kind: "withdraw"; vault: Address; staker: Address; amount: bigint; burnedShares: bigint }
  /** Vault `OnSlash(amount, captureTimestamp, slashedAmount)`: active stake drops, shares stay. */
  | { kind: "slash"; vault: Address; slashedAmount: bigint }
  /** A tokenized vault's ERC-20 `Transfer` of active shares between two stakers (not a mint or a burn). */
  | { kind: "shareTransfer"; vault: Address; from: Address; to: Address; shares: bigint }
  /** Delegator `SetMaxNetworkLimit` / `SetNetworkLimit(subnetwork, amount)`. */
  | { kind: "maxNetworkLimit" | "networkLimit"; vault: Address; subnetwork: Hex; amount: bigint }
  /** NetworkRestakeDelegator `SetOperatorNetworkShares(subnetwork, operator, shares)`. */
  | { kind: "operatorNetworkShares"; vault: Address; subnetwork: Hex; operator: Address; shares: bigint }
  /** OptInService `OptIn(who, where)` / `OptOut(who, where)`: operator→network or operator→vault. */
  | { kind: "optIn" | "optOut"; service: "network" | "vault"; operator: Address; target: Address }
  /** Chainlink-style `AnswerUpdated(current, roundId, updatedAt)` of the collateral's feed. */
  | { kind: "price"; collateral: Address; answer: bigint };

export type StakeEventKind = StakeEvent["kind"];

/** The stake events of one block, in log order. Only blocks that have events are read. */
export interface BlockEvents {
  number: bigint;
  timestamp: bigint;
  hash: Hex;
  events: StakeEvent[];
}

/** What the ledger steps to: a block with its events, or a bare position (no events) such as a snapshot block. */
export interface LedgerBlock {
  number: bigint;
  timestamp: bigint;
  events: readonly StakeEvent[];
}

export type DelegatorType = "networkRestake" | "operatorSpecific";

export interface ScopeNetwork {
  address: Address;
  /** The subnetworks in scope: bytes32(uint256(uint160(network)) << 96 | identifier). */
  subnetworks: Hex[];
  /** Points per USD per hour at 1e48 scale (0.0025 points is 2.5e45). */
  ratePerUsdHour: bigint;
  operatorFeeBps: number;
  networkShareBps: number;
}

export interface ScopeVault {
  address: Address;
  collateral: Address;
  collateralDecimals: number;
  /** FullRestake vaults are never in scope: the reader refuses or excludes them. */
  delegatorType: DelegatorType;
  /** The OperatorSpecificDelegator's operator. */
  operator?: Address;
  curator?: Address;
  curatorFeeBps: number;
}

export interface ScopePriceFeed {
  collateral: Address;
  feed: Address;
  decimals: number;
  /** The feed's answer at the ledger's start (no `AnswerUpdated` before it is read). */
  initialAnswer?: bigint;
}

/** The networks, vaults and prices the points engine counts. */
export interface LedgerScope {
  networks: ScopeNetwork[];
  vaults: ScopeVault[];
  priceFeeds: ScopePriceFeed[];
}

export type ReceiverType = "staker" | "operator" | "curator" | "network";

export const RECEIVER_TYPES: readonly ReceiverType[] = ["staker", "operator", "curator", "network"];

/** Where a ledger stands: the last block it has accrued to and applied. */
export interface LedgerPosition {
  block: bigint;
  timestamp: bigint;
}

export interface LedgerStart extends LedgerPosition {
  /**
   * Blocks up to and including this one apply their events but accrue nothing (the state is built from earlier
   * history; points count from the block after). Defaults to `block`.
   */
  accrualStartBlock?: bigint;
}

/**
 * One key of the ledger's state, whole (bigints as decimal strings). `takeChanges()` gives each changed key once;
 * keys are never deleted. Persisting the latest record per key and passing them all to `restore` rebuilds the
 * exact same ledger.
 */
export interface LedgerRecord {
  kind: string;
  key: string;
  value: Record<string, string | number | boolean | null>;
}

/** A receiver's points in one vault, 1e48 units. */
export interface ReceiverPoints {
  vault: Address;
  receiver: Address;
  type: ReceiverType;
  points: bigint;
}

export type PointsByType = Record<ReceiverType, bigint>;

export interface VaultSnapshot {
  vault: Address;
  /** Points emitted to this vault (floor of its exact cumulative numerator). */
  emitted: bigint;
  /** Σ of its receivers' points; always equals `emitted`. */
  total: bigint;
  byType: PointsByType;
}

/** The ledger's aggregates at its position: per vault × receiver type, per vault, overall. */
export interface LedgerSnapshot {
  block: bigint;
  timestamp: bigint;
  emitted: bigint;
  total: bigint;
  vaults: VaultSnapshot[];
}

/** The pure points ledger (src/points-engine/ledger/): state from stake events, lazy accrual, exact splits. */
export interface PointsLedgerApi {
  readonly position: LedgerPosition;
  /** Accrues to `block` with the state of the position, then applies its events. Blocks strictly increase. */
  step(block: LedgerBlock): void;
  /** Every key changed since the last call (or since creation/restore), whole. */
  takeChanges(): LedgerRecord[];
  /** Every key of the state (what `restore` needs). */
  records(): LedgerRecord[];
  snapshot(): LedgerSnapshot;
  /** Every receiver's points in a vault at the position, the vault's rounding receiver included. */
  receivers(vault: Address): ReceiverPoints[];
  /** A receiver's points in every vault and role where it has some. */
  receiverPoints(receiver: Address): ReceiverPoints[];
}

/** Who to read on chain for a per-block state: stakers per vault and the operators that ever had shares/stake. */
export interface ChainStateParticipants {
  stakers: { vault: Address; stakers: Address[] }[];
  operators: Address[];
}

/**
 * The on-chain state at the END of a block, read through the contracts' own views (chain helper:
 * `readChainState(client, scope, participants, block)`), used by the replay verifier.
 */
export interface ChainState {
  block: bigint;
  timestamp: bigint;
  vaults: {
    vault: Address;
    /** `activeStake()`. */
    activeStake: bigint;
    /** `activeShares()`. */
    activeShares: bigint;
    /** `activeSharesOf(staker)` of each participant staker (zeros may be left out). */
    stakers: { staker: Address; shares: bigint }[];
  }[];
  /** `delegator.stake(subnetwork, operator)` (0 when opted out) for each subnetwork in scope × vault × operator. */
  stakes: { subnetwork: Hex; vault: Address; operator: Address; stake: bigint }[];
  /** `latestRoundData().answer` per collateral. */
  prices: { collateral: Address; answer: bigint }[];
}

/** Reads the on-chain state at a block (the replay calls it for every block it replays). */
export type ChainStateReader = (block: bigint) => Promise<ChainState>;
