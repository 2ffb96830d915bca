// The own points type as /points/* reads it, on any replica: "current" is the engine's position (the aggregates the
// engine writes at each step, and a receiver's points valued from the stored records), historical answers are the
// engine's snapshots with the partner types' nearest-block rule. A receiver is valued by a ledger restored from the
// records every valuation needs (vaults, limits, shares, opt-ins, prices: a few per vault) and that receiver's own
// records, so a request costs two indexed reads and no copy of any staker per block.
import type { Database } from "../db/client.ts";
import type { LedgerFactory } from "./follower.ts";
import type { Address, LedgerRecord, ReceiverPoints } from "./model.ts";
import type { EnginePositionWatch } from "./position-watch.ts";
import {
  readReceiverRecords,
  readSharedRecords,
  readVaultReceiverRecords,
  type StoredRecord,
} from "./store/records.ts";
import { CURRENT, listSnapshots, readAmounts, type VaultTypeAmount } from "./store/snapshots.ts";

export interface OwnPointsView {
  pointsType: string;
  /** The engine's position. */
  block: bigint;
  /** The position's block and hash: what answers at the position are kept by (a reorg changes the hash). */
  key: string;
  /** Snapshot blocks, ascending. */
  snapshots: readonly bigint[];
}

/** Receivers per read of a vault's records. */
const VAULT_PAGE = 5_000;

export class OwnPoints {
  /** Per position: what stays the same until the engine steps again. */
  #cached:
    | {
        key: string;
        view: OwnPointsView;
        shared: Promise<StoredRecord[]>;
        current: Promise<VaultTypeAmount[]>;
      }
    | undefined;

  constructor(
    private readonly database: Database,
    readonly pointsType: string,
    /** The vaults in scope (lowercase): known to the vault routes before any point is computed. */
    readonly vaults: ReadonlySet<string>,
    private readonly ledgers: () => Promise<LedgerFactory>,
    /** The engine's position, kept current by its commits' notifications. */
    private readonly position: Pick<EnginePositionWatch, "current">,
  ) {}

  /** Where the engine is and which snapshots exist; undefined before its first step. */
  async view(): Promise<OwnPointsView | undefined> {
    return (await this.#state())?.view;
  }

  /** The per vault × receiver type amounts at the position (block = undefined) or at a snapshot block. */
  async amounts(block?: bigint, vault?: string): Promise<VaultTypeAmount[]> {
    if (block !== undefined) return readAmounts(this.database, block, vault);
    const state = await this.#state();
    if (!state) return [];
    const all = await state.current;
    return vault === undefined ? all : all.filter((amount) => amount.vault === vault);
  }

  /** A receiver's points per vault at the position (every role it has there added up), ascending by vault. */
  async receiverPoints(receiver: string): Promise<Array<{ vault: string; points: bigint }>> {
    const state = await this.#state();
    if (!state) return [];
    const own = await readReceiverRecords(this.database, receiver);
    // A vault's own address is its rounding receiver: its points are what all its stakers leave.
    if (this.vaults.has(receiver)) own.push(...(await this.#vaultRecords(receiver)));
    const ledger = (await this.ledgers()).restore([...(await state.shared), ...own].map(ledgerRecord));
    return perVault(ledger.receiverPoints(receiver as Address));
  }

  /** Every receiver's points in a vault at the position (roles added up), ascending by receiver. */
  async vaultReceivers(vault: string): Promise<Array<{ receiver: string; points: bigint }>> {
    const state = await this.#state();
    if (!state || !this.vaults.has(vault)) return [];
    const records = [...(await state.shared), ...(await this.#vaultRecords(vault))];
    const ledger = (await this.ledgers()).restore(records.map(ledgerRecord));
    const byReceiver = new Map<string, bigint>();
    for (const entry of ledger.receivers(vault as Address))
      byReceiver.set(entry.receiver, (byReceiver.get(entry.receiver) ?? 0n) + entry.points);
    return [...byReceiver]
      .filter(([, points]) => points > 0n)
      .map(([receiver, points]) => ({ receiver, points }))
      .sort((a, b) => (a.receiver < b.receiver ? -1 : a.receiver > b.receiver ? 1 : 0));
  }

  async #vaultRecords(vault: string): Promise<StoredRecord[]> {
    const records: StoredRecord[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await readVaultReceiverRecords(this.database, vault, after, VAULT_PAGE);
      records.push(...page.records);
      if (page.receivers < VAULT_PAGE) return records;
      after = page.lastReceiver;
    }
  }

  async #state() {
    const position = await this.position.current();
    if (!position) return undefined;
    const key = `${position.blockNumber}:${position.blockHash}`;
    if (this.#cached?.key !== key) {
      const snapshots = (await listSnapshots(this.database)).map((snapshot) => snapshot.blockNumber);
      const shared = readSharedRecords(this.database);
      const current = readAmounts(this.database, CURRENT);
      // A failed read is not kept: the next request reads again.
      shared.catch(() => {});
      current.catch(() => {});
      this.#cached = {
        key,
        view: { pointsType: this.pointsType, block: position.blockNumber, key, snapshots },
        shared,
        current,
      };
    }
    const cached = this.#cached;
    try {
      await Promise.all([cached.shared, cached.current]);
    } catch (error) {
      if (this.#cached === cached) this.#cached = undefined;
      throw error;
    }
    return cached;
  }
}

function ledgerRecord(record: StoredRecord): LedgerRecord {
  return { kind: record.kind, key: record.key, value: record.value };
}

function perVault(points: readonly ReceiverPoints[]): Array<{ vault: string; points: bigint }> {
  const byVault = new Map<string, bigint>();
  for (const entry of points) byVault.set(entry.vault, (byVault.get(entry.vault) ?? 0n) + entry.points);
  return [...byVault]
    .filter(([, total]) => total > 0n)
    .map(([vault, total]) => ({ vault, points: total }))
    .sort((a, b) => (a.vault < b.vault ? -1 : a.vault > b.vault ? 1 : 0));
}
