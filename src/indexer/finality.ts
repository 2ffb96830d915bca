// When what a block decided is final: the chain's `finalized` block where it serves that tag (a real network), else
// the head less the deployment's finality depth (at least its confirmation depth). Orders whose end status was decided
// at or below it are marked final through the orders module (OrderSettlement.finalize), in a transaction under the
// indexer lease like every indexer write, and published to OrderEvents once committed.
import { BlockNotFoundError } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { OrderEvents } from "../orders/order-events.ts";
import type { OrderSettlement } from "../orders/settlement.ts";
import type { IndexerLease } from "./lease.ts";

export interface FinalityOptions {
  database: Database;
  client: ChainPublicClient;
  settlement: OrderSettlement;
  orderEvents: OrderEvents;
  clock: Clock;
  logger: Logger;
  finalityDepth: number;
  /** Ask the chain for its `finalized` block first (real networks); a local chain has none worth asking for. */
  useFinalizedTag: boolean;
}

export class Finality {
  /** Cleared when the chain does not serve the tag: then the depth alone decides. */
  #tagServed: boolean;

  constructor(private readonly options: FinalityOptions) {
    this.#tagServed = options.useFinalizedTag;
  }

  /** The newest final block number; undefined while the chain is shorter than the finality depth. */
  async finalBlock(): Promise<bigint | undefined> {
    const { client, finalityDepth } = this.options;
    if (this.#tagServed) {
      try {
        return (await client.getBlock({ blockTag: "finalized" })).number;
      } catch (error) {
        // Any other failure (the RPC out of reach) is the step's to report; an unserved tag is a fact of the chain.
        if (!(error instanceof BlockNotFoundError) && !isUnsupportedTag(error)) throw error;
        this.#tagServed = false;
        this.options.logger.info(
          { finalityDepth },
          "the chain serves no finalized block: finality is the finality depth",
        );
      }
    }
    const final = (await client.getBlockNumber({ cacheTime: 0 })) - BigInt(finalityDepth);
    return final >= 0n ? final : undefined;
  }

  /** Marks final what the final block settles; returns how many orders became final. */
  async finalize(lease: IndexerLease): Promise<number> {
    const { database, settlement, orderEvents, clock } = this.options;
    if (!(await settlement.anyUnfinalized())) return 0;
    const finalBlock = await this.finalBlock();
    if (finalBlock === undefined) return 0;
    const events = await database.db.transaction(async (tx) => {
      await lease.check(tx);
      return settlement.finalize(tx, finalBlock, clock.now());
    });
    orderEvents.publish(events);
    return events.length;
  }
}

function isUnsupportedTag(error: unknown): boolean {
  return /finalized|unknown block|invalid block tag|not supported/i.test(String((error as Error)?.message));
}
