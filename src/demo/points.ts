// The demo points dataset `npm start` serves: two partner points types (18 decimals) and a couple of hundred
// snapshots at different cadences, so "current" and "nearest block" pick different blocks per type. Receivers join
// over time and accrue points snapshot after snapshot; one vault is much larger than the rest. Generated from a
// fixed seed: every run is identical. The own type ("sluice", 48 decimals) is not generated: on the devnet the points
// engine computes it from the stake on the devnet's chain (docs/points.md "On the devnet").
import type { Address } from "viem";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { type BatchPointsRow, SnapshotBatchWriter } from "../points/writer.ts";
import { mulberry32 } from "../shared/seeded-random.ts";

export const DEMO_POINTS_SEED = 0x9017;

interface DemoPointsType {
  name: string;
  decimals: number;
  firstBlock: number;
  blockInterval: number;
  snapshots: number;
  receivers: number;
}

const DEMO_TYPES: readonly DemoPointsType[] = [
  {
    name: "primev",
    decimals: 18,
    firstBlock: 21_003_600,
    blockInterval: 8_640,
    snapshots: 100,
    receivers: 90,
  },
  {
    name: "kalypso",
    decimals: 18,
    firstBlock: 21_001_000,
    blockInterval: 10_800,
    snapshots: 80,
    receivers: 70,
  },
];

const MAX_DEMO_VAULTS = 24;

interface DemoPosition {
  vault: Address;
  receiver: Address;
  receiverType: string;
  /** Snapshot index from which the position earns. */
  joinedAt: number;
  /** Points earned per snapshot, in the type's smallest unit. */
  rate: bigint;
}

/** Loads the demo points over `vaults` when no points snapshot exists yet; otherwise does nothing. */
export async function seedDemoPoints(
  database: Database,
  options: { vaults: readonly Address[]; logger: Logger },
): Promise<void> {
  const existing = await database.query("select 1 from points_snapshots limit 1");
  if (existing.length > 0) return;
  const vaults = [...options.vaults]
    .map((vault) => vault.toLowerCase() as Address)
    .sort()
    .slice(0, MAX_DEMO_VAULTS);
  if (vaults.length === 0) {
    options.logger.warn("no vaults to generate demo points for");
    return;
  }
  const random = mulberry32(DEMO_POINTS_SEED);
  const receivers = Array.from({ length: 240 }, () => randomAddress(random));
  let rows = 0;
  // One batch per points type: a constant number of statements instead of several per snapshot keeps the
  // devnet's start well inside its time budget.
  await database.db.transaction(async (tx) => {
    for (const type of DEMO_TYPES) {
      const positions = demoPositions(type, vaults, receivers, random);
      const blockNumbers = Array.from(
        { length: type.snapshots },
        (_, snapshot) => type.firstBlock + snapshot * type.blockInterval,
      );
      const writer = await SnapshotBatchWriter.open(tx, {
        pointsType: type.name,
        decimals: type.decimals,
        blockNumbers,
      });
      const typeRows: BatchPointsRow[] = [];
      for (const [snapshot, blockNumber] of blockNumbers.entries()) {
        for (const position of positions) {
          if (position.joinedAt > snapshot) continue;
          typeRows.push({
            blockNumber,
            vault: position.vault,
            receiver: position.receiver,
            receiverType: position.receiverType,
            points: position.rate * BigInt(snapshot - position.joinedAt + 1),
          });
        }
      }
      await writer.append(typeRows);
      await writer.finish();
      rows += typeRows.length;
    }
  });
  options.logger.info(
    {
      pointsTypes: DEMO_TYPES.map((type) => type.name),
      snapshots: DEMO_TYPES.reduce((sum, type) => sum + type.snapshots, 0),
      rows,
      vaults: vaults.length,
    },
    "demo points generated",
  );
}

function demoPositions(
  type: DemoPointsType,
  vaults: readonly Address[],
  receivers: readonly Address[],
  random: () => number,
): DemoPosition[] {
  const unit = 10n ** BigInt(type.decimals);
  const positions: DemoPosition[] = [];
  for (const receiver of receivers.slice(0, type.receivers)) {
    const draw = random();
    const receiverType = draw < 0.8 ? "staker" : draw < 0.95 ? "operator" : "network";
    const vaultCount = 1 + Math.floor(random() * 3);
    for (let i = 0; i < vaultCount; i++) {
      // Skewed: about a third of the positions sit in the first vault.
      const vault = random() < 0.35 ? vaults[0]! : vaults[Math.floor(random() * vaults.length)]!;
      if (positions.some((position) => position.receiver === receiver && position.vault === vault)) continue;
      // Whole points per snapshot (1 to 5000) plus a fraction, so values use every decimal.
      const whole = BigInt(1 + Math.floor(random() * 5_000));
      const fraction = (BigInt(Math.floor(random() * 1e9)) * unit) / 1_000_000_000n;
      positions.push({
        vault,
        receiver,
        receiverType,
        joinedAt: Math.floor(random() * random() * type.snapshots),
        rate: whole * unit + fraction,
      });
    }
  }
  return positions;
}

function randomAddress(random: () => number): Address {
  let hex = "0x";
  for (let i = 0; i < 5; i++) {
    hex += Math.floor(random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, "0");
  }
  return hex as Address;
}
