// Following heads (issue 25.1): over a WebSocket subscription to new heads when one is configured, by polling
// eth_blockNumber otherwise. The subscription killed mid-run (a TCP proxy the test controls) falls back to polling
// with one warning, loses no head, and is resubscribed; a burst of blocks reaches the listener as its newest head.
// A subscription that goes silent without closing (a proxy or provider that stops pushing) is caught by the
// follower's own check of the head, not trusted for good.
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainPublicClient } from "../../src/chain/client.ts";
import { HeadFollower, type HeadFollowerOptions } from "../../src/chain/heads.ts";
import { useTestChain } from "../support/anvil.ts";
import { eventually } from "../support/gates.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

const chain = useTestChain({ deploy: false });

describe("HeadFollower", () => {
  let proxy: TcpProxy;
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });

  beforeAll(async () => {
    const rpc = new URL(chain.rpcUrl);
    proxy = await startTcpProxy({ host: rpc.hostname, port: Number(rpc.port) });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** An HTTP client that counts its eth_blockNumber requests (the polls). */
  function countingClient() {
    const counts = { blockNumber: 0 };
    const client = createChainPublicClient({
      chainId: chain.chainId,
      rpcUrls: chain.rpcUrl,
      http: {
        onFetchRequest: async (request) => {
          const body = JSON.parse(await request.clone().text()) as { method: string } | { method: string }[];
          for (const call of [body].flat()) if (call.method === "eth_blockNumber") counts.blockNumber++;
        },
      },
    });
    return { client, counts };
  }

  /** A started follower subscribed through the proxy, and the heads it has handed over. */
  function followThroughProxy(
    client: HeadFollowerOptions["client"],
    options: { silenceCheckMs?: number } = {},
  ) {
    const follower = new HeadFollower({
      client,
      webSocketUrl: proxy.proxiedUrl(chain.rpcUrl).replace(/^http/, "ws"),
      pollMs: 50,
      resubscribeMs: 200,
      ...options,
      logger,
    });
    const seen: bigint[] = [];
    follower.onHead((head) => seen.push(head));
    follower.start();
    return { follower, seen };
  }

  it("polls eth_blockNumber without a WebSocket, and hands a burst of blocks over as its newest head", async () => {
    const { client } = countingClient();
    const follower = new HeadFollower({ client, pollMs: 50, logger });
    const seen: bigint[] = [];
    follower.onHead((head) => seen.push(head));
    follower.start();
    try {
      const start = await chain.publicClient.getBlockNumber();
      await eventually(() => seen.at(-1) === start, "the head is known at start");
      await chain.mine(1);
      await eventually(() => seen.at(-1) === start + 1n, "a new head is seen");
      await chain.mine(20);
      await eventually(() => seen.at(-1) === start + 21n, "the burst's newest head is seen");
      // Heads only go forward here, each once.
      expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
      expect(new Set(seen).size).toBe(seen.length);
      expect(follower.mode).toBe("polling");
      expect(follower.isCurrent(start + 21n)).toBe(true);
    } finally {
      await follower.stop();
    }
  });

  it("follows new heads over WebSocket, falls back to polling when the subscription is cut, and resubscribes", async () => {
    lines.length = 0;
    const { client, counts } = countingClient();
    const { follower, seen } = followThroughProxy(client);
    try {
      await eventually(() => follower.mode === "subscription", "subscribed");
      const start = await chain.publicClient.getBlockNumber();
      const polls = counts.blockNumber;
      for (let i = 1; i <= 3; i++) {
        await chain.mine(1);
        await eventually(() => seen.at(-1) === start + BigInt(i), `head ${i} pushed`);
      }
      // Pushed, not polled (one read when the subscription was confirmed, at most).
      expect(counts.blockNumber - polls).toBeLessThanOrEqual(1);
      // A pushed head comes with its block's fields: the indexer reads the block no more.
      const third = await chain.publicClient.getBlock({ blockNumber: start + 3n });
      expect(follower.pushedBlock(start + 3n)).toEqual({
        number: third.number,
        hash: third.hash,
        parentHash: third.parentHash,
        timestamp: third.timestamp,
      });

      // The subscription cut: polling takes over at once, with one warning, and no head is missed.
      proxy.refuse();
      await eventually(() => follower.mode === "polling", "polling after the cut");
      for (let i = 4; i <= 6; i++) {
        await chain.mine(1);
        await eventually(() => seen.at(-1) === start + BigInt(i), `head ${i} polled`);
      }
      // A polled head is a number only.
      expect(follower.pushedBlock(start + 6n)).toBeUndefined();
      // Resubscribing fails while the proxy refuses: still one warning.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(lines.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([
        "new-head subscription lost: polling eth_blockNumber until it is back",
      ]);

      proxy.restore();
      await eventually(() => follower.mode === "subscription", "resubscribed");
      await chain.mine(5);
      await eventually(() => seen.at(-1) === start + 11n, "heads pushed again");
      expect(lines.map((line) => line.msg)).toContain(
        "new-head subscription restored: following heads over WebSocket again",
      );
      expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
    } finally {
      await follower.stop();
    }
  });

  it("notices a subscription gone silent while its socket stays open, catches up, polls and resubscribes", async () => {
    lines.length = 0;
    const { follower, seen } = followThroughProxy(countingClient().client, { silenceCheckMs: 150 });
    try {
      await eventually(() => follower.mode === "subscription", "subscribed");
      const start = await chain.publicClient.getBlockNumber();
      // Quiet chain, healthy subscription: the checks find nothing newer and change nothing.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(follower.mode).toBe("subscription");
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);

      // The socket stays open and carries nothing (the keep-alive pings included): the chain moves on unseen
      // by the subscription, and the check sees it.
      proxy.freeze();
      await chain.mine(1);
      await eventually(() => seen.at(-1) === start + 1n, "the head behind a silent subscription is seen");
      await eventually(() => follower.mode === "polling", "polling once the subscription is found silent");
      expect(lines.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([
        "new-head subscription lost: polling eth_blockNumber until it is back",
      ]);
      await chain.mine(2);
      await eventually(() => seen.at(-1) === start + 3n, "heads polled");

      proxy.restore({ leaveFrozen: true });
      await eventually(() => follower.mode === "subscription", "resubscribed on a new connection");
      await chain.mine(1);
      await eventually(() => seen.at(-1) === start + 4n, "heads pushed again");
      expect(follower.pushedBlock(start + 4n)?.number).toBe(start + 4n);
      expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      await follower.stop();
    }
  });
});
