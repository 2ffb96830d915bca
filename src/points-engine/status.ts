// What `sluice points engine status` prints: the engine's position, its lag behind the confirmed head, the last
// snapshot, the recent rate and the lease, read from the database (and the head from the chain). The same text
// whether the command reads the database itself or the server running on an embedded database reads it for it.
import type { Database } from "../db/client.ts";
import type { PointsEngineConfig } from "../deployment/schema.ts";
import { readLeaseHolder } from "./lease.ts";
import { readPosition } from "./store/position.ts";
import { lastSnapshot } from "./store/snapshots.ts";

export interface EngineStatusTarget {
  config: PointsEngineConfig;
  /** The engine's confirmations (its section's, else the deployment's). */
  confirmations: number;
  /** The chain's head now. */
  head(): Promise<bigint>;
}

export async function engineStatusText(database: Database, target: EngineStatusTarget): Promise<string> {
  const { config, confirmations } = target;
  const [position, snapshot, lease] = await Promise.all([
    readPosition(database),
    lastSnapshot(database),
    readLeaseHolder(database),
  ]);
  const head = await target.head().catch((error: unknown) => error as Error);
  const lines = [
    `points type: ${config.pointsType} (${config.decimals} decimals), start block ${config.startBlock}`,
  ];
  lines.push(
    position
      ? `position: block ${position.blockNumber} (${position.blockHash}), written ${position.updatedAt.toISOString()}`
      : "position: nothing computed yet",
  );
  if (head instanceof Error)
    lines.push(`head: unknown (the RPC did not answer: ${head.message.split("\n")[0]})`);
  else {
    const confirmed = head - BigInt(confirmations);
    const done = position?.blockNumber ?? config.startBlock - 1n;
    const lag = confirmed > done ? confirmed - done : 0n;
    lines.push(
      `head: block ${head}, ${confirmations} confirmations: lag ${lag} blocks behind block ${confirmed}`,
    );
  }
  lines.push(
    snapshot
      ? `last snapshot: block ${snapshot.blockNumber}, total ${snapshot.total}, published ${snapshot.publishedAt.toISOString()}`
      : "last snapshot: none yet",
  );
  if (position) lines.push(`emitted: ${position.emitted}`);
  lines.push(`rate: ${position ? position.blocksPerSecond.toFixed(1) : "0.0"} blocks/s (recent steps)`);
  lines.push(
    lease
      ? `lease: epoch ${lease.epoch}, last acquired by ${lease.holder} at ${lease.acquiredAt.toISOString()}`
      : "lease: never acquired",
  );
  return `${lines.join("\n")}\n`;
}
