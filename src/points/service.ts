// The points read model behind the six routes: picks snapshots in memory, reads the precomputed
// aggregates, and answers either records, ready JSON (cached per snapshot set) or a JSON stream.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { GenerationCache } from "../db/generations.ts";
import type { OwnPoints, OwnPointsView } from "../points-engine/serving.ts";
import { type JsonBytes, type JsonPieces, jsonBytes, writtenAsJson } from "../shared/json-text.ts";
import { LruCache } from "../shared/lru.ts";
import { NoPointsDataError, UnknownVaultError } from "./errors.ts";
import {
  type PointsRepository,
  type ReceiverTypeAmount,
  type SnapshotAmount,
  VAULT_RECEIVERS_PIECE,
  type VaultAmount,
} from "./repository.ts";
import type { PointsByReceiver, PointsByReceiverType, PointsByVault } from "./schemas.ts";
import { compareText, SnapshotIndex, type SnapshotRef } from "./snapshot-index.ts";

export interface PointsServiceOptions {
  /** Receivers per keyset page of a streamed vault list. */
  pageSize?: number;
  /** Receivers per piece of a page (the strings written to the response). */
  pieceSize?: number;
  /** Entries per in-memory answer cache. */
  cacheEntries?: number;
  /** Receivers whose current answers are kept (a few hundred bytes each). */
  receiverCacheEntries?: number;
  /** The largest vault receiver list kept whole after it was streamed; larger ones are streamed every time. */
  vaultAnswerMaxBytes?: number;
  /** The kept vault receiver lists' summed size. */
  vaultCacheBytes?: number;
  /** The own points type, computed by this deployment's points engine: served beside the partner types. */
  own?: OwnPoints;
}

/** Everything derived from one generation of the points dataset; replaced wholesale when it changes. */
interface PointsView {
  index: SnapshotIndex;
  /** Keyed by snapshot set: JSON of the total routes, encoded once (a large body is not re-encoded per send). */
  totals: LruCache<string, JsonBytes<PointsByVault[]>>;
  /** Keyed by vault and snapshot set: JSON of the vault-at-block route. */
  vaultTypes: LruCache<string, JsonBytes<PointsByReceiverType[]>>;
  /** Keyed by vault and snapshot set: the vault's total per snapshot, heading its streamed list. */
  vaultTotals: LruCache<string, SnapshotAmount[]>;
  /**
   * Keyed by receiver: JSON of the receiver's current points. Snapshots never change, so an answer stays right for
   * the whole generation; dashboards poll the same receivers, and a hit costs no database round trip.
   */
  receivers: LruCache<string, JsonBytes<PointsByVault[]>>;
  /**
   * Keyed by vault and own position: JSON of the vault's current receivers, kept when it was small enough. Like the
   * receivers', right for the whole generation; a hit answers without reading the database.
   */
  vaultReceivers: LruCache<string, JsonBytes<PointsByReceiver[]>>;
}

/** A vault's current receivers: the kept bytes, or pieces still to be read and written. */
export type VaultReceiversAnswer = JsonBytes<PointsByReceiver[]> | JsonPieces<PointsByReceiver[]>;

export class PointsService {
  readonly #views: GenerationCache<PointsView>;
  readonly #pageSize: number;
  readonly #pieceSize: number;
  readonly #own: OwnPoints | undefined;
  readonly #vaultAnswerMaxBytes: number;

