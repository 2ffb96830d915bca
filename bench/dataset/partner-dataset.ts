// Writes the partner benchmark dataset into an empty, migrated database through the service's own import
// paths: the real registry tree with the generated demo overlay (storeRegistry), and points snapshots
// through the bulk snapshot writer, the million-row one streamed from a generator.
import { fileURLToPath } from "node:url";
import type { Address } from "viem";
import type { Database } from "../../src/db/client.ts";
import { generateDemoOverlay } from "../../src/demo/registry.ts";
import { ingestSnapshot, type PointsRow, SnapshotWriter } from "../../src/points/writer.ts";
import { storeRegistry } from "../../src/registry/importer.ts";
import { readMetadataTree, readTreeTokens } from "../../src/registry/metadata-tree.ts";
import { readVaultAddresses } from "../../src/registry/repository.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import {
  currentRows,
  layoutCurrentSnapshot,
  pickReceiverType,
  pointsAmount,
  receiverInVaults,
  shuffled,
} from "./layout.ts";
import {
  currentBlock,
  fingerprint,
  mainType,
  type PartnerDatasetPlan,
  type PointsTypePlan,
  snapshotBlock,
} from "./plan.ts";
import { receiverAddress } from "./random.ts";

export const REGISTRY_DIR = fileURLToPath(new URL("../../fixtures/metadata-mainnet", import.meta.url));

/** What the benchmark needs to know about the stored dataset, and what its output states. */
export interface PartnerDatasetFacts {
  fingerprint: string;
  registry: { dir: string; vaults: number; approvedVaults: number; networks: number; operators: number };
  pointsTypes: Array<{
    name: string;
    decimals: number;
    snapshots: number;
    currentBlock: number;
    currentRows: number;
  }>;
  snapshots: number;
  historicalSnapshots: number;
  historicalRowsEach: number;
  currentRows: number;
  vaultsWithPoints: number;
  largeVault: { address: Address; receivers: number };
  medianVault: { address: Address; receivers: number };
  receiver: { address: Address; vaults: Address[] };
  /** A block between snapshots: the nearest-block lookup picks the newest snapshot of each type. */
  totalsBlock: number;
  generationSeconds: number;
}

/** Historical snapshots are written this many to a transaction (one each would be mostly commit overhead). */
const SNAPSHOTS_PER_TRANSACTION = 50;

export async function generatePartnerDataset(
  database: Database,
  plan: PartnerDatasetPlan,
  log: (message: string) => void,
): Promise<PartnerDatasetFacts> {
  const started = performance.now();
  const read = await readMetadataTree(REGISTRY_DIR);
  const overlay = generateDemoOverlay({
    vaults: read.tree.vaults,
    tokens: await readTreeTokens(REGISTRY_DIR),
  });
  const report = await storeRegistry(database, read, overlay);
  const vaults = await readVaultAddresses(database);
  log(`registry: ${vaults.length} vaults (${report.overlay.approved} approved) from ${REGISTRY_DIR}`);

  const layout = layoutCurrentSnapshot(plan, vaults);
  const benchReceiver = receiverInVaults(layout, plan.receiverVaults);
  const bySize = [...layout.slots].sort((a, b) => b.receivers - a.receivers || (a.vault < b.vault ? -1 : 1));
  const large = bySize[0]!;
  const median = bySize[Math.floor(bySize.length / 2)]!;

  // The vaults of historical snapshots: the two benchmark vaults, the receiver's, then seeded others.
  const featured = [...new Set([large.vault, median.vault, ...benchReceiver.vaults])];
  const context: SmallSnapshotContext = {
    plan,
    vaults,
    featured,
    excludedReceiver: benchReceiver.receiver,
  };
  for (const [typeIndex, type] of plan.types.entries()) {
    await writeHistoricalSnapshots(database, context, type, typeIndex);
    log(`${type.name}: ${type.historicalSnapshots} historical snapshots of ${type.historicalRows} rows`);
  }

  const currentRowsByType = new Map<string, number>();
  for (const [typeIndex, type] of plan.types.entries()) {
    if (typeIndex === 0) continue;
    const rows = [
      ...smallSnapshotRows(context, type, typeIndex, type.historicalSnapshots, type.currentRows, vaults),
      // The benchmark receiver holds points of every type in its vaults, so its answer has one record per type.
      ...benchReceiver.vaults.map((vault) => ({
        vault,
        receiver: receiverAddress(benchReceiver.receiver, plan.seed),
        receiverType: "staker",
        points: 10n ** BigInt(type.decimals),
      })),
    ];
    const stored = await ingestSnapshot(database, target(type), rows);
    currentRowsByType.set(type.name, stored.receiverRows);
    log(`${type.name}: current snapshot of ${rows.length} rows`);
  }

  const main = mainType(plan);
  const mainStarted = performance.now();
  let lastLogged = 0;
  const summary = await ingestSnapshot(database, target(main), currentRows(plan, layout), {
    onProgress: (staged) => {
      if (staged - lastLogged < 100_000 && staged < plan.currentRows) return;
      lastLogged = staged;
      const seconds = (performance.now() - mainStarted) / 1000;
      log(
        `${main.name}: current snapshot ${staged.toLocaleString("en")} rows staged (${seconds.toFixed(0)} s)`,
      );
    },
  });
  if (summary.receiverRows !== plan.currentRows) {
    throw new Error(`expected ${plan.currentRows} current receiver rows, stored ${summary.receiverRows}`);
  }
  log(`${main.name}: current snapshot done in ${((performance.now() - mainStarted) / 1000).toFixed(0)} s`);

  const snapshots = plan.types.reduce((total, type) => total + type.historicalSnapshots + 1, 0);
  // Just after the newest snapshot of every type, and not on any: exercises the nearest-block choice.
  const totalsBlock = Math.max(...plan.types.map(currentBlock)) + 1_000;
  return {
    fingerprint: fingerprint(plan),
    registry: {
      dir: REGISTRY_DIR,
      vaults: vaults.length,
      approvedVaults: report.overlay.approved,
      networks: report.kinds.networks.imported,
      operators: report.kinds.operators.imported,
    },
    pointsTypes: plan.types.map((type) => ({
      name: type.name,
      decimals: type.decimals,
      snapshots: type.historicalSnapshots + 1,
      currentBlock: currentBlock(type),
      currentRows: currentRowsByType.get(type.name) ?? summary.receiverRows,
    })),
    snapshots,
    historicalSnapshots: snapshots - plan.types.length,
    historicalRowsEach: main.historicalRows,
    currentRows: summary.receiverRows,
    vaultsWithPoints: summary.vaults,
    largeVault: { address: large.vault, receivers: large.receivers },
    medianVault: { address: median.vault, receivers: median.receivers },
    receiver: { address: receiverAddress(benchReceiver.receiver, plan.seed), vaults: benchReceiver.vaults },
    totalsBlock,
    generationSeconds: Math.round((performance.now() - started) / 1000),
  };
}

