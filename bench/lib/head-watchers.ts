// When each block was first seen on the chain, from outside the server under test: a watcher subscribed to new
// heads over WebSocket (`eth_subscribe` newHeads: the node pushes each block as it is mined, the earliest a client
// can know of it) and, as a cross-check, one polling `eth_blockNumber` on a short interval. Times are epoch ms on
// the bench's clock, the same clock its stream clients stamp events with.
import { setTimeout as sleep } from "node:timers/promises";
import { hexToBigInt } from "viem";
import { getWebSocketRpcClient } from "viem/utils";

export interface HeadWatcher {
  /** Epoch ms when the watcher first saw block `number` (or a later one, if it skipped it); undefined if never. */
  seenAt(number: bigint): number | undefined;
  /** Mean interval between the blocks it saw, in ms. */
  meanIntervalMs(): number;
  stop(): void;
}

/** Subscribes to newHeads at `webSocketUrl`; resolves once the node confirmed the subscription. */
export async function watchHeadsOverWebSocket(webSocketUrl: string): Promise<HeadWatcher> {
  const seen = new SeenBlocks();
  // A socket of its own (viem shares one per URL and options otherwise).
  const socket = await getWebSocketRpcClient(webSocketUrl, {
    reconnect: false,
    keepAlive: { interval: 5000, benchWatcher: true } as { interval: number },
  });
  let failure: unknown;
  await new Promise<void>((resolve, reject) => {
    socket.request({
      body: { method: "eth_subscribe", params: ["newHeads"] },
      onResponse: (message: { result?: unknown; error?: { message?: string }; params?: NewHead }) => {
        const number = message.params?.result?.number;
        if (number) seen.saw(hexToBigInt(number));
        else if (message.error) reject(new Error(message.error.message ?? "eth_subscribe refused"));
        else if (typeof message.result === "string") resolve();
      },
      onError: (error?: unknown) => {
        failure = error;
        reject(error);
      },
    });
  });
  return {
    seenAt: (number) => {
      if (failure) throw new Error(`the newHeads watcher lost its socket: ${String(failure)}`);
      return seen.at(number);
    },
    meanIntervalMs: () => seen.meanIntervalMs(),
    stop: () => socket.close(),
  };
}

interface NewHead {
  result?: { number?: `0x${string}` };
}

/** Polls `eth_blockNumber` at `rpcUrl` every `intervalMs`. */
export function pollHeads(rpcUrl: string, intervalMs: number): HeadWatcher {
  const seen = new SeenBlocks();
  let stopped = false;
  let id = 0;
  void (async () => {
    while (!stopped) {
      try {
        const response = await fetch(rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "eth_blockNumber", params: [] }),
        });
        const answer = (await response.json()) as { result?: `0x${string}` };
        if (answer.result) seen.saw(hexToBigInt(answer.result));
      } catch {
        // the chain is going away, or a slow moment: try again
      }
      await sleep(intervalMs);
    }
  })();
  return {
    seenAt: (number) => seen.at(number),
    meanIntervalMs: () => seen.meanIntervalMs(),
    stop() {
      stopped = true;
    },
  };
}

/** First-seen times by block number; a block seen only through a later one counts as seen then. */
class SeenBlocks {
  readonly #at = new Map<bigint, number>();
  #highest = -1n;

  saw(number: bigint): void {
    const now = Date.now();
    // Before the first head, only that head itself.
    const from = this.#highest < 0n ? number : this.#highest + 1n;
    for (let block = from; block <= number; block++) this.#at.set(block, now);
    if (number > this.#highest) this.#highest = number;
  }

  at(number: bigint): number | undefined {
    return this.#at.get(number);
  }

  meanIntervalMs(): number {
    const times = [...this.#at.values()].sort((a, b) => a - b);
    if (times.length < 2) return Number.NaN;
    return (times.at(-1)! - times[0]!) / (times.length - 1);
  }
}
