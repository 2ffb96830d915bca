// The filler's wait between two polls, which a pushed order cuts short: `wait` resolves after its interval, when
// `wake` is called (an order stream event), or when the signal aborts. A wake while no one waits is kept for the
// next wait, so an order pushed during a poll is polled for right after it.
export class PollWakeup {
  #waiting: (() => void) | undefined;
  #pending = false;

  wake(): void {
    if (this.#waiting) this.#waiting();
    else this.#pending = true;
  }

  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#pending || signal.aborted) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#waiting = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.#waiting = done;
    });
  }
}
