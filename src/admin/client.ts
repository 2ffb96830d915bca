// The admin routes' client, for commands run beside a server (src/http/handlers/admin-solvers.ts, admin-data.ts):
// each call sends the admin token; a refusal throws AdminRequestError with the server's code and message, and work
// that failed on the server throws AdminJobError with the message the command would have printed.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Address } from "viem";
import type { PointsFileFormat } from "../points/import-file.ts";
import type { SyncResult } from "../points/sync.ts";
import type { SnapshotSummary } from "../points/writer.ts";
import type { BackfillProgress } from "../points-engine/engine.ts";
import type { MetadataTree } from "../registry/registry.ts";
import type { ImportReport, TreeReport } from "../registry/report.ts";
import type { ListedSolver } from "../solvers/registry.ts";
import { readJobStream } from "./job-stream.ts";
import type { SyncProgress, SyncRequest } from "./operations.ts";
import { ADMIN_AUTH_HEADER } from "./token.ts";

/** A snapshot's summary as a job answers it: the total as a decimal string. */
type SnapshotSummaryText = Omit<SnapshotSummary, "totalPoints"> & { totalPoints: string };

function snapshotSummary(text: SnapshotSummaryText): SnapshotSummary {
  return { ...text, totalPoints: BigInt(text.totalPoints) };
}

/** A backfill's progress as a job answers it: block numbers as decimal strings. */
interface BackfillProgressText {
  position: string | null;
  target: string;
  startedAt: string | null;
  blocks: number;
  events: number;
  rewoundTo?: string;
  followed?: BackfillProgress["followed"];
}

function backfillProgress(text: BackfillProgressText): BackfillProgress {
  return {
    position: text.position === null ? null : BigInt(text.position),
    target: BigInt(text.target),
    startedAt: text.startedAt === null ? null : BigInt(text.startedAt),
    blocks: text.blocks,
    events: text.events,
    ...(text.rewoundTo === undefined ? {} : { rewoundTo: BigInt(text.rewoundTo) }),
    ...(text.followed === undefined ? {} : { followed: text.followed }),
  };
}

export interface AdminClientOptions {
  /** The internal API's base, e.g. `http://127.0.0.1:8081/api-internal/v1`. */
  internalApiUrl: string;
  token: string;
  /** Per call (default 30 s: adding a solver waits for nothing slow, but the server may be busy). */
  timeoutMs?: number;
}

export interface AdminAddedSolver {
  id: string;
  name: string;
  endpoint: string;
  filler: Address;
  sharedSecret: string;
  addedAt: string;
}

/** An API key as the admin routes list it (never the key itself). */
export interface AdminListedKey {
  name: string;
  keyPrefix: string;
  quotesPerMinute: number | null;
  readsPerSecond: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** The server refused an admin call (or answered something that is not one of its answers). */
export class AdminRequestError extends Error {
  override name = "AdminRequestError";
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export class AdminClient {
  constructor(private readonly options: AdminClientOptions) {}

  async solvers(): Promise<ListedSolver[]> {
    const answer = await this.#call<{ solvers: ListedSolver[] }>("GET", "/admin/solvers");
    return answer.solvers;
  }

  addSolver(registration: { id: string; name: string; endpoint: string; filler: Address }) {
    return this.#call<AdminAddedSolver>("POST", "/admin/solvers", registration);
  }

  removeSolver(id: string) {
    return this.#call<{ id: string; name: string; endpoint: string; filler: Address }>(
      "POST",
      `/admin/solvers/${encodeURIComponent(id)}/remove`,
    );
  }

  async keys(): Promise<AdminListedKey[]> {
    return (await this.#call<{ keys: AdminListedKey[] }>("GET", "/admin/keys")).keys;
  }

  createKey(key: { name: string; quotesPerMinute?: number; readsPerSecond?: number }) {
    return this.#call<{ key: string; record: AdminListedKey }>("POST", "/admin/keys", key);
  }

  revokeKey(name: string) {
    return this.#call<AdminListedKey>("POST", `/admin/keys/${encodeURIComponent(name)}/revoke`);
  }

  /** Streams the file to the server, which imports it as it arrives; `onSent` follows the upload. */
  async importPoints(
    path: string,
    query: {
      pointsType: string;
      blockNumber: number;
      format: PointsFileFormat;
      feedDecimals: number;
      typeDecimals?: number | undefined;
    },
    onSent: (bytesSent: number, totalBytes: number) => void,
  ): Promise<SnapshotSummary> {
    const { size } = await stat(path);
    const file = createReadStream(path);
    let sent = 0;
    file.on("data", (chunk) => {
      sent += chunk.length;
      onSent(sent, size);
    });
    const search = new URLSearchParams(
      Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
    );
    const summary = await this.#job<never, SnapshotSummaryText>(`/admin/points/import?${search}`, {
      contentType: "application/octet-stream",
      body: Readable.toWeb(file) as ReadableStream<Uint8Array>,
    });
    return snapshotSummary(summary);
  }

