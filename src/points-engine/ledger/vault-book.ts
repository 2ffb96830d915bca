// One vault's part of the ledger: its stake state (active stake and shares, per-subnetwork limits and operator
// shares), the per-second growth of each cumulative points numerator, and the stakers' points-per-share index.
//
// Accrual is lazy: a numerator is `settled + rate × (t − settledAt)`, so a stretch of blocks without events costs
// nothing, and settling (at an event of this vault) costs O(operators + networks). The stakers' pool
// P = floor(stakers numerator / POINTS_DENOMINATOR) is shared by active shares through an index that only moves
// when the shares change (at the vault's share events), at STAKER_INDEX_SCALE extra precision; a staker settles
// only at its own balance changes. Nothing here depends on which event-free blocks the caller stepped at.
import { BPS, minOf, type NetworkWeights, POINTS_DENOMINATOR, type UsdConversion } from "../formula.ts";
import type { Address, DelegatorType, Hex, LedgerRecord, PointsByType, ReceiverPoints } from "../model.ts";
import { LedgerEventError } from "./errors.ts";
import { type ChangeSet, type Persisted, RECORD_KINDS } from "./records.ts";

/** Extra precision of the stakers' points-per-share index: its floors cost a staker far below one unit. */
export const STAKER_INDEX_SCALE = 10n ** 40n;

/** A network as a vault's subnetwork sees it. */
export interface NetworkTerms {
  address: Address;
  weights: NetworkWeights;
}

/** Opt-in lookups of the ledger. */
export interface OptIns {
  /** Changes whenever any opt-in changes, so an answer can be kept until then. */
  readonly optInEpoch: number;
  isOptedIn(operator: Address, network: Address, vault: Address): boolean;
}

export class OperatorShares implements Persisted {
  pending = false;
  /** The operator's accrual in this vault, once its stake has counted. */
  accrual: ReceiverAccrual | null = null;
  /** Whether the operator is opted in to the network and the vault, as of `optInEpoch`. */
  optedIn = false;
  optInEpoch = -1;

  constructor(
    readonly vault: Address,
    readonly subnetwork: Hex,
    readonly operator: Address,
    public shares: bigint,
  ) {}

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.operatorShares,
      key: `${this.vault}:${this.subnetwork}:${this.operator}`,
      value: { shares: this.shares.toString() },
    };
  }
}

export class SubnetworkBook implements Persisted {
  pending = false;
  maxLimit: bigint | null = null;
  limit = 0n;
  readonly operatorShares = new Map<Address, OperatorShares>();
  /** The same entries as `operatorShares`, for iteration on the hot path. */
  readonly operatorShareList: OperatorShares[] = [];
  totalShares = 0n;
  /** The network's accrual in this vault, once its share has counted. */
  networkAccrual: ReceiverAccrual | null = null;

  constructor(
    readonly vault: Address,
    readonly subnetwork: Hex,
    readonly network: NetworkTerms,
  ) {}

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.networkLimit,
      key: `${this.vault}:${this.subnetwork}`,
      value: {
        maxLimit: this.maxLimit === null ? null : this.maxLimit.toString(),
        limit: this.limit.toString(),
      },
    };
  }
}

/** An operator's or a network's cumulative numerator in one vault. */
export class ReceiverAccrual implements Persisted {
  pending = false;
  numerator = 0n;
  /** Numerator growth per second with the vault's current stake. */
  rate = 0n;

  constructor(
    readonly kind: typeof RECORD_KINDS.operatorPoints | typeof RECORD_KINDS.networkPoints,
    readonly vault: Address,
    readonly receiver: Address,
  ) {}

  record(): LedgerRecord {
    return {
      kind: this.kind,
      key: `${this.vault}:${this.receiver}`,
      value: { numerator: this.numerator.toString() },
    };
  }
}

export class StakerBook implements Persisted {
  pending = false;
  shares = 0n;
  /** Points × STAKER_INDEX_SCALE settled up to `indexAt`: exact, floored only when read. */
  scaled = 0n;
  indexAt: bigint;

  constructor(
    readonly vault: Address,
    readonly staker: Address,
    index: bigint,
  ) {
    this.indexAt = index;
  }

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.staker,
      key: `${this.vault}:${this.staker}`,
      value: {
        shares: this.shares.toString(),
        scaled: this.scaled.toString(),
        indexAt: this.indexAt.toString(),
      },
    };
  }
}

export interface VaultTerms {
  address: Address;
  collateral: Address;
  delegatorType: DelegatorType;
  operator: Address | null;
  curator: Address | null;
  curatorFeeBps: bigint;
  conversion: UsdConversion;
}

