// Following the chain's head: every worker that waits for blocks (the block tracker, the indexer, the discount
// expiry) wakes as soon as a new head exists, not at the next tick of its own clock. Heads are pushed over WebSocket
// (`eth_subscribe` newHeads) when a WebSocket URL is configured (RPC_WS_URL; the devnet sets its anvil's), and polled
// with `eth_blockNumber` every BLOCK_POLL_MS otherwise. A lost subscription falls back to polling at once and is
// resubscribed, with one warning per loss. A subscription can also go silent with its socket open (a provider that
// dropped it server-side, a middlebox that forgot the connection; viem's keep-alive pings expect no answer): the
// follower reads the head itself every few seconds while subscribed, hands a newer one over at once, and when the
// subscription has still not pushed it by the next check, treats it as lost. Listeners are given the newest head
// number; what lies between it and the head they saw before (a head missed while switching, a burst of blocks) is
// theirs to catch up, in order — the indexer reads every block up to the head it is given.
import { type Hex, hexToBigInt } from "viem";
import { getWebSocketRpcClient } from "viem/utils";
import type { Logger } from "../logger.ts";
import type { ChainPublicClient } from "./client.ts";

export type HeadListener = (blockNumber: bigint) => void;

/** A head's own fields, as a newHeads subscription pushes them. */
export interface HeadBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
}

export interface HeadSource {
  /** Calls `listener` with every new head's number (the newest only, when several arrived at once). */
  onHead(listener: HeadListener): () => void;
  /** `blockNumber` is the chain's head as of now: the last head seen, and nothing newer could have been missed. */
  isCurrent(blockNumber: bigint): boolean;
  /** Head `blockNumber` itself when it was pushed with its fields (a subscription); undefined when only its number is known. */
  pushedBlock(blockNumber: bigint): HeadBlock | undefined;
}

/** How often BLOCK_POLL_MS polls `eth_blockNumber` without a WebSocket subscription. */
export const DEFAULT_BLOCK_POLL_MS = 250;
/** How long a lost subscription waits before it is tried again (polling meanwhile). */
const RESUBSCRIBE_MS = 1000;
/** A ping this often keeps the socket open through idle-closing proxies. */
const KEEP_ALIVE_MS = 5000;
/** While subscribed, the head is read this often to catch a subscription that went silent. */
const SILENCE_CHECK_MS = 5000;
let followers = 0;

export interface HeadFollowerOptions {
  /** The HTTP client polled while there is no subscription. */
  client: Pick<ChainPublicClient, "getBlockNumber">;
  /** `ws://` or `wss://`: subscribe to new heads there (RPC_WS_URL). */
  webSocketUrl?: string;
  /** BLOCK_POLL_MS. */
  pollMs: number;
  resubscribeMs?: number;
  /** While subscribed, how often the head is read to catch a silent subscription. */
  silenceCheckMs?: number;
  logger: Logger;
}

/** The chain moved past the subscription's last head, and one check later it had still not pushed the newer one. */
export class HeadSubscriptionSilentError extends Error {
  override name = "HeadSubscriptionSilentError";
  constructor(
    readonly chainHead: bigint,
    readonly subscriptionHead: bigint,
  ) {
    super(`the chain is at block ${chainHead}; the subscription's last head is ${subscriptionHead}`);
  }
}

type SocketClient = Awaited<ReturnType<typeof getWebSocketRpcClient>>;

interface SubscriptionMessage {
  result?: unknown;
  error?: { message?: string };
  params?: { result?: { number?: Hex; hash?: Hex; parentHash?: Hex; timestamp?: Hex } };
}

