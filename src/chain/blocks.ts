// The chain head as the API sees it: the latest block number and timestamp, refreshed in the background so a
// request never waits for an RPC round trip just to learn which block it is: at every new head when it follows heads
// (heads.ts), else every poll interval.
import type { ChainPublicClient } from "./client.ts";
import type { HeadSource } from "./heads.ts";

export interface BlockHead {
  number: bigint;
  hash: `0x${string}`;
  timestamp: bigint;
}

export interface BlockSource {
  latest(): Promise<BlockHead>;
}

export class BlockTracker implements BlockSource {
  #head: BlockHead | undefined;
  #pending: Promise<BlockHead> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unfollow: (() => void) | undefined;
  #fetchedAt = 0;

  constructor(
    private readonly client: Pick<ChainPublicClient, "getBlock">,
    private readonly pollIntervalMs = 1000,
    /** New heads: each one refreshes the head at once, and a head they say is current needs no refresh. */
    private readonly heads?: HeadSource,
  ) {}

  /** Starts refreshing the head at every new head, or every poll interval without heads (idempotent). */
  start(): void {
    if (this.#timer || this.#unfollow) return;
    if (this.heads) {
      this.#unfollow = this.heads.onHead(() => {
        this.#refresh().catch(() => {
          // A failed read keeps the last head; the next head or request tries again.
        });
      });
      return;
    }
    this.#timer = setInterval(() => {
      this.#refresh().catch(() => {
        // A failed poll keeps the last head; the next poll or request tries again.
      });
    }, this.pollIntervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  /** The head last received (from the RPC or observed), without asking for one; undefined before the first. */
  get current(): BlockHead | undefined {
    return this.#head;
  }

  /** When `current` was received (ms since the epoch); 0 before the first. */
  get receivedAt(): number {
    return this.#fetchedAt;
  }

  /** Asks the RPC for the head now (sharing a request already out). */
  fetch(): Promise<BlockHead> {
    return this.#refresh();
  }

  /**
   * The latest known head; fetched on demand when none is known, when the followed heads do not vouch for it (a newer
   * one was announced, or they are stale), or — without heads — when it is older than two polls. A head read a moment
   * ago is not enough when heads are followed: a worker woken by the next head must see that head, not this one.
   */
  async latest(): Promise<BlockHead> {
    const head = this.#head;
    if (head) {
      const fresh = this.heads
        ? this.heads.isCurrent(head.number)
        : Date.now() - this.#fetchedAt < 2 * this.pollIntervalMs;
      if (fresh) return head;
    }
    return this.#refresh();
  }

  /**
   * A head read elsewhere (a request that read the latest block itself): adopted when it is newer than the one
   * known, so what was judged at that block is never followed by answers from an older one.
   */
  observe(head: BlockHead): void {
    if (this.#head && head.number <= this.#head.number) return;
    this.#head = head;
    this.#fetchedAt = Date.now();
  }

  #refresh(): Promise<BlockHead> {
    this.#pending ??= this.client
      .getBlock({ blockTag: "latest" })
      .then((block) => {
        // The newest answer wins, even at a lower height: after a reorg (or a devnet revert) that is the chain.
        this.#head = { number: block.number, hash: block.hash, timestamp: block.timestamp };
        this.#fetchedAt = Date.now();
        return this.#head;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
