// The readiness probe's checks: a small registry the composition root fills (the database, the chain head, the
// indexer, the migrations, and any part added later, such as the points engine), evaluated together for GET /ready.
// Every check is bounded by one timeout, so a hung dependency fails its check instead of hanging the probe, and runs
// at most once at a time: probes arriving while a check is still out share its run instead of piling up on a dead
// dependency (a database cut would otherwise take a pool connection per probe).

/** What one check found: passed or not, a short human sentence, and the facts behind it. */
export interface CheckOutcome {
  ok: boolean;
  message: string;
  details?: Record<string, string | number | boolean | null>;
}

export interface ReadinessCheck {
  /** Unique, short, stable: alerts and load balancers' logs name it (`database`, `chain-head`, `indexer`…). */
  name: string;
  run(): Promise<CheckOutcome>;
}

export interface CheckResult extends CheckOutcome {
  name: string;
  durationMs: number;
}

export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
  /** The names of the checks that failed, in registration order. */
  failing: string[];
}

export class DuplicateReadinessCheckError extends Error {
  override name = "DuplicateReadinessCheckError";
  constructor(readonly check: string) {
    super(`a readiness check named ${check} is registered already`);
  }
}

export class ReadinessChecks {
  readonly #checks = new Map<string, ReadinessCheck>();
  /** Each check's run still out, shared by the probes that arrive meanwhile. */
  readonly #running = new Map<string, Promise<CheckOutcome>>();

  constructor(private readonly options: { timeoutMs: number }) {}

  /** Adds a check; the returned function removes it (a part that stops being configured). */
  register(check: ReadinessCheck): () => void {
    if (this.#checks.has(check.name)) throw new DuplicateReadinessCheckError(check.name);
    this.#checks.set(check.name, check);
    return () => {
      if (this.#checks.get(check.name) === check) this.#checks.delete(check.name);
    };
  }

  get names(): string[] {
    return [...this.#checks.keys()];
  }

  /** Runs every check at once; resolves within the timeout (and a little), whatever the checks do. */
  async evaluate(): Promise<ReadinessReport> {
    const checks = await Promise.all([...this.#checks.values()].map((check) => this.#bounded(check)));
    const failing = checks.filter((check) => !check.ok).map((check) => check.name);
    return { ready: failing.length === 0, checks, failing };
  }

  async #bounded(check: ReadinessCheck): Promise<CheckResult> {
    const started = performance.now();
    let run = this.#running.get(check.name);
    if (!run) {
      const fresh = Promise.resolve()
        .then(() => check.run())
        .catch(
          (error: unknown): CheckOutcome => ({
            ok: false,
            message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          }),
        )
        .finally(() => {
          if (this.#running.get(check.name) === fresh) this.#running.delete(check.name);
        });
      this.#running.set(check.name, fresh);
      run = fresh;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<CheckOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, message: `no answer within ${this.options.timeoutMs} ms` }),
        this.options.timeoutMs,
      );
    });
    try {
      const outcome = await Promise.race([run, timedOut]);
      return { name: check.name, ...outcome, durationMs: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
    }
  }
}
