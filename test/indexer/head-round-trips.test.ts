// What the indexer asks the chain between a head and the fill it reports (issue 25: head → `filled` is a chain of
// round trips, one after another). The head announced is the head: no eth_blockNumber before the fill is published.
// Each new block is read once, and the block applied before it is not read again: the new block's parent hash is
// what checks it (a reorg is still caught: reorg.test.ts). A head pushed with its fields (a newHeads subscription) is
// not read at all.
import { afterEach, describe, expect, it } from "vitest";
import { createChainPublicClient } from "../../src/chain/client.ts";
import type { HeadBlock, HeadListener, HeadSource } from "../../src/chain/heads.ts";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { approveReactor, fillOrder, placeOrder, useQuotingSwapApp } from "../support/orders.ts";

const chain = useTestChain();

/** Heads the test announces, by number or with their fields; the last one announced is current. */
class AnnouncedHeads implements HeadSource {
  readonly #listeners = new Set<HeadListener>();
  #latest: bigint | undefined;
  #pushed: HeadBlock | undefined;

  pushedBlock(blockNumber: bigint): HeadBlock | undefined {
    return this.#pushed?.number === blockNumber ? this.#pushed : undefined;
  }

  onHead(listener: HeadListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  isCurrent(blockNumber: bigint): boolean {
    return blockNumber === this.#latest;
  }

  announce(blockNumber: bigint, pushed?: HeadBlock): void {
    this.#latest = blockNumber;
    this.#pushed = pushed;
    for (const listener of this.#listeners) listener(blockNumber);
  }
}

describe.each(databaseKinds)("the indexer after an announced head (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);
  let indexer: ReactorIndexer | undefined;
  afterEach(async () => {
    await indexer?.stop();
  });

  it.each([
    ["by number", false],
    ["with its fields", true],
  ])(
    "reads each new block once, and neither the head nor the block before it again, up to the fill (head %s)",
    async (_, pushed) => {
      const { database, app } = swap;
      clock.set(Number(await chain.now()) * 1000);
      await approveReactor(chain, chain.accounts.swapper);
      const calls: Array<{ method: string; params: unknown[] }> = [];
      const client = createChainPublicClient({
        chainId: chain.chainId,
        rpcUrls: chain.rpcUrl,
        cacheTimeMs: 0,
        http: {
          onFetchRequest: async (request) => {
            const body = JSON.parse(await request.clone().text()) as
              | { method: string; params: unknown[] }
              | Array<{ method: string; params: unknown[] }>;
            calls.push(...[body].flat());
          },
        },
      });
      const heads = new AnnouncedHeads();
      const indexedTo = async () => {
        const [row] = await database.query<{ number: string | null }>(
          "select max(number)::text as number from indexed_blocks",
        );
        return row?.number == null ? undefined : BigInt(row.number);
      };
      indexer = new ReactorIndexer({
        orderObserver: new OrderStats(),
        database,
        client,
        reactor: chain.core.reactor,
        confirmationDepth: 0,
        startBlock: await chain.publicClient.getBlockNumber(),
        orderEvents: swap.orderEvents,
        clock,
        logger: silentLogger(),
        heads,
        // Only a head makes it step.
        pollIntervalMs: 600_000,
      });
      indexer.start();
      const first = await chain.publicClient.getBlockNumber();
      heads.announce(first);
      await eventually(async () => (await indexedTo()) === first, "the first head is indexed");

      const row = await placeOrder(chain, app, database);
      const fillTx = await fillOrder(chain, row);
      const fillBlock = (await chain.publicClient.getTransactionReceipt({ hash: fillTx })).blockNumber;
      const before = (await indexedTo())!;
      calls.length = 0;
      // What the indexer had asked when it published the fill (after its block's commit, before finality's reads).
      let atFill: Array<{ method: string; params: unknown[] }> | undefined;
      const stop = swap.orderEvents.subscribe((event) => {
        if (event.kind === "status" && event.orderId === row.orderId && event.to === "filled")
          atFill = [...calls];
      });
      const block = await chain.publicClient.getBlock({ blockNumber: fillBlock });
      try {
        heads.announce(
          fillBlock,
          pushed
            ? {
                number: block.number,
                hash: block.hash,
                parentHash: block.parentHash,
                timestamp: block.timestamp,
              }
            : undefined,
        );
        await eventually(() => atFill !== undefined, "the fill is published");
      } finally {
        stop();
      }

      expect(atFill!.filter((call) => call.method === "eth_blockNumber")).toEqual([]);
      const blocksRead = atFill!
        .filter((call) => call.method === "eth_getBlockByNumber")
        .map((call) => BigInt(call.params[0] as string));
      const expected: bigint[] = [];
      // The pushed head is not read: its fields came with it.
      for (let number = before + 1n; number <= (pushed ? fillBlock - 1n : fillBlock); number++)
        expected.push(number);
      expect(blocksRead).toEqual(expected);
    },
    60_000,
  );
});
