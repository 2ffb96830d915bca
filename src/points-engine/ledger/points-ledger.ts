// The points ledger: pure state from stake events, lazy exact accrual, and its persisted records. No I/O.
//
// `step(b)` first accrues from the position to b with the state as it stands (the state of block b−1: nothing
// changed in between, or the caller would have stepped there), then applies b's events in log order. Accrual is
// lazy (see vault-book.ts), so the result does not depend on which event-free blocks were stepped at: stepping
// every block and stepping only event blocks give identical state, records and points.

import { minOf } from "../formula.ts";
import type {
  Address,
  Hex,
  LedgerBlock,
  LedgerPosition,
  LedgerRecord,
  LedgerScope,
  LedgerSnapshot,
  LedgerStart,
  PointsLedgerApi,
  ReceiverPoints,
  StakeEvent,
  VaultSnapshot,
} from "../model.ts";
import { LedgerEventError, LedgerRecordError, LedgerStepError, LedgerUnknownVaultError } from "./errors.ts";
import {
  bigintField,
  booleanField,
  ChangeSet,
  keyParts,
  optionalBigintField,
  type Persisted,
  RECORD_KINDS,
} from "./records.ts";
import { type ScopeTerms, scopeTerms } from "./scope-terms.ts";
import { type OptIns, type SubnetworkBook, VaultBook } from "./vault-book.ts";

class OptInEntry implements Persisted {
  pending = false;

  constructor(
    readonly service: "network" | "vault",
    readonly operator: Address,
    readonly target: Address,
    public optedIn: boolean,
  ) {}

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.optIn,
      key: `${this.service}:${this.operator}:${this.target}`,
      value: { optedIn: this.optedIn },
    };
  }
}

class PriceEntry implements Persisted {
  pending = false;

  constructor(
    readonly collateral: Address,
    public answer: bigint,
  ) {}

  record(): LedgerRecord {
    return { kind: RECORD_KINDS.price, key: this.collateral, value: { answer: this.answer.toString() } };
  }
}

class PositionEntry implements Persisted {
  pending = false;

  constructor(
    public block: bigint,
    public timestamp: bigint,
    readonly accrualStartBlock: bigint,
    /** The accrual start block's timestamp, once the ledger has stepped there. */
    public accrualFrom: bigint | null,
  ) {}

  record(): LedgerRecord {
    return {
      kind: RECORD_KINDS.position,
      key: RECORD_KINDS.position,
      value: {
        block: this.block.toString(),
        timestamp: this.timestamp.toString(),
        accrualStartBlock: this.accrualStartBlock.toString(),
        accrualFrom: this.accrualFrom === null ? null : this.accrualFrom.toString(),
      },
    };
  }
}

export class PointsLedger implements PointsLedgerApi, OptIns {
  readonly #terms: ScopeTerms;
  readonly #changes = new ChangeSet();
  readonly #position: PositionEntry;
  readonly #vaults = new Map<Address, VaultBook>();
  readonly #vaultsByCollateral = new Map<Address, VaultBook[]>();
  /** Vaults where an operator can hold stake: for opt-in changes to the network side. */
  readonly #vaultsByOperator = new Map<Address, Set<VaultBook>>();
  /** Operator → network → opt-in. */
  readonly #networkOptIns = new Map<Address, Map<Address, OptInEntry>>();
  /** Operator → vault → opt-in. */
  readonly #vaultOptIns = new Map<Address, Map<Address, OptInEntry>>();
  readonly #prices = new Map<Address, PriceEntry>();
  #optInEpoch = 0;

