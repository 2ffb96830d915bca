// Keeps the discount store to discounts that can still be used: once per new block it drops every discount whose
// deadline has passed in chain time or whose nonce is used on-chain (filled or invalidated). Discounts that are
// only not live for now (signer unauthorized, below a raised minDiscount, adapter paused) stay and are simply not
// offered. Every replica may run it: deleting by discount id is idempotent.

import type { Hex } from "viem";
import type { BlockSource } from "../chain/blocks.ts";
import type { HeadSource } from "../chain/heads.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import type { StoredDiscount } from "./discount.ts";
import type { LiveDiscounts } from "./live.ts";
import { PERMANENT_FAULTS } from "./liveness.ts";
import type { DiscountRepository } from "./repository.ts";

export interface DiscountExpiryWorkerOptions {
  repository: Pick<DiscountRepository, "listAll" | "deleteByIds">;
  live: Pick<LiveDiscounts, "assess">;
  inventory: InventoryReader;
  blocks: BlockSource;
  deployment: Pick<Deployment, "inputTokens">;
  logger: Logger;
  pollIntervalMs: number;
  /** New heads: with them it sweeps at each new head instead of every poll interval. */
  heads?: HeadSource;
}

export class DiscountExpiryWorker {
  #timer: NodeJS.Timeout | undefined;
  #unfollow: (() => void) | undefined;
  #running: Promise<unknown> | undefined;
  #lastSweptBlock: Hex | undefined;
  #again = false;

  constructor(private readonly options: DiscountExpiryWorkerOptions) {}

  start(): void {
    if (this.#timer || this.#unfollow) return;
    const run = () => {
      // A head that arrives during a sweep is swept right after it (the sweep reads the head it starts at).
      if (this.#running) {
        this.#again = true;
        return;
      }
      this.#running = this.#tick()
        .catch((error: unknown) =>
          this.options.logger[failureLevel(error, "warn")]({ err: error }, "discount sweep failed"),
        )
        .finally(() => {
          this.#running = undefined;
          if (this.#again && this.#unfollow) {
            this.#again = false;
            run();
          }
        });
    };
    if (this.options.heads) {
      this.#unfollow = this.options.heads.onHead(run);
      return;
    }
    this.#timer = setInterval(run, this.options.pollIntervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unfollow?.();
    this.#unfollow = undefined;
    await this.#running;
  }

  async #tick(): Promise<void> {
    const head = await this.options.blocks.latest();
    if (head.hash === this.#lastSweptBlock) return;
    await this.sweep();
    this.#lastSweptBlock = head.hash;
  }

  /** Drops the discounts that expired or whose nonce is used, judged at the latest block; returns their ids. */
  async sweep(): Promise<Hex[]> {
    const stored = await this.options.repository.listAll();
    if (stored.length === 0) return [];
    const head = await this.options.blocks.latest();
    const dropped: Hex[] = [];
    const byToken = new Map<string, StoredDiscount[]>();
    for (const discount of stored) {
      if (BigInt(discount.discount.deadline) <= head.timestamp) {
        dropped.push(discount.discountId);
        continue;
      }
      const group = byToken.get(discount.discount.tokenToRedeem) ?? [];
      group.push(discount);
      byToken.set(discount.discount.tokenToRedeem, group);
    }
    for (const [address, group] of byToken) {
      const token = this.options.deployment.inputTokens.find((configured) => configured.address === address);
      if (!token) continue;
      const snapshot = await this.options.inventory.snapshot(token);
      for (const { discount, faults } of await this.options.live.assess(snapshot, group)) {
        if (faults?.some((fault) => PERMANENT_FAULTS.has(fault))) dropped.push(discount.discountId);
      }
    }
    const deleted = await this.options.repository.deleteByIds(dropped);
    if (deleted > 0)
      this.options.logger.info({ discountIds: dropped, deleted }, "dropped expired or used discounts");
    return dropped;
  }
}