export class HeadFollower implements HeadSource {
  readonly #id = ++followers;
  readonly #listeners = new Set<HeadListener>();
  #latest: bigint | undefined;
  /** The last head a subscription pushed, with its fields. */
  #pushed: HeadBlock | undefined;
  #stopped = true;
  /** Each subscription attempt's number: callbacks of an older one are ignored. */
  #attempt = 0;
  #socket: SocketClient | undefined;
  #subscribed = false;
  #polling = false;
  #pollTimer: NodeJS.Timeout | undefined;
  #resubscribeTimer: NodeJS.Timeout | undefined;
  /** When the last poll answered (a polled head is current for two polls after it). */
  #polledAt = 0;
  /** When the subscription was lost, while it is. */
  #lostAt: number | undefined;
  #silenceTimer: NodeJS.Timeout | undefined;
  /** The newest head the subscription accounts for: the head when it was confirmed, then each one it pushed. */
  #subscriptionHead: bigint | undefined;
  /** The subscription's head when a check last found the chain ahead of it; undefined when it was not behind. */
  #behindAt: bigint | undefined;

  constructor(private readonly options: HeadFollowerOptions) {}

  /** How heads arrive now. */
  get mode(): "subscription" | "polling" {
    return this.#subscribed ? "subscription" : "polling";
  }

  get latest(): bigint | undefined {
    return this.#latest;
  }