export class VaultBook implements Persisted {
  pending = false;
  activeStake = 0n;
  /** Σ of the stakers' active shares. */
  activeShares = 0n;
  /** The timestamp the numerators below are settled to. */
  settledAt: bigint;
  emittedNumerator = 0n;
  emittedRate = 0n;
  curatorNumerator = 0n;
  curatorRate = 0n;
  stakersNumerator = 0n;
  stakersRate = 0n;
  /** Stakers' points per active share × STAKER_INDEX_SCALE, up to the pool `poolAtFold`. */
  index = 0n;
  poolAtFold = 0n;
  readonly subnetworks = new Map<Hex, SubnetworkBook>();
  readonly #subnetworkList: SubnetworkBook[] = [];
  readonly operators = new Map<Address, ReceiverAccrual>();
  readonly networks = new Map<Address, ReceiverAccrual>();
  /** Operators' and networks' accruals together, for settling on the hot path. */
  readonly #accruals: ReceiverAccrual[] = [];
  readonly stakers = new Map<Address, StakerBook>();

  constructor(
    readonly terms: VaultTerms,
    settledAt: bigint,
    private readonly changes: ChangeSet,
  ) {
    this.settledAt = settledAt;
  }

  get address(): Address {
    return this.terms.address;
  }

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.vault,
      key: this.terms.address,
      value: {
        activeStake: this.activeStake.toString(),
        activeShares: this.activeShares.toString(),
        settledAt: this.settledAt.toString(),
        emittedNumerator: this.emittedNumerator.toString(),
        curatorNumerator: this.curatorNumerator.toString(),
        stakersNumerator: this.stakersNumerator.toString(),
        index: this.index.toString(),
        poolAtFold: this.poolAtFold.toString(),
      },
    };
  }

  /**
   * Brings every numerator to `t` with the rates of the state before it. `accrualFrom` is the timestamp points
   * start counting at (null: not yet).
   */
  settle(t: bigint, accrualFrom: bigint | null): void {
    const dt = this.#elapsed(t, accrualFrom);
    if (dt > 0n && this.emittedRate !== 0n) {
      this.emittedNumerator += this.emittedRate * dt;
      this.curatorNumerator += this.curatorRate * dt;
      this.stakersNumerator += this.stakersRate * dt;
      for (const accrual of this.#accruals) {
        if (accrual.rate === 0n) continue;
        accrual.numerator += accrual.rate * dt;
        this.changes.add(accrual);
      }
    }
    if (this.settledAt !== t) {
      this.settledAt = t;
      this.changes.add(this);
    }
  }

  /** Moves the stakers' index to the pool at the settled time (call right after `settle`). */
  fold(): void {
    const pool = this.stakersNumerator / POINTS_DENOMINATOR;
    if (pool === this.poolAtFold) return;
    // With no active shares the pool's growth has no staker to go to: it stays with the rounding receiver.
    if (this.activeShares !== 0n)
      this.index += ((pool - this.poolAtFold) * STAKER_INDEX_SCALE) / this.activeShares;
    this.poolAtFold = pool;
    this.changes.add(this);
  }

  /** A staker's book, created at the current index if new. */
  staker(staker: Address): StakerBook {
    let book = this.stakers.get(staker);
    if (book === undefined) {
      book = new StakerBook(this.terms.address, staker, this.index);
      this.stakers.set(staker, book);
    }
    return book;
  }

  /** A staker settled to the current index (created if new). Call after `fold`. */
  settledStaker(staker: Address): StakerBook {
    const book = this.staker(staker);
    if (book.indexAt !== this.index) {
      book.scaled += book.shares * (this.index - book.indexAt);
      book.indexAt = this.index;
    }
    this.changes.add(book);
    return book;
  }

  addShares(staker: Address, shares: bigint): void {
    this.settledStaker(staker).shares += shares;
    this.activeShares += shares;
    this.changes.add(this);
  }

  removeShares(staker: Address, shares: bigint): void {
    const book = this.settledStaker(staker);
    if (book.shares < shares) {
      throw new LedgerEventError("A staker burns more active shares than it holds", {
        vault: this.terms.address,
        staker,
        shares: book.shares.toString(),
        burned: shares.toString(),
      });
    }
    book.shares -= shares;
    this.activeShares -= shares;
    this.changes.add(this);
  }

  /** Sets active stake (settled before) and recomputes the rates unless every subnetwork's limit binds both ways. */
  setActiveStake(activeStake: bigint, answer: bigint, optIns: OptIns): void {
    const lower = minOf(this.activeStake, activeStake);
    this.activeStake = activeStake;
    this.changes.add(this);
    for (const book of this.#subnetworkList) {
      // min(stake, limit) is the limit before and after when the limit is at most the lower of the two.
      if (book.limit > lower) {
        this.recomputeRates(answer, optIns);
        return;
      }
    }
  }

  subnetwork(subnetwork: Hex, network: NetworkTerms): SubnetworkBook {
    let book = this.subnetworks.get(subnetwork);
    if (book === undefined) {
      book = new SubnetworkBook(this.terms.address, subnetwork, network);
      this.subnetworks.set(subnetwork, book);
      this.#subnetworkList.push(book);
    }
    return book;
  }

  setOperatorShares(book: SubnetworkBook, operator: Address, shares: bigint): void {
    let entry = book.operatorShares.get(operator);
    if (entry === undefined) {
      entry = new OperatorShares(this.terms.address, book.subnetwork, operator, 0n);
      book.operatorShares.set(operator, entry);
      book.operatorShareList.push(entry);
    }
    book.totalShares += shares - entry.shares;
    entry.shares = shares;
    this.changes.add(entry);
  }

  /**
   * Recomputes every numerator's growth per second from the state, with core's delegated stake: NetworkRestake
   * `operatorShares × min(activeStake, networkLimit) / totalOperatorShares`, OperatorSpecific
   * `min(activeStake, networkLimit)` for its operator; 0 unless the operator is opted in to the network and the
   * vault. Call after `settle`.
   */
  recomputeRates(answer: bigint, optIns: OptIns): void {
    for (const accrual of this.#accruals) accrual.rate = 0n;
    let emitted = 0n;
    let vaultPart = 0n;
    const { conversion, address } = this.terms;
    // usd(stake) = stake × priceFactor / divisor, the formula's usdStake with the price folded in once.
    const priceFactor = answer > 0n ? answer * conversion.multiplier : 0n;
    const divisor = conversion.divisor;
    for (const book of this.#subnetworkList) {
      const base = minOf(this.activeStake, book.limit);
      if (base === 0n || priceFactor === 0n) continue;
      const network = book.network;
      let usd = 0n;
      if (this.terms.delegatorType === "operatorSpecific") {
        const operator = this.terms.operator;
        if (operator === null || !optIns.isOptedIn(operator, network.address, address)) continue;
        usd = divisor === 1n ? base * priceFactor : (base * priceFactor) / divisor;
        if (usd !== 0n) this.accrual("operator", operator).rate += network.weights.operator * usd;
      } else {
        if (book.totalShares === 0n) continue;
        for (const entry of book.operatorShareList) {
          if (entry.shares === 0n) continue;
          if (entry.optInEpoch !== optIns.optInEpoch) {
            entry.optedIn = optIns.isOptedIn(entry.operator, network.address, address);
            entry.optInEpoch = optIns.optInEpoch;
          }
          if (!entry.optedIn) continue;
          const stake = entry.shares === book.totalShares ? base : (entry.shares * base) / book.totalShares;
          const pairUsd = divisor === 1n ? stake * priceFactor : (stake * priceFactor) / divisor;
          if (pairUsd === 0n) continue;
          usd += pairUsd;
          entry.accrual ??= this.accrual("operator", entry.operator);
          entry.accrual.rate += network.weights.operator * pairUsd;
        }
      }
      if (usd === 0n) continue;
      emitted += network.weights.emitted * usd;
      vaultPart += network.weights.vault * usd;
      if (network.weights.network !== 0n) {
        book.networkAccrual ??= this.accrual("network", network.address);
        book.networkAccrual.rate += network.weights.network * usd;
      }
    }
    this.emittedRate = emitted;
    this.curatorRate = vaultPart * this.terms.curatorFeeBps;
    this.stakersRate = vaultPart * (BPS - this.terms.curatorFeeBps);
  }

  /** The receiver accrual of an operator or a network, created on first use. */
  accrual(kind: "operator" | "network", receiver: Address): ReceiverAccrual {
    const map = kind === "operator" ? this.operators : this.networks;
    let accrual = map.get(receiver);
    if (accrual === undefined) {
      accrual = new ReceiverAccrual(
        kind === "operator" ? RECORD_KINDS.operatorPoints : RECORD_KINDS.networkPoints,
        this.terms.address,
        receiver,
      );
      map.set(receiver, accrual);
      this.#accruals.push(accrual);
    }
    return accrual;
  }

  #elapsed(t: bigint, accrualFrom: bigint | null): bigint {
    if (accrualFrom === null) return 0n;
    const from = this.settledAt > accrualFrom ? this.settledAt : accrualFrom;
    return t > from ? t - from : 0n;
  }

  // Reads at a time t ≥ settledAt: nothing is mutated, so reading never changes what later steps compute.

  /** Per receiver type totals at t; the staker type holds the vault's rounding receiver. */
  totalsAt(t: bigint, accrualFrom: bigint | null): { emitted: bigint; byType: PointsByType } {
    const dt = this.#elapsed(t, accrualFrom);
    const emitted = (this.emittedNumerator + this.emittedRate * dt) / POINTS_DENOMINATOR;
    let operator = 0n;
    for (const accrual of this.operators.values()) {
      operator += (accrual.numerator + accrual.rate * dt) / POINTS_DENOMINATOR;
    }
    let network = 0n;
    for (const accrual of this.networks.values()) {
      network += (accrual.numerator + accrual.rate * dt) / POINTS_DENOMINATOR;
    }
    const curator = (this.curatorNumerator + this.curatorRate * dt) / POINTS_DENOMINATOR;
    return {
      emitted,
      byType: { staker: emitted - operator - network - curator, operator, curator, network },
    };
  }

  /** Every receiver with points at t, ending with the rounding receiver (the vault's own address as staker). */
  receiversAt(t: bigint, accrualFrom: bigint | null): ReceiverPoints[] {
    const dt = this.#elapsed(t, accrualFrom);
    const vault = this.terms.address;
    const out: ReceiverPoints[] = [];
    let credited = 0n;
    const push = (receiver: Address, type: ReceiverPoints["type"], points: bigint) => {
      credited += points;
      if (points !== 0n) out.push({ vault, receiver, type, points });
    };
    for (const accrual of this.operators.values()) {
      push(accrual.receiver, "operator", (accrual.numerator + accrual.rate * dt) / POINTS_DENOMINATOR);
    }
    for (const accrual of this.networks.values()) {
      push(accrual.receiver, "network", (accrual.numerator + accrual.rate * dt) / POINTS_DENOMINATOR);
    }
    if (this.terms.curator !== null) {
      push(
        this.terms.curator,
        "curator",
        (this.curatorNumerator + this.curatorRate * dt) / POINTS_DENOMINATOR,
      );
    }
    const index = this.#indexAt(dt);
    let own: ReceiverPoints | undefined;
    for (const book of this.stakers.values()) {
      const points = this.#stakerPoints(book, index);
      credited += points;
      if (points === 0n && book.staker !== vault) continue;
      const entry: ReceiverPoints = { vault, receiver: book.staker, type: "staker", points };
      if (book.staker === vault) own = entry;
      out.push(entry);
    }
    const remainder = (this.emittedNumerator + this.emittedRate * dt) / POINTS_DENOMINATOR - credited;
    if (own !== undefined) own.points += remainder;
    else if (remainder !== 0n) out.push({ vault, receiver: vault, type: "staker", points: remainder });
    return out.filter((entry) => entry.points !== 0n);
  }

  /** An address's points at t in each role it has here except the rounding receiver's (see `receiversAt`). */
  pointsOfAt(address: Address, t: bigint, accrualFrom: bigint | null): ReceiverPoints[] {
    const dt = this.#elapsed(t, accrualFrom);
    const vault = this.terms.address;
    const out: ReceiverPoints[] = [];
    const operator = this.operators.get(address);
    if (operator !== undefined) {
      const points = (operator.numerator + operator.rate * dt) / POINTS_DENOMINATOR;
      if (points !== 0n) out.push({ vault, receiver: address, type: "operator", points });
    }
    const network = this.networks.get(address);
    if (network !== undefined) {
      const points = (network.numerator + network.rate * dt) / POINTS_DENOMINATOR;
      if (points !== 0n) out.push({ vault, receiver: address, type: "network", points });
    }
    if (this.terms.curator === address) {
      const points = (this.curatorNumerator + this.curatorRate * dt) / POINTS_DENOMINATOR;
      if (points !== 0n) out.push({ vault, receiver: address, type: "curator", points });
    }
    const staker = this.stakers.get(address);
    if (staker !== undefined) {
      const points = this.#stakerPoints(staker, this.#indexAt(dt));
      if (points !== 0n) out.push({ vault, receiver: address, type: "staker", points });
    }
    return out;
  }

  #indexAt(dt: bigint): bigint {
    if (this.activeShares === 0n) return this.index;
    const pool = (this.stakersNumerator + this.stakersRate * dt) / POINTS_DENOMINATOR;
    return this.index + ((pool - this.poolAtFold) * STAKER_INDEX_SCALE) / this.activeShares;
  }

  #stakerPoints(book: StakerBook, index: bigint): bigint {
    return (book.scaled + book.shares * (index - book.indexAt)) / STAKER_INDEX_SCALE;
  }
}