  constructor(
    private readonly repository: PointsRepository,
    database: Database,
    clock: Clock,
    options: PointsServiceOptions = {},
  ) {
    this.#pageSize = options.pageSize ?? 5_000;
    this.#pieceSize = options.pieceSize ?? VAULT_RECEIVERS_PIECE;
    this.#own = options.own;
    this.#vaultAnswerMaxBytes = options.vaultAnswerMaxBytes ?? 256 * 1024;
    const vaultCacheBytes = options.vaultCacheBytes ?? 32 * 1024 * 1024;
    const cacheEntries = options.cacheEntries ?? 1_000;
    this.#views = new GenerationCache(
      database,
      "points",
      async () => ({
        index: await repository.loadSnapshotIndex(),
        totals: new LruCache(cacheEntries),
        vaultTypes: new LruCache(cacheEntries),
        vaultTotals: new LruCache(cacheEntries),
        receivers: new LruCache(options.receiverCacheEntries ?? 20_000),
        vaultReceivers: new LruCache(cacheEntries, { weigh: (json) => json.length, max: vaultCacheBytes }),
      }),
      clock,
    );
  }

  /** After a write in this process has committed: every answer that starts afterwards sees it. */
  invalidate(): void {
    this.#views.invalidate();
  }

  /** GET /points/receiver/{address}/current: the receiver's points per vault, per points type, as JSON. */
  async receiverCurrent(receiver: string): Promise<JsonBytes<PointsByVault[]>> {
    const { index, receivers, own } = await this.#view();
    // The own type moves with every block the engine computes: its answers are kept per engine position.
    const key = own ? `${receiver}@${own.key}` : receiver;
    const cached = receivers.get(key);
    if (cached !== undefined) return cached;
    const snapshots = index.current();
    const rows = snapshots.length
      ? await this.repository.receiverPointsByVault(
          receiver,
          snapshots.map((snapshot) => snapshot.id),
        )
      : [];
    const records = byVaultRecords(snapshots, rows);
    if (own && this.#own) {
      const items = await this.#own.receiverPoints(receiver);
      if (items.length > 0)
        records.push(
          ownByVault(
            own,
            own.block,
            items.map((item) => ({ vault: item.vault, points: item.points })),
          ),
        );
    }
    const json = jsonBytes(byPointsType(records));
    receivers.set(key, json);
    return json;
  }

  /** GET /points/total/current and /points/total/{blockNumber}: every vault's total, per points type. */
  async totals(blockNumber: number | "current"): Promise<JsonBytes<PointsByVault[]>> {
    const view = await this.#view();
    const snapshots = chooseSnapshots(view.index, blockNumber);
    const ownBlock = view.own && ownBlockFor(view.own, blockNumber);
    const ownKey = blockNumber === "current" ? view.own?.key : ownBlock;
    const key = `${snapshotSetKey(snapshots)}|${ownKey ?? ""}`;
    const cached = view.totals.get(key);
    if (cached !== undefined) return cached;
    const rows = snapshots.length
      ? await this.repository.vaultTotals(snapshots.map((snapshot) => snapshot.id))
      : [];
    const records = byVaultRecords(snapshots, rows);
    if (view.own && this.#own && ownBlock !== undefined) {
      const amounts = await this.#own.amounts(blockNumber === "current" ? undefined : ownBlock);
      if (amounts.length > 0) records.push(ownByVault(view.own, ownBlock, amounts));
    }
    const json = jsonBytes(byPointsType(records));
    view.totals.set(key, json);
    return json;
  }

  /** GET /points/vault/{address}/{blockNumber}: the vault's points per receiver type, per points type. */
  async vaultByReceiverType(vault: string, blockNumber: number): Promise<JsonBytes<PointsByReceiverType[]>> {
    const view = await this.#view();
    await this.#requireKnownVault(view.index, vault);
    const snapshots = view.index.nearest(blockNumber);
    const ownBlock = view.own && ownBlockFor(view.own, blockNumber);
    const key = `${vault}@${snapshotSetKey(snapshots)}|${ownBlock ?? ""}`;
    const cached = view.vaultTypes.get(key);
    if (cached !== undefined) return cached;
    const rows = snapshots.length
      ? await this.repository.vaultTotalsByReceiverType(
          vault,
          snapshots.map((snapshot) => snapshot.id),
        )
      : [];
    const records = byReceiverTypeRecords(snapshots, rows);
    if (view.own && this.#own && ownBlock !== undefined) {
      const amounts = await this.#own.amounts(ownBlock, vault);
      if (amounts.length > 0)
        records.push({
          points_type: view.own.pointsType,
          last_block: Number(ownBlock),
          total_points: amounts.reduce((sum, amount) => sum + amount.points, 0n).toString(),
          items: amounts
            .sort((a, b) => compareText(a.receiverType, b.receiverType))
            .map((amount) => ({ receiver_type: amount.receiverType, points: amount.points.toString() })),
        });
    }
    const json = jsonBytes(byPointsType(records));
    view.vaultTypes.set(key, json);
    return json;
  }

  /**
   * GET /points/vault/{address}/current: the vault's points per receiver, per points type, as JSON text
   * chunks. A large vault has hundreds of thousands of receivers, so they are read in keyset pages and
   * written as they come; each record's total is the precomputed vault total, known before its items.
   * Errors (unknown vault, no data) are thrown here, before any byte is written. A list that ends within
   * `vaultAnswerMaxBytes` is kept as bytes for the generation and the own type's position, as a receiver's is.
   */
  async vaultByReceiver(vault: string): Promise<VaultReceiversAnswer> {
    const view = await this.#view();
    await this.#requireKnownVault(view.index, vault);
    const answerKey = view.own ? `${vault}@${view.own.key}` : vault;
    const kept = view.vaultReceivers.get(answerKey);
    if (kept !== undefined) return kept;
    const snapshots = view.index.current();
    const key = `${vault}@${snapshotSetKey(snapshots)}`;
    let totals = view.vaultTotals.get(key);
    if (totals === undefined) {
      totals = await this.repository.vaultTotal(
        vault,
        snapshots.map((snapshot) => snapshot.id),
      );
      view.vaultTotals.set(key, totals);
    }
    const totalBySnapshot = new Map(totals.map((row) => [row.snapshotId, row.points]));
    const records: StreamedRecord[] = snapshots.flatMap((snapshot) => {
      const total = totalBySnapshot.get(snapshot.id);
      return total === undefined
        ? []
        : [{ pointsType: snapshot.pointsType, blockNumber: snapshot.blockNumber, total, snapshot }];
    });
    if (view.own && this.#own) {
      const items = await this.#own.vaultReceivers(vault);
      if (items.length > 0)
        records.push({
          pointsType: view.own.pointsType,
          blockNumber: Number(view.own.block),
          total: items.reduce((sum, item) => sum + item.points, 0n).toString(),
          own: items,
        });
      records.sort((a, b) => compareText(a.pointsType, b.pointsType));
    }
    // Written key by key in PointsByReceiverSchema's order (#streamReceivers); the tests validate the whole list.
    const pieces = keptIfSmall(this.#streamReceivers(vault, records), this.#vaultAnswerMaxBytes, (json) =>
      view.vaultReceivers.set(answerKey, writtenAsJson<PointsByReceiver[]>(json)),
    );
    return writtenAsJson<PointsByReceiver[]>(pieces);
  }

  async *#streamReceivers(vault: string, records: readonly StreamedRecord[]): AsyncGenerator<string> {
    yield "[";
    for (const [position, record] of records.entries()) {
      const { snapshot, total, own } = record;
      // Key order and value types exactly as PointsByReceiverSchema; receivers and amounts are stored
      // validated (lowercase hex, digits), so they need no escaping.
      yield `${position === 0 ? "" : ","}{"points_type":${JSON.stringify(record.pointsType)},"last_block":${record.blockNumber},"total_points":"${total}","items":[`;
      if (own || !snapshot) {
        // The own type's receivers, valued in memory from the engine's records: written in pieces like the others.
        const items = own ?? [];
        for (let start = 0; start < items.length; start += this.#pieceSize)
          yield (start === 0 ? "" : ",") +
            items
              .slice(start, start + this.#pieceSize)
              .map((item) => `{"receiver_address":"${item.receiver}","points":"${item.points}"}`)
              .join(",");
        yield "]}";
        continue;
      }
      const readPage = (after: string | null) =>
        this.repository.vaultReceiversJsonPage(snapshot.id, vault, after, this.#pageSize, this.#pieceSize);
      let separator = "";
      let next = readPage(null);
      for (;;) {
        const page = await next;
        const more = page.rows === this.#pageSize;
        // The next page is read while this one is written, so the database and the socket work side by side.
        // If the client goes away first, nobody awaits it: its failure must not become an unhandled rejection.
        if (more) {
          next = readPage(page.lastReceiver);
          next.catch(() => {});
        }
        for (const piece of page.pieces) {
          yield separator + piece;
          separator = ",";
        }
        if (!more) break;
      }
      yield "]}";
    }
    yield "]";
  }

  async #view(): Promise<PointsView & { own: OwnPointsView | undefined }> {
    const [view, own] = await Promise.all([this.#views.get(), this.#own?.view()]);
    if (view.index.isEmpty && own === undefined) throw new NoPointsDataError();
    return { ...view, own };
  }

  async #requireKnownVault(index: SnapshotIndex, vault: string): Promise<void> {
    if (index.knowsVault(vault) || this.#own?.vaults.has(vault)) return;
    if (await this.repository.registryKnowsVault(vault)) return;
    throw new UnknownVaultError(vault);
  }
}

/**
 * The pieces as they come; once the last one is written, `keep` gets them all as bytes unless they passed
 * `maxBytes`. A stream that fails or is abandoned keeps nothing.
 */
async function* keptIfSmall(
  pieces: AsyncIterable<string>,
  maxBytes: number,
  keep: (json: Buffer) => void,
): AsyncGenerator<string> {
  let kept: string[] | undefined = [];
  let bytes = 0;
  for await (const piece of pieces) {
    if (kept) {
      bytes += Buffer.byteLength(piece);
      if (bytes > maxBytes) kept = undefined;
      else kept.push(piece);
    }
    yield piece;
  }
  if (kept) keep(Buffer.from(kept.join("")));
}

/** A record of the vault-receivers stream: a partner snapshot's (read in pages) or the own type's (valued). */
interface StreamedRecord {
  pointsType: string;
  blockNumber: number;
  total: string;
  snapshot?: SnapshotRef;
  own?: ReadonlyArray<{ receiver: string; points: bigint }>;
}

/** The own type's block answering `blockNumber`: its position for "current", else its nearest snapshot. */
function ownBlockFor(own: OwnPointsView, blockNumber: number | "current"): bigint | undefined {
  if (blockNumber === "current") return own.block;
  const refs = own.snapshots.map((block) => ({
    id: Number(block),
    pointsType: own.pointsType,
    blockNumber: Number(block),
  }));
  if (refs.length === 0) return undefined;
  return BigInt(new SnapshotIndex(refs, []).nearest(blockNumber)[0]!.blockNumber);
}

/** The own type's record of vault totals at `block`: its amounts summed per vault, ascending by vault. */
function ownByVault(
  own: OwnPointsView,
  block: bigint,
  amounts: ReadonlyArray<{ vault: string; points: bigint }>,
): PointsByVault {
  const byVault = new Map<string, bigint>();
  for (const amount of amounts) byVault.set(amount.vault, (byVault.get(amount.vault) ?? 0n) + amount.points);
  const items = [...byVault].sort(([a], [b]) => compareText(a, b));
  return {
    points_type: own.pointsType,
    last_block: Number(block),
    total_points: items.reduce((sum, [, points]) => sum + points, 0n).toString(),
    items: items.map(([vault, points]) => ({
      vault_address: vault as PointsByVault["items"][number]["vault_address"],
      points: points.toString(),
    })),
  };
}

/** Records in points-type order (the partner types' order, the own type among them). */
function byPointsType<Row extends { points_type: string }>(records: Row[]): Row[] {
  return records.sort((a, b) => compareText(a.points_type, b.points_type));
}

function chooseSnapshots(index: SnapshotIndex, blockNumber: number | "current"): SnapshotRef[] {
  return blockNumber === "current" ? index.current() : index.nearest(blockNumber);
}

function snapshotSetKey(snapshots: readonly SnapshotRef[]): string {
  return snapshots.map((snapshot) => snapshot.id).join(",");
}

/** One record per snapshot that has rows, in snapshot (= points type) order; items ascending by vault. */
function byVaultRecords(snapshots: readonly SnapshotRef[], rows: readonly VaultAmount[]): PointsByVault[] {
  const rowsBySnapshot = groupBySnapshot(rows);
  return snapshots.flatMap((snapshot) => {
    const items = rowsBySnapshot.get(snapshot.id);
    if (!items) return [];
    items.sort((a, b) => compareText(a.vault, b.vault));
    return [
      {
        points_type: snapshot.pointsType,
        last_block: snapshot.blockNumber,
        total_points: sumPoints(items).toString(),
        items: items.map((item) => ({ vault_address: item.vault, points: item.points })),
      },
    ];
  });
}

/** One record per snapshot that has rows; items ascending by receiver type. */
function byReceiverTypeRecords(
  snapshots: readonly SnapshotRef[],
  rows: readonly ReceiverTypeAmount[],
): PointsByReceiverType[] {
  const rowsBySnapshot = groupBySnapshot(rows);
  return snapshots.flatMap((snapshot) => {
    const items = rowsBySnapshot.get(snapshot.id);
    if (!items) return [];
    items.sort((a, b) => compareText(a.receiverType, b.receiverType));
    return [
      {
        points_type: snapshot.pointsType,
        last_block: snapshot.blockNumber,
        total_points: sumPoints(items).toString(),
        items: items.map((item) => ({ receiver_type: item.receiverType, points: item.points })),
      },
    ];
  });
}

function groupBySnapshot<Row extends { snapshotId: number }>(rows: readonly Row[]): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.snapshotId);
    if (group) group.push(row);
    else groups.set(row.snapshotId, [row]);
  }
  return groups;
}

function sumPoints(items: ReadonlyArray<{ points: string }>): bigint {
  let total = 0n;
  for (const item of items) total += BigInt(item.points);
  return total;
}