  onHead(listener: HeadListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  pushedBlock(blockNumber: bigint): HeadBlock | undefined {
    return this.#pushed?.number === blockNumber ? this.#pushed : undefined;
  }

  isCurrent(blockNumber: bigint): boolean {
    if (this.#stopped || blockNumber !== this.#latest) return false;
    return this.#subscribed || Date.now() - this.#polledAt < 2 * this.options.pollMs;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    // The head is known at once, and followed by polling until (unless) a subscription delivers it.
    this.#startPolling();
    if (this.options.webSocketUrl) void this.#subscribe();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#attempt++;
    clearTimeout(this.#pollTimer);
    clearTimeout(this.#resubscribeTimer);
    clearTimeout(this.#silenceTimer);
    this.#polling = false;
    this.#subscribed = false;
    this.#closeSocket();
  }

  #seen(blockNumber: bigint): void {
    if (this.#stopped || blockNumber === this.#latest) return;
    this.#latest = blockNumber;
    for (const listener of this.#listeners) {
      try {
        listener(blockNumber);
      } catch (error) {
        this.options.logger.error({ err: error }, "a new-head listener failed");
      }
    }
  }

  #startPolling(): void {
    if (this.#polling || this.#stopped) return;
    this.#polling = true;
    void this.#poll();
  }

  async #poll(): Promise<void> {
    this.#pollTimer = undefined;
    if (this.#stopped || this.#subscribed) {
      this.#polling = false;
      return;
    }
    try {
      const blockNumber = await this.options.client.getBlockNumber({ cacheTime: 0 });
      this.#polledAt = Date.now();
      this.#seen(blockNumber);
    } catch {
      // The chain out of reach: its transport's outage log says so once; the next poll tries again.
    }
    if (this.#stopped || this.#subscribed) {
      this.#polling = false;
      return;
    }
    this.#pollTimer = setTimeout(() => void this.#poll(), this.options.pollMs);
  }

  async #subscribe(): Promise<void> {
    const attempt = ++this.#attempt;
    const url = this.options.webSocketUrl!;
    try {
      // No reconnect of viem's own: a lost socket is this class's to replace (after polling has taken over). viem
      // shares one socket per URL and options: `follower` keeps this one to this follower, so closing it closes no
      // other's.
      const keepAlive = { interval: KEEP_ALIVE_MS, follower: this.#id } as { interval: number };
      const socket = await getWebSocketRpcClient(url, { reconnect: false, keepAlive });
      if (attempt !== this.#attempt) {
        socket.close();
        return;
      }
      this.#socket = socket;
      socket.request({
        body: { method: "eth_subscribe", params: ["newHeads"] },
        onResponse: (message: SubscriptionMessage) => {
          if (attempt !== this.#attempt) return;
          if (message.error) this.#lost(attempt, new Error(message.error.message ?? "eth_subscribe refused"));
          else if (typeof message.result === "string") this.#confirmed(attempt);
          else if (message.params?.result?.number) this.#pushedHead(message.params.result);
        },
        onError: (error?: unknown) => this.#lost(attempt, error),
      });
    } catch (error) {
      this.#lost(attempt, error);
    }
  }

  /** A pushed head: its fields are kept (the indexer need not read the block again), then it is seen. */
  #pushedHead(head: NonNullable<NonNullable<SubscriptionMessage["params"]>["result"]>): void {
    const number = hexToBigInt(head.number!);
    this.#accountFor(number);
    this.#pushed =
      head.hash && head.parentHash && head.timestamp
        ? { number, hash: head.hash, parentHash: head.parentHash, timestamp: hexToBigInt(head.timestamp) }
        : undefined;
    this.#seen(number);
  }

  #confirmed(attempt: number): void {
    this.#subscribed = true;
    this.#subscriptionHead = this.#latest;
    this.#behindAt = undefined;
    this.#scheduleSilenceCheck(attempt);
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    this.#polling = false;
    if (this.#lostAt !== undefined) {
      this.options.logger.info(
        { webSocketUrl: this.options.webSocketUrl, lostMs: Date.now() - this.#lostAt },
        "new-head subscription restored: following heads over WebSocket again",
      );
      this.#lostAt = undefined;
    }
    // A head mined between the last poll and the subscription: read once, so none waits for the next block.
    this.options.client
      .getBlockNumber({ cacheTime: 0 })
      .then((blockNumber) => {
        if (attempt !== this.#attempt) return;
        this.#accountFor(blockNumber);
        this.#seen(blockNumber);
      })
      .catch(() => {});
  }

  /** `blockNumber` is known to the subscription: pushed by it, or the head when it was confirmed. */
  #accountFor(blockNumber: bigint): void {
    if (this.#subscriptionHead === undefined || blockNumber > this.#subscriptionHead)
      this.#subscriptionHead = blockNumber;
  }

  #scheduleSilenceCheck(attempt: number): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = setTimeout(
      () => void this.#checkSilence(attempt),
      this.options.silenceCheckMs ?? SILENCE_CHECK_MS,
    );
  }

  /**
   * Reads the head while subscribed. A head the subscription has not pushed is handed over at once (nothing waits
   * for a silent subscription beyond one check); if the subscription has pushed nothing newer by the next check,
   * it is lost. A head pushed a moment after the read is a race, not a silence: the next check finds it pushed.
   */
  async #checkSilence(attempt: number): Promise<void> {
    let chainHead: bigint;
    try {
      chainHead = await this.options.client.getBlockNumber({ cacheTime: 0 });
    } catch {
      // The chain out of reach over HTTP says nothing about the subscription.
      if (attempt === this.#attempt && this.#subscribed) this.#scheduleSilenceCheck(attempt);
      return;
    }
    if (attempt !== this.#attempt || !this.#subscribed) return;
    const subscriptionHead = this.#subscriptionHead ?? -1n;
    if (chainHead <= subscriptionHead) this.#behindAt = undefined;
    else if (this.#behindAt === subscriptionHead) {
      this.#lost(attempt, new HeadSubscriptionSilentError(chainHead, subscriptionHead));
      this.#seen(chainHead);
      return;
    } else {
      this.#behindAt = subscriptionHead;
      this.#seen(chainHead);
    }
    this.#scheduleSilenceCheck(attempt);
  }

  #lost(attempt: number, error: unknown): void {
    if (attempt !== this.#attempt || this.#stopped) return;
    this.#attempt++;
    this.#subscribed = false;
    clearTimeout(this.#silenceTimer);
    this.#closeSocket();
    if (this.#lostAt === undefined) {
      this.#lostAt = Date.now();
      this.options.logger.warn(
        { err: error, webSocketUrl: this.options.webSocketUrl, pollMs: this.options.pollMs },
        "new-head subscription lost: polling eth_blockNumber until it is back",
      );
    }
    this.#startPolling();
    clearTimeout(this.#resubscribeTimer);
    this.#resubscribeTimer = setTimeout(
      () => void this.#subscribe(),
      this.options.resubscribeMs ?? RESUBSCRIBE_MS,
    );
  }

  #closeSocket(): void {
    const socket = this.#socket;
    this.#socket = undefined;
    try {
      socket?.close();
    } catch {
      // Already closed.
    }
  }
}