  async syncPoints(request: SyncRequest, onProgress: (progress: SyncProgress) => void): Promise<SyncResult> {
    type SyncResultText =
      | Extract<SyncResult, { status: "up-to-date" }>
      | (Omit<Extract<SyncResult, { status: "synced" }>, "snapshot"> & { snapshot: SnapshotSummaryText });
    const result = await this.#job<SyncProgress, SyncResultText>(
      "/admin/points/sync",
      { json: request },
      onProgress,
    );
    return result.status === "synced" ? { ...result, snapshot: snapshotSummary(result.snapshot) } : result;
  }

  importRegistry(
    tree: { tree: MetadataTree; report: TreeReport },
    overlayFile: unknown,
  ): Promise<{ report: ImportReport; kind: string }> {
    return this.#job("/admin/registry/import", { json: { tree, overlay: overlayFile } });
  }

  async pointsEngineStatus(): Promise<string> {
    return (await this.#call<{ text: string }>("GET", "/admin/points-engine/status")).text;
  }

  /** The running engine's backfill; aborting `signal` (Ctrl-C) makes the server stop after the step in flight. */
  async pointsEngineBackfill(
    from: bigint | undefined,
    onProgress: (progress: BackfillProgress) => void,
    signal?: AbortSignal,
  ): Promise<BackfillProgress> {
    const result = await this.#job<BackfillProgressText, BackfillProgressText>(
      "/admin/points-engine/backfill",
      { json: from === undefined ? {} : { from: from.toString() } },
      (progress) => onProgress(backfillProgress(progress)),
      signal,
    );
    return backfillProgress(result);
  }

  async overrideCooldown(override: { solverId: string; lift: true } | { solverId: string; until: string }) {
    await this.#job("/admin/cooldowns", { json: override });
  }

  /** A job route: no time limit (an import takes as long as its file), its progress to `onProgress`. */
  async #job<Progress, Result>(
    path: string,
    body: { json: unknown } | { contentType: string; body: ReadableStream<Uint8Array> },
    onProgress?: (progress: Progress) => void,
    signal?: AbortSignal,
  ): Promise<Result> {
    const url = `${this.options.internalApiUrl.replace(/\/+$/, "")}${path}`;
    const response = await fetch(url, {
      ...(signal ? { signal } : {}),
      method: "POST",
      headers: {
        [ADMIN_AUTH_HEADER]: `Bearer ${this.options.token}`,
        "content-type": "json" in body ? "application/json" : body.contentType,
      },
      ...("json" in body ? { body: JSON.stringify(body.json) } : { body: body.body, duplex: "half" }),
    } as RequestInit);
    if (!response.ok || !response.body) throw await refusal("POST", url, response);
    return readJobStream<Progress, Result>(response.body, onProgress);
  }

  async #call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const url = `${this.options.internalApiUrl.replace(/\/+$/, "")}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        [ADMIN_AUTH_HEADER]: `Bearer ${this.options.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    if (!response.ok) throw await refusal(method, url, response);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new AdminRequestError(
        response.status,
        undefined,
        `${method} ${url}: HTTP ${response.status} ${text}`,
      );
    }
  }
}

/** A refused admin call: the server's error envelope, or what it answered instead. */
async function refusal(method: string, url: string, response: Response): Promise<AdminRequestError> {
  const text = await response.text();
  let error: { code?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
  } catch {
    error = undefined;
  }
  return new AdminRequestError(
    response.status,
    error?.code,
    error?.message
      ? `the server refused: ${error.message} (${response.status}${error.code ? ` ${error.code}` : ""})`
      : `${method} ${url}: HTTP ${response.status} ${text}`,
  );
}
