// One sequential transaction sender for the solver's EOA: its own nonce counter, one transaction at a time, each
// awaited to its receipt before the next is signed. Every transaction carries a key (the order hash) and a key is
// broadcast again only after the node dropped its earlier transaction (see chain losses below).
//
// Restart recovery: `waitUntilIdle` holds the start until the EOA's pending nonce equals its latest nonce, i.e.
// until whatever a previous run left in flight has been mined. Only then does the filler plan, so an order an
// in-flight transaction filled is seen as a used nonce instead of being sent again. This relies on the EOA being
// used by this solver alone.
//
// Chain losses: a reorg can remove a mined transaction, and a devnet restarted without its last state can forget
// mined and pooled ones alike; the chain's nonce is then below the counter. The sender checks this while it waits for
// a receipt and whenever the filler calls `resync` (each poll): a transaction at a nonce the chain has not reached
// that the node no longer knows (neither mined nor pooled) is dropped, and its key forgotten so the filler may plan
// that order again; the counter continues after the last transaction the node still holds, or at the chain's nonce.
// Only transactions the node has forgotten are forgotten, so an order is never in flight twice. A pooled transaction
// above a dropped one is waited for: the node mines it once the gap is filled, or drops it (anvil does at its next
// block), which is then noticed the same way.
import { setTimeout as sleep } from "node:timers/promises";
import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  type Hex,
  keccak256,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import type { ChainPublicClient, ChainWalletClient } from "../chain/client.ts";
import { decodeRevert } from "../chain/errors.ts";
import type { Logger } from "../logger.ts";

export interface OutgoingTransaction {
  /** What the transaction is for (the order hash): never in flight twice. */
  key: string;
  to: Address;
  data: Hex;
}

export type SendOutcome =
  | { kind: "mined"; hash: Hex; blockNumber: bigint; gasUsed: bigint }
  /** Mined and reverted; `error` is the named revert when replaying the call at that block shows one. */
  | { kind: "reverted"; hash: Hex; blockNumber: bigint; error: string | undefined }
  /** The transaction would revert (gas estimation failed with a revert): nothing was broadcast. */
  | { kind: "rejected"; error: string | undefined; detail: string }
  /** Broadcast, then dropped before it was mined (a reorg or a node restart): the key may be sent again. */
  | { kind: "dropped"; hash: Hex }
  /** This key was already broadcast (and not dropped since). */
  | { kind: "duplicate" };

export class SenderNotReadyError extends Error {
  override name = "SenderNotReadyError";
  constructor() {
    super("the sender has not synchronised its nonce yet (waitUntilIdle)");
  }
}

