// A database chore (a prune, a fold) run at start and then every interval, one run at a time: a call while it runs
// joins that run, and stop waits for it. The job handles its own failures (it resolves), so a timer never sees a
// rejection.
export class PeriodicJob<T> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<T> | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly job: () => Promise<T>,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.run(), this.intervalMs);
    this.#timer.unref();
    void this.run();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Runs the job now, or joins the run in flight. */
  run(): Promise<T> {
    this.#running ??= this.job().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }
}
