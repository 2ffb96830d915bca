// Helpers shared by the points tests: addresses, rows, and a snapshot loader.
import type { Address } from "viem";
import type { Database } from "../../src/db/client.ts";
import { ingestSnapshot, type PointsRow, type SnapshotSummary } from "../../src/points/writer.ts";

/** A deterministic lowercase address from a small number and a one-letter namespace. */
export function address(namespace: "a" | "b" | "c" | "d" | "e" | "f", n: number): Address {
  return `0x${namespace}${n.toString(16).padStart(39, "0")}` as Address;
}

export function row(vault: Address, receiver: Address, points: bigint, receiverType = "staker"): PointsRow {
  return { vault, receiver, receiverType, points };
}

export function loadSnapshot(
  database: Database,
  pointsType: string,
  blockNumber: number,
  rows: readonly PointsRow[],
  decimals = 18,
): Promise<SnapshotSummary> {
  return ingestSnapshot(database, { pointsType, blockNumber, decimals }, rows);
}

/** Registers a vault the way the registry stores one (an unapproved vault needs only address and meta). */
export async function registerVault(database: Database, vault: Address): Promise<void> {
  await database.query(`insert into registry_vaults (address, meta) values ($1, '{"name":"Test vault"}')`, [
    vault,
  ]);
}