  private constructor(terms: ScopeTerms, position: PositionEntry) {
    this.#terms = terms;
    this.#position = position;
    for (const vaultTerms of terms.vaults.values()) {
      const book = new VaultBook(vaultTerms, position.timestamp, this.#changes);
      this.#vaults.set(vaultTerms.address, book);
      const sameCollateral = this.#vaultsByCollateral.get(vaultTerms.collateral);
      if (sameCollateral === undefined) this.#vaultsByCollateral.set(vaultTerms.collateral, [book]);
      else sameCollateral.push(book);
      if (vaultTerms.operator !== null) this.#indexOperator(vaultTerms.operator, book);
    }
  }

  /** A ledger with empty state at `start`: points accrue for blocks after `start.accrualStartBlock ?? start.block`. */
  static create(scope: LedgerScope, start: LedgerStart): PointsLedger {
    const accrualStartBlock = start.accrualStartBlock ?? start.block;
    if (accrualStartBlock < start.block) {
      throw new LedgerStepError("The accrual start block is before the ledger's start", {
        block: start.block.toString(),
        accrualStartBlock: accrualStartBlock.toString(),
      });
    }
    const position = new PositionEntry(
      start.block,
      start.timestamp,
      accrualStartBlock,
      accrualStartBlock === start.block ? start.timestamp : null,
    );
    const ledger = new PointsLedger(scopeTerms(scope), position);
    ledger.#changes.add(position);
    return ledger;
  }

  /** The ledger that wrote `records` (the latest record of every key), with no pending changes. */
  static restore(scope: LedgerScope, records: readonly LedgerRecord[]): PointsLedger {
    const byKind = new Map<string, LedgerRecord[]>();
    for (const record of records) {
      const list = byKind.get(record.kind);
      if (list === undefined) byKind.set(record.kind, [record]);
      else list.push(record);
    }
    const positions = byKind.get(RECORD_KINDS.position) ?? [];
    const [positionRecord] = positions;
    if (positionRecord === undefined || positions.length !== 1) {
      throw new LedgerRecordError("Ledger records need exactly one position record", {
        positions: positions.length,
      });
    }
    const position = new PositionEntry(
      bigintField(positionRecord, "block"),
      bigintField(positionRecord, "timestamp"),
      bigintField(positionRecord, "accrualStartBlock"),
      optionalBigintField(positionRecord, "accrualFrom"),
    );
    const ledger = new PointsLedger(scopeTerms(scope), position);
    for (const [kind, list] of byKind) {
      if (kind === RECORD_KINDS.position) continue;
      for (const record of list) ledger.#restoreRecord(record);
    }
    for (const book of ledger.#vaults.values()) book.recomputeRates(ledger.#price(book), ledger);
    ledger.#changes.clear();
    return ledger;
  }

  get position(): LedgerPosition {
    return { block: this.#position.block, timestamp: this.#position.timestamp };
  }

  step(block: LedgerBlock): void {
    const position = this.#position;
    if (block.number <= position.block) {
      throw new LedgerStepError("Ledger steps must go to a later block", {
        position: position.block.toString(),
        block: block.number.toString(),
      });
    }
    if (block.timestamp < position.timestamp) {
      throw new LedgerStepError("A block's timestamp is before the ledger's position", {
        position: position.timestamp.toString(),
        block: block.number.toString(),
        timestamp: block.timestamp.toString(),
      });
    }
    if (position.accrualFrom === null) {
      if (block.number > position.accrualStartBlock) {
        throw new LedgerStepError("The ledger must step at its accrual start block", {
          accrualStartBlock: position.accrualStartBlock.toString(),
          block: block.number.toString(),
        });
      }
      if (block.number === position.accrualStartBlock) position.accrualFrom = block.timestamp;
    }
    position.block = block.number;
    position.timestamp = block.timestamp;
    this.#changes.add(position);
    for (const event of block.events) this.#apply(event, block.timestamp);
  }

  takeChanges(): LedgerRecord[] {
    return this.#changes.take();
  }

  records(): LedgerRecord[] {
    const records: LedgerRecord[] = [this.#position.record()];
    for (const book of this.#vaults.values()) {
      records.push(book.record());
      for (const subnetwork of book.subnetworks.values()) {
        records.push(subnetwork.record());
        for (const entry of subnetwork.operatorShares.values()) records.push(entry.record());
      }
      for (const staker of book.stakers.values()) records.push(staker.record());
      for (const accrual of book.operators.values())
        if (accrual.numerator !== 0n) records.push(accrual.record());
      for (const accrual of book.networks.values())
        if (accrual.numerator !== 0n) records.push(accrual.record());
    }
    for (const optIns of [this.#networkOptIns, this.#vaultOptIns]) {
      for (const targets of optIns.values())
        for (const entry of targets.values()) records.push(entry.record());
    }
    for (const entry of this.#prices.values()) records.push(entry.record());
    return records;
  }

  snapshot(): LedgerSnapshot {
    const { timestamp, accrualFrom } = this.#position;
    const vaults: VaultSnapshot[] = [];
    let emitted = 0n;
    for (const book of this.#vaults.values()) {
      const totals = book.totalsAt(timestamp, accrualFrom);
      emitted += totals.emitted;
      const { staker, operator, curator, network } = totals.byType;
      vaults.push({
        vault: book.address,
        emitted: totals.emitted,
        total: staker + operator + curator + network,
        byType: totals.byType,
      });
    }
    let total = 0n;
    for (const vault of vaults) total += vault.total;
    return { block: this.#position.block, timestamp, emitted, total, vaults };
  }

  receivers(vault: Address): ReceiverPoints[] {
    const book = this.#vaults.get(vault.toLowerCase() as Address);
    if (book === undefined) throw new LedgerUnknownVaultError(vault);
    return book.receiversAt(this.#position.timestamp, this.#position.accrualFrom);
  }

  receiverPoints(receiver: Address): ReceiverPoints[] {
    const address = receiver.toLowerCase() as Address;
    const { timestamp, accrualFrom } = this.#position;
    const out: ReceiverPoints[] = [];
    for (const book of this.#vaults.values()) {
      if (book.address === address) {
        // The vault's own address is its rounding receiver: its points are what the others leave.
        for (const entry of book.receiversAt(timestamp, accrualFrom))
          if (entry.receiver === address) out.push(entry);
      } else {
        out.push(...book.pointsOfAt(address, timestamp, accrualFrom));
      }
    }
    return out;
  }

  get optInEpoch(): number {
    return this.#optInEpoch;
  }

  /** OptIns: an operator's stake counts only while it is opted in to the network and to the vault. */
  isOptedIn(operator: Address, network: Address, vault: Address): boolean {
    return (
      this.#networkOptIns.get(operator)?.get(network)?.optedIn === true &&
      this.#vaultOptIns.get(operator)?.get(vault)?.optedIn === true
    );
  }

  #apply(event: StakeEvent, t: bigint): void {
    const accrualFrom = this.#position.accrualFrom;
    switch (event.kind) {
      case "deposit": {
        const book = this.#vaults.get(event.vault);
        if (book === undefined) return;
        book.settle(t, accrualFrom);
        book.fold();
        book.addShares(event.staker, event.shares);
        book.setActiveStake(book.activeStake + event.amount, this.#price(book), this);
        return;
      }
      case "withdraw": {
        const book = this.#vaults.get(event.vault);
        if (book === undefined) return;
        if (book.activeStake < event.amount) {
          throw new LedgerEventError("A withdrawal exceeds the vault's active stake", {
            vault: event.vault,
            activeStake: book.activeStake.toString(),
            amount: event.amount.toString(),
          });
        }
        book.settle(t, accrualFrom);
        book.fold();
        book.removeShares(event.staker, event.burnedShares);
        book.setActiveStake(book.activeStake - event.amount, this.#price(book), this);
        return;
      }
      case "slash": {
        const book = this.#vaults.get(event.vault);
        if (book === undefined) return;
        book.settle(t, accrualFrom);
        // The slashed amount comes out of active stake (the model has no withdrawal queue to share it with).
        book.setActiveStake(
          book.activeStake - minOf(event.slashedAmount, book.activeStake),
          this.#price(book),
          this,
        );
        return;
      }
      case "shareTransfer": {
        const book = this.#vaults.get(event.vault);
        if (book === undefined) return;
        book.settle(t, accrualFrom);
        book.fold();
        book.removeShares(event.from, event.shares);
        book.addShares(event.to, event.shares);
        return;
      }
      case "maxNetworkLimit":
      case "networkLimit": {
        const found = this.#subnetwork(event.vault, event.subnetwork);
        if (found === undefined) return;
        const [book, subnetwork] = found;
        book.settle(t, accrualFrom);
        if (event.kind === "networkLimit") {
          subnetwork.limit = event.amount;
        } else {
          // Core's _setMaxNetworkLimit: lowering the maximum lowers the current limit with it.
          subnetwork.maxLimit = event.amount;
          if (subnetwork.limit > event.amount) subnetwork.limit = event.amount;
        }
        this.#changes.add(subnetwork);
        book.recomputeRates(this.#price(book), this);
        return;
      }
      case "operatorNetworkShares": {
        const found = this.#subnetwork(event.vault, event.subnetwork);
        if (found === undefined) return;
        const [book, subnetwork] = found;
        if (book.terms.delegatorType !== "networkRestake") return;
        book.settle(t, accrualFrom);
        book.setOperatorShares(subnetwork, event.operator, event.shares);
        this.#indexOperator(event.operator, book);
        book.recomputeRates(this.#price(book), this);
        return;
      }
      case "optIn":
      case "optOut": {
        const affected = this.#optInAffected(event.service, event.operator, event.target);
        if (affected === null) return;
        for (const book of affected) book.settle(t, accrualFrom);
        this.#optInEntry(event.service, event.operator, event.target).optedIn = event.kind === "optIn";
        for (const book of affected) book.recomputeRates(this.#price(book), this);
        return;
      }
      case "price": {
        const entry = this.#priceEntry(event.collateral);
        if (entry === undefined) return;
        const affected = this.#vaultsByCollateral.get(entry.collateral) ?? [];
        for (const book of affected) book.settle(t, accrualFrom);
        entry.answer = event.answer;
        for (const book of affected) book.recomputeRates(event.answer, this);
        return;
      }
      default: {
        const unknown: never = event;
        throw new LedgerEventError("Unknown stake event kind", {
          event: String((unknown as { kind: unknown }).kind),
        });
      }
    }
  }

  #subnetwork(vault: Address, subnetwork: Hex): [VaultBook, SubnetworkBook] | undefined {
    const book = this.#vaults.get(vault);
    if (book === undefined) return undefined;
    const key = subnetwork.toLowerCase() as Hex;
    const network = this.#terms.subnetworks.get(key);
    if (network === undefined) return undefined;
    return [book, book.subnetwork(key, network)];
  }

  /** The vaults whose stake an opt-in change can move, or null for a target outside the scope. */
  #optInAffected(service: "network" | "vault", operator: Address, target: Address): VaultBook[] | null {
    if (service === "vault") {
      const book = this.#vaults.get(target);
      return book === undefined ? null : [book];
    }
    if (!this.#terms.networks.has(target)) return null;
    return [...(this.#vaultsByOperator.get(operator) ?? [])];
  }

  #optInEntry(service: "network" | "vault", operator: Address, target: Address): OptInEntry {
    const optIns = service === "network" ? this.#networkOptIns : this.#vaultOptIns;
    let targets = optIns.get(operator);
    if (targets === undefined) {
      targets = new Map();
      optIns.set(operator, targets);
    }
    let entry = targets.get(target);
    if (entry === undefined) {
      entry = new OptInEntry(service, operator, target, false);
      targets.set(target, entry);
    }
    this.#optInEpoch++;
    this.#changes.add(entry);
    return entry;
  }

  #priceEntry(collateral: Address): PriceEntry | undefined {
    const key = collateral.toLowerCase() as Address;
    let entry = this.#prices.get(key);
    if (entry === undefined) {
      const initial = this.#terms.initialPrices.get(key);
      if (initial === undefined) return undefined;
      entry = new PriceEntry(key, initial);
      this.#prices.set(key, entry);
    }
    this.#changes.add(entry);
    return entry;
  }

  #price(book: VaultBook): bigint {
    const collateral = book.terms.collateral;
    return this.#prices.get(collateral)?.answer ?? this.#terms.initialPrices.get(collateral) ?? 0n;
  }

  #indexOperator(operator: Address, book: VaultBook): void {
    const set = this.#vaultsByOperator.get(operator);
    if (set === undefined) this.#vaultsByOperator.set(operator, new Set([book]));
    else set.add(book);
  }

  #restoreRecord(record: LedgerRecord): void {
    switch (record.kind) {
      case RECORD_KINDS.vault: {
        const book = this.#restoredVault(record, record.key);
        book.activeStake = bigintField(record, "activeStake");
        book.activeShares = bigintField(record, "activeShares");
        book.settledAt = bigintField(record, "settledAt");
        book.emittedNumerator = bigintField(record, "emittedNumerator");
        book.curatorNumerator = bigintField(record, "curatorNumerator");
        book.stakersNumerator = bigintField(record, "stakersNumerator");
        book.index = bigintField(record, "index");
        book.poolAtFold = bigintField(record, "poolAtFold");
        return;
      }
      case RECORD_KINDS.networkLimit: {
        const [vault, subnetwork] = keyParts(record, 2) as [Address, Hex];
        const [, book] = this.#restoredSubnetwork(record, vault, subnetwork);
        book.maxLimit = optionalBigintField(record, "maxLimit");
        book.limit = bigintField(record, "limit");
        return;
      }
      case RECORD_KINDS.operatorShares: {
        const [vault, subnetwork, operator] = keyParts(record, 3) as [Address, Hex, Address];
        const [book, subnetworkBook] = this.#restoredSubnetwork(record, vault, subnetwork);
        book.setOperatorShares(subnetworkBook, operator, bigintField(record, "shares"));
        this.#indexOperator(operator, book);
        return;
      }
      case RECORD_KINDS.staker: {
        const [vault, staker] = keyParts(record, 2) as [Address, Address];
        const book = this.#restoredVault(record, vault);
        const stakerBook = book.staker(staker);
        stakerBook.shares = bigintField(record, "shares");
        stakerBook.scaled = bigintField(record, "scaled");
        stakerBook.indexAt = bigintField(record, "indexAt");
        return;
      }
      case RECORD_KINDS.operatorPoints:
      case RECORD_KINDS.networkPoints: {
        const [vault, receiver] = keyParts(record, 2) as [Address, Address];
        const book = this.#restoredVault(record, vault);
        const kind = record.kind === RECORD_KINDS.operatorPoints ? "operator" : "network";
        book.accrual(kind, receiver).numerator = bigintField(record, "numerator");
        return;
      }
      case RECORD_KINDS.optIn: {
        const [service, operator, target] = keyParts(record, 3) as ["network" | "vault", Address, Address];
        if (service !== "network" && service !== "vault") {
          throw new LedgerRecordError(`Ledger opt-in record has an unknown service ${service}`, {
            key: record.key,
          });
        }
        this.#optInEntry(service, operator, target).optedIn = booleanField(record, "optedIn");
        return;
      }
      case RECORD_KINDS.price: {
        const entry = this.#priceEntry(record.key as Address);
        if (entry === undefined) {
          throw new LedgerRecordError(
            `Ledger price record for ${record.key}, a collateral without a feed in scope`,
            {
              collateral: record.key,
            },
          );
        }
        entry.answer = bigintField(record, "answer");
        return;
      }
      default:
        throw new LedgerRecordError(`Unknown ledger record kind ${record.kind}`, {
          kind: record.kind,
          key: record.key,
        });
    }
  }

  #restoredVault(record: LedgerRecord, vault: string): VaultBook {
    const book = this.#vaults.get(vault as Address);
    if (book === undefined) {
      throw new LedgerRecordError(
        `Ledger record ${record.kind} ${record.key} names vault ${vault}, not in scope`,
        {
          kind: record.kind,
          key: record.key,
        },
      );
    }
    return book;
  }

  #restoredSubnetwork(record: LedgerRecord, vault: Address, subnetwork: Hex): [VaultBook, SubnetworkBook] {
    this.#restoredVault(record, vault);
    const found = this.#subnetwork(vault, subnetwork);
    if (found === undefined) {
      throw new LedgerRecordError(
        `Ledger record ${record.kind} ${record.key} names a subnetwork not in scope`,
        {
          kind: record.kind,
          key: record.key,
        },
      );
    }
    return found;
  }
}