interface SmallSnapshotContext {
  plan: PartnerDatasetPlan;
  vaults: readonly Address[];
  featured: readonly Address[];
  /** The benchmark receiver never appears by chance, so it is in exactly its planned vaults. */
  excludedReceiver: number;
}

async function writeHistoricalSnapshots(
  database: Database,
  context: SmallSnapshotContext,
  type: PointsTypePlan,
  typeIndex: number,
): Promise<void> {
  const random = mulberry32(context.plan.seed + typeIndex);
  const others = context.vaults.filter((vault) => !context.featured.includes(vault));
  const vaults = [...context.featured, ...shuffled(others, random)].slice(0, type.historicalVaults);
  for (let first = 0; first < type.historicalSnapshots; first += SNAPSHOTS_PER_TRANSACTION) {
    const last = Math.min(first + SNAPSHOTS_PER_TRANSACTION, type.historicalSnapshots);
    await database.db.transaction(async (tx) => {
      for (let index = first; index < last; index++) {
        const writer = await SnapshotWriter.open(tx, {
          ...target(type),
          blockNumber: snapshotBlock(type, index),
        });
        await writer.append(smallSnapshotRows(context, type, typeIndex, index, type.historicalRows, vaults));
        await writer.finish();
      }
    });
  }
}

/** Rows of a small snapshot: receivers from the small pool, points growing with the snapshot number. */
function smallSnapshotRows(
  context: SmallSnapshotContext,
  type: PointsTypePlan,
  typeIndex: number,
  snapshotIndex: number,
  count: number,
  vaults: readonly Address[],
): PointsRow[] {
  const random = mulberry32(
    context.plan.seed ^ ((typeIndex + 1) * 0x85ebca6b) ^ (snapshotIndex * 0xc2b2ae35),
  );
  const unit = 10n ** BigInt(type.decimals);
  const fractionUnit = unit / 1_000_000_000n || 1n;
  const growth = BigInt(snapshotIndex + 1);
  return Array.from({ length: count }, () => {
    let receiver = Math.floor(random() * context.plan.smallPoolSize);
    if (receiver === context.excludedReceiver) receiver = context.plan.smallPoolSize;
    return {
      vault: vaults[Math.floor(random() * vaults.length)]!,
      receiver: receiverAddress(receiver, context.plan.seed),
      receiverType: pickReceiverType(random()),
      points: pointsAmount(random, unit, fractionUnit) * growth,
    };
  });
}

function target(type: PointsTypePlan) {
  return { pointsType: type.name, blockNumber: currentBlock(type), decimals: type.decimals };
}