/** The node refused the transaction and holds nothing under its nonce: it may be sent again later. */
export class BroadcastFailedError extends Error {
  override name = "BroadcastFailedError";
  constructor(
    readonly hash: Hex,
    cause: unknown,
  ) {
    super(`broadcast of ${hash} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

export interface SequentialSenderOptions {
  wallet: ChainWalletClient;
  client: ChainPublicClient;
  logger: Logger;
  /** How often the pending nonce and receipts are polled. */
  pollIntervalMs: number;
  /** Gas limit = estimate × (100 + headroom) / 100 (default 20). */
  gasHeadroomPercent?: number;
}

interface Broadcast {
  hash: Hex;
  key: string;
}

export class SequentialSender {
  readonly #wallet: ChainWalletClient;
  readonly #client: ChainPublicClient;
  readonly #logger: Logger;
  readonly #pollIntervalMs: number;
  readonly #headroom: bigint;
  /** The last transaction broadcast at each nonce. */
  readonly #broadcasts = new Map<number, Broadcast>();
  /** The nonce of each key's transaction. */
  readonly #sent = new Map<string, number>();
  #nonce: number | undefined;
  #resyncs = 0;
  /** The tail of the queue: each send starts when the previous one has settled. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SequentialSenderOptions) {
    this.#wallet = options.wallet;
    this.#client = options.client;
    this.#logger = options.logger;
    this.#pollIntervalMs = options.pollIntervalMs;
    this.#headroom = BigInt(options.gasHeadroomPercent ?? 20);
  }

  get address(): Address {
    return this.#wallet.account.address;
  }

  hasSent(key: string): boolean {
    return this.#sent.has(key);
  }

  /** How many times the counter was resynchronised after the chain lost transactions (see `resync`). */
  get resyncs(): number {
    return this.#resyncs;
  }

  /**
   * Checks, behind the queued transactions, that the chain still holds what was sent: the keys of dropped
   * transactions are forgotten and the counter follows the chain (`resyncs` counts each time it had to).
   */
  resync(signal: AbortSignal): Promise<void> {
    const run = this.#queue.then(() => {
      signal.throwIfAborted();
      return this.#reconcile();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Waits until no transaction of the EOA is in flight, then takes the chain's nonce as its own counter. */
  async waitUntilIdle(signal: AbortSignal): Promise<void> {
    let logged = false;
    for (;;) {
      const [latest, pending] = await Promise.all([
        this.#client.getTransactionCount({ address: this.address, blockTag: "latest" }),
        this.#client.getTransactionCount({ address: this.address, blockTag: "pending" }),
      ]);
      if (pending <= latest) {
        this.#nonce = latest;
        this.#logger.info({ account: this.address, nonce: latest }, "sender ready: no transaction in flight");
        return;
      }
      if (!logged) {
        this.#logger.info(
          { account: this.address, latest, pending, inFlight: pending - latest },
          "waiting for in-flight transactions before filling",
        );
        logged = true;
      }
      await sleep(this.#pollIntervalMs, undefined, { signal });
    }
  }

  /** Queues a transaction behind the ones before it; resolves once it is mined (or known not to be sent). */
  send(tx: OutgoingTransaction, signal: AbortSignal): Promise<SendOutcome> {
    const run = this.#queue.then(() => this.#sendNow(tx, signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #sendNow(tx: OutgoingTransaction, signal: AbortSignal): Promise<SendOutcome> {
    signal.throwIfAborted();
    if (this.#nonce === undefined) throw new SenderNotReadyError();
    if (this.#sent.has(tx.key)) return { kind: "duplicate" };

    let estimate: bigint;
    try {
      estimate = await this.#client.estimateGas({ account: this.address, to: tx.to, data: tx.data });
    } catch (error) {
      if (!isRevert(error)) throw error;
      const decoded = decodeRevert(error);
      return { kind: "rejected", error: decoded?.name, detail: shortMessage(error) };
    }

    const nonce = this.#nonce;
    const prepared = await this.#wallet.prepareTransactionRequest({
      account: this.#wallet.account,
      chain: this.#wallet.chain,
      to: tx.to,
      data: tx.data,
      nonce,
      gas: (estimate * (100n + this.#headroom)) / 100n,
    });
    const serializedTransaction = await this.#wallet.signTransaction(prepared);
    const hash = keccak256(serializedTransaction);

    this.#record(nonce, { hash, key: tx.key });
    try {
      await this.#wallet.sendRawTransaction({ serializedTransaction });
    } catch (error) {
      // The answer may have been lost after the node took the transaction: only a node that knows nothing of it
      // (and holds nothing else under its nonce) proves it was not sent.
      if (!(await this.#isKnown(hash).catch(() => false))) {
        this.#forget(nonce);
        this.#nonce = await this.#client.getTransactionCount({ address: this.address, blockTag: "pending" });
        throw new BroadcastFailedError(hash, error);
      }
    }
    this.#nonce = nonce + 1;
    this.#logger.info({ key: tx.key, hash, nonce, to: tx.to }, "transaction sent");

    const receipt = await this.#waitForReceipt(hash, nonce, signal);
    if (receipt === null) return { kind: "dropped", hash };
    if (receipt.status === "success") {
      return { kind: "mined", hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
    }
    return {
      kind: "reverted",
      hash,
      blockNumber: receipt.blockNumber,
      error: await this.#replayRevert(tx, receipt.blockNumber),
    };
  }

  /**
   * Follows the chain when it holds fewer of this account's transactions than were sent (see the header): forgets
   * the dropped ones and moves the counter after the last one still pooled, or to the chain's nonce.
   */
  async #reconcile(): Promise<void> {
    const own = this.#nonce;
    if (own === undefined) throw new SenderNotReadyError();
    const chainNonce = await this.#client.getTransactionCount({ address: this.address, blockTag: "latest" });
    if (chainNonce >= own) return;

    // Every lookup first: one that fails leaves the state as it was.
    let next = chainNonce;
    const dropped: Array<Broadcast & { nonce: number }> = [];
    for (let nonce = chainNonce; nonce < own; nonce++) {
      const broadcast = this.#broadcasts.get(nonce);
      if (!broadcast) continue;
      if (await this.#isKnown(broadcast.hash)) next = nonce + 1;
      else dropped.push({ ...broadcast, nonce });
    }
    if (dropped.length === 0 && next === own) return;

    for (const { nonce } of dropped) this.#forget(nonce);
    this.#nonce = next;
    this.#resyncs += 1;
    this.#logger.warn(
      { account: this.address, chainNonce, previousNonce: own, nonce: next, dropped },
      "the chain lost transactions of this account; nonce resynchronised",
    );
  }

  /** A new transaction at `nonce` replaces whatever was recorded there. */
  #record(nonce: number, broadcast: Broadcast): void {
    this.#forget(nonce);
    this.#broadcasts.set(nonce, broadcast);
    this.#sent.set(broadcast.key, nonce);
  }

  #forget(nonce: number): void {
    const key = this.#broadcasts.get(nonce)?.key;
    this.#broadcasts.delete(nonce);
    if (key !== undefined && this.#sent.get(key) === nonce) this.#sent.delete(key);
  }

  /** Whether the node holds the transaction (mined or pooled); a failed lookup throws. */
  async #isKnown(hash: Hex): Promise<boolean> {
    try {
      await this.#client.getTransaction({ hash });
      return true;
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false;
      throw error;
    }
  }

  /** The receipt once mined; null when the transaction was dropped first (it is then forgotten). */
  async #waitForReceipt(hash: Hex, nonce: number, signal: AbortSignal): Promise<TransactionReceipt | null> {
    for (;;) {
      signal.throwIfAborted();
      try {
        const receipt = await this.#receipt(hash);
        if (receipt) return receipt;
        await this.#reconcile();
        if (this.#broadcasts.get(nonce)?.hash !== hash) return null;
      } catch (error) {
        this.#logger.warn({ hash, err: error }, "receipt poll failed; retrying");
      }
      await sleep(this.#pollIntervalMs, undefined, { signal });
    }
  }

  async #receipt(hash: Hex): Promise<TransactionReceipt | null> {
    try {
      return await this.#client.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  /** A mined revert carries no reason: replaying the call on the block's state usually shows it. */
  async #replayRevert(tx: OutgoingTransaction, blockNumber: bigint): Promise<string | undefined> {
    try {
      await this.#client.call({ account: this.address, to: tx.to, data: tx.data, blockNumber });
      return undefined;
    } catch (error) {
      return decodeRevert(error)?.name;
    }
  }
}

function isRevert(error: unknown): boolean {
  if (decodeRevert(error)) return true;
  return error instanceof BaseError && error.walk((e) => e instanceof ExecutionRevertedError) !== null;
}

function shortMessage(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
