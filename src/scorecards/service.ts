// GET /solvers and /solvers/{id}: every configured solver with its cooldown and scorecard. The scorecards of all
// solvers are read together (four primary-key range reads of the aggregate tables, the answer reads with the rows
// still pending fold) and kept for at most MAX_STALENESS_MS, so any number of requests costs at most one read per
// second per replica; concurrent requests share the read in flight. Each snapshot's answers are serialized once per
// base URL (the logo URLs depend on it) and sent as bytes after that.
import type { Clock } from "../clock.ts";
import { type JsonBytes, jsonBytes } from "../shared/json-text.ts";
import type { Solver, SolverDirectory } from "../solvers/directory.ts";
import type { SolverCooldownView } from "./cooldown-view.ts";
import { SolverNotFoundError } from "./errors.ts";
import type { ScorecardRepository } from "./repository.ts";
import { type Scorecard, scorecards, windowStart } from "./scorecard.ts";

/** How old a served scorecard may be. */
export const MAX_STALENESS_MS = 1000;

export interface SolverScorecardView {
  id: string;
  name: string;
  metadata: { logoUrl?: string };
  enabled: boolean;
  cooldownUntil: string | null;
  cooldownReason: string | null;
  scorecard: Scorecard;
}

export interface ScorecardServiceOptions {
  repository: ScorecardRepository;
  solvers: SolverDirectory;
  cooldowns: SolverCooldownView;
  clock: Clock;
  maxStalenessMs?: number;
}

interface Snapshot {
  readAt: number;
  cards: Map<string, Scorecard>;
  /** Answers already serialized, by base URL, then by solver id ("" for the list). */
  rendered: Map<string, Map<string, Buffer>>;
}

export class ScorecardService {
  #snapshot: Promise<Snapshot> | undefined;

  constructor(private readonly options: ScorecardServiceOptions) {}

  /** GET /solvers's answer as JSON bytes, serialized once per snapshot and base URL. */
  async listJson(baseUrl: string): Promise<JsonBytes<{ solvers: SolverScorecardView[] }>> {
    const snapshot = await this.#fresh();
    return this.#rendered(snapshot, baseUrl, "", () =>
      jsonBytes({
        solvers: this.options.solvers.all().map((solver) => this.#view(solver, snapshot.cards, baseUrl)),
      }),
    );
  }

  /** GET /solvers/{id}'s answer as JSON bytes, likewise. */
  async oneJson(solverId: string, baseUrl: string): Promise<JsonBytes<SolverScorecardView>> {
    const solver = this.options.solvers.byId(solverId);
    if (!solver) throw new SolverNotFoundError(solverId);
    const snapshot = await this.#fresh();
    return this.#rendered(snapshot, baseUrl, solver.id, () =>
      jsonBytes(this.#view(solver, snapshot.cards, baseUrl)),
    );
  }

  #rendered<T>(snapshot: Snapshot, baseUrl: string, key: string, render: () => JsonBytes<T>): JsonBytes<T> {
    let byKey = snapshot.rendered.get(baseUrl);
    if (!byKey) {
      byKey = new Map();
      snapshot.rendered.set(baseUrl, byKey);
    }
    let bytes = byKey.get(key) as JsonBytes<T> | undefined;
    if (!bytes) {
      bytes = render();
      byKey.set(key, bytes);
    }
    return bytes;
  }

  #view(solver: Solver, cards: Map<string, Scorecard>, baseUrl: string): SolverScorecardView {
    const logoUrl = this.options.solvers.logoUrl(solver, baseUrl);
    const cooldown = this.options.cooldowns.cooldownOf(solver.id);
    return {
      id: solver.id,
      name: solver.name,
      metadata: logoUrl ? { logoUrl } : {},
      enabled: solver.enabled,
      cooldownUntil: cooldown ? cooldown.until.toISOString() : null,
      cooldownReason: cooldown ? cooldown.reason : null,
      scorecard: cards.get(solver.id)!,
    };
  }

  /** The snapshot if it is recent enough, else a new read (shared by every caller while it runs). */
  async #fresh(): Promise<Snapshot> {
    const now = this.options.clock.now().getTime();
    const maxAge = this.options.maxStalenessMs ?? MAX_STALENESS_MS;
    const current = this.#snapshot;
    if (current) {
      const snapshot = await current.catch(() => undefined);
      if (snapshot && now - snapshot.readAt < maxAge) return snapshot;
      // Another caller may have started a newer read meanwhile.
      if (this.#snapshot !== current) return this.#fresh();
    }
    const reading = this.#read();
    this.#snapshot = reading;
    return reading;
  }

  async #read(): Promise<Snapshot> {
    const { repository, clock, solvers } = this.options;
    // Taken before the reads: the snapshot is never older than it says.
    const at = clock.now();
    const [minuteAnswers, minuteOrders, hourAnswers, hourOrders] = await Promise.all([
      repository.answerStats("minute", windowStart("hour", at)),
      repository.orderStats("minute", windowStart("hour", at)),
      repository.answerStats("hour", windowStart("week", at)),
      repository.orderStats("hour", windowStart("week", at)),
    ]);
    const cards = scorecards(
      { minuteAnswers, minuteOrders, hourAnswers, hourOrders },
      solvers.all().map((solver) => solver.id),
      at,
    );
    return { readAt: at.getTime(), cards, rendered: new Map() };
  }
}
