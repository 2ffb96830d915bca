// The writes an operator's commands make (imports, a partner's points sync, cooldown overrides, the points engine's
// backfill and its status beside it), done by the running
// server on its own database when a command beside it cannot open that database (src/admin/running-server.ts). Each
// calls the very function the command calls when it opens the database itself, so the result is the same.
import type { Clock } from "../clock.ts";
import { logCooldownChange } from "../cooldowns/cooldowns.ts";
import { CooldownRepository } from "../cooldowns/repository.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { type ImportPointsOptions, importPoints } from "../points/import-file.ts";
import { type FeedFormat, type SyncOptions, type SyncResult, syncPartnerPoints } from "../points/sync.ts";
import type { SnapshotSummary } from "../points/writer.ts";
import type { BackfillProgress } from "../points-engine/engine.ts";
import { storeRegistry } from "../registry/importer.ts";
import { parseOverlay } from "../registry/overlay.ts";
import type { MetadataTree } from "../registry/registry.ts";
import type { ImportReport, TreeReport } from "../registry/report.ts";
import { NoPointsEngineError } from "./errors.ts";

/** What `sluice points sync` prints while it runs, reported by the server doing the sync. */
export type SyncProgress =
  | { kind: "format"; format: FeedFormat; detectedAt?: string }
  | { kind: "page"; at: string; rows: number; stagedRows: number };

export type SyncRequest = Pick<
  SyncOptions,
  "url" | "pointsType" | "feedDecimals" | "typeDecimals" | "feedFormat" | "pageSize"
>;

/** The points engine of the server, for `sluice points engine status|backfill` beside it. */
export interface AdminPointsEngine {
  status(): Promise<string>;
  backfill(options: {
    from?: bigint;
    onProgress: (progress: BackfillProgress) => void;
    stopped: () => boolean;
  }): Promise<BackfillProgress>;
}

export type CooldownOverride = { solverId: string; lift: true } | { solverId: string; until: Date };

export class AdminOperations {
  constructor(
    private readonly deps: {
      database: Database;
      clock: Clock;
      /** Where the changes are logged: the server's log, as the command would have logged them. */
      logger: Logger;
      /** The read models this server answers from, told of each write once it has committed. */
      written: { points(): void; registry(): void; cooldowns(): Promise<void> };
      /** The deployment's points engine, when it has one. */
      pointsEngine?: AdminPointsEngine;
    },
  ) {}

  /** Without statement timeouts, as a command's own connection has none. */
  get #database(): Database {
    return this.deps.database.maintenance;
  }

  async importPoints(input: NodeJS.ReadableStream, options: ImportPointsOptions): Promise<SnapshotSummary> {
    const summary = await importPoints(this.#database, input, options);
    this.deps.written.points();
    return summary;
  }

  async syncPoints(request: SyncRequest, report: (progress: SyncProgress) => void): Promise<SyncResult> {
    const result = await syncPartnerPoints(this.#database, {
      ...request,
      onFormat: (format, detectedAt) =>
        report({ kind: "format", format, ...(detectedAt ? { detectedAt } : {}) }),
      onPage: (page) => report({ kind: "page", ...page }),
    });
    this.deps.written.points();
    return result;
  }

  /** The tree the command read and checked, and the overlay file's JSON (checked again here). */
  async importRegistry(
    tree: { tree: MetadataTree; report: TreeReport },
    overlayFile: unknown,
  ): Promise<{ report: ImportReport; kind: Database["kind"] }> {
    const report = await storeRegistry(this.#database, tree, parseOverlay(overlayFile));
    this.deps.written.registry();
    return { report, kind: this.deps.database.kind };
  }

  pointsEngineStatus(): Promise<string> {
    return this.#pointsEngine.status();
  }

  /** Stops after the step in flight once `stopped` says so (the command beside went away: Ctrl-C). */
  pointsEngineBackfill(
    from: bigint | undefined,
    report: (progress: BackfillProgress) => void,
    stopped: () => boolean,
  ): Promise<BackfillProgress> {
    return this.#pointsEngine.backfill({
      ...(from === undefined ? {} : { from }),
      onProgress: report,
      stopped,
    });
  }

  get #pointsEngine(): AdminPointsEngine {
    if (!this.deps.pointsEngine) throw new NoPointsEngineError();
    return this.deps.pointsEngine;
  }

  async overrideCooldown(override: CooldownOverride): Promise<void> {
    const repository = new CooldownRepository(this.#database.db);
    const now = this.deps.clock.now();
    const changes =
      "lift" in override
        ? await repository.lift(override.solverId, now)
        : await repository.set(override.solverId, override.until, now);
    for (const change of changes) logCooldownChange(this.deps.logger, change);
    await this.deps.written.cooldowns();
  }
}
