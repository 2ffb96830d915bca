// One loop for every part that follows the chain under a lease (the indexer, the points engine): one process at a
// time holds the part's lease and catches up at every new head (or every poll interval without heads); the others
// stand by and try for the lease every poll interval. A failed pass (the RPC or the database out of reach) is retried
// at the next head or after a poll interval; a lost lease is dropped and tried for again. What a pass does, and what
// a part forgets when it gains or loses the lease, is the part's.
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import type { HeadSource } from "./heads.ts";

/** A right to write held by one process: lost when its lock session ends or another process took it over. */
export interface HeadLoopLease {
  readonly epoch: bigint;
  /** Why it no longer holds; undefined while held. */
  readonly lost: string | undefined;
  release(): Promise<void>;
}

export interface LeasedHeadLoopOptions<Lease extends HeadLoopLease> {
  logger: Logger;
  /** New heads: a pass starts as soon as one arrives. Without, every poll interval. */
  heads?: HeadSource;
  /** Without heads, how often a pass runs; with heads, how soon a failed pass, or a process standing by, tries again. */
  pollIntervalMs?: number;
  /** Takes the lease; null while another process holds it. */
  acquire(): Promise<Lease | null>;
  /** Whether a pass's failure means the lease is gone (then it is dropped, not logged as a failure). */
  isLeaseLost(error: unknown): boolean;
  /** Catches up under the lease; `head` is the newest head announced so far, if any. */
  catchUp(lease: Lease, head: bigint | undefined): Promise<void>;
  /** Told when the lease is gained or lost, before the next pass (a part drops what another process may have changed). */
  onLeaseChange?(held: boolean): void;
  /** The log lines of the part: gained the lease, lost it, a pass failed. */
  messages: { acquired: string; lost: string; failed: string };
}

export class LeasedHeadLoop<Lease extends HeadLoopLease> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #unfollow: (() => void) | undefined;
  /** A head arrived while a pass ran: run again right after it. */
  #again = false;
  /** The newest head announced (the part checks it is still the newest before trusting it). */
  #head: bigint | undefined;
  #lease: Lease | null = null;
  #stopped = true;

  constructor(private readonly options: LeasedHeadLoopOptions<Lease>) {}

  /** The lease this process holds while it works; null while it stands by. */
  get lease(): Lease | null {
    return this.#lease;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#unfollow = this.options.heads?.onHead((head) => {
      this.#head = head;
      this.#wake();
    });
    this.#wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unfollow?.();
    this.#unfollow = undefined;
    clearTimeout(this.#timer);
    await this.#running;
    await this.#lease?.release().catch(() => {});
    this.#lease = null;
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = this.#pass().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.#wake();
      }
    });
  }

  async #pass(): Promise<void> {
    let caughtUp = false;
    try {
      const lease = await this.#heldLease();
      if (lease) {
        await this.options.catchUp(lease, this.#head);
        caughtUp = true;
      }
    } catch (error) {
      if (this.options.isLeaseLost(error)) await this.#dropLease(errorMessage(error));
      else this.options.logger[failureLevel(error, "error")]({ err: error }, this.options.messages.failed);
    }
    // Heads drive a process that holds the lease; the clock drives one without heads, one standing by, one whose
    // pass failed.
    if (!this.#stopped && (!this.options.heads || !caughtUp))
      this.#timer = setTimeout(() => this.#wake(), this.options.pollIntervalMs ?? 1000);
  }

  /** The lease, acquired if this process has none (null while another holds it); a lost one is dropped first. */
  async #heldLease(): Promise<Lease | null> {
    const lost = this.#lease?.lost;
    if (lost) await this.#dropLease(lost);
    if (this.#lease) return this.#lease;
    this.#lease = await this.options.acquire();
    if (this.#lease) {
      this.options.onLeaseChange?.(true);
      this.options.logger.info({ epoch: this.#lease.epoch }, this.options.messages.acquired);
    }
    return this.#lease;
  }

  async #dropLease(reason: string): Promise<void> {
    const lease = this.#lease;
    if (!lease) return;
    this.#lease = null;
    this.options.onLeaseChange?.(false);
    this.options.logger.warn({ epoch: lease.epoch, reason }, this.options.messages.lost);
    await lease.release().catch(() => {});
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
