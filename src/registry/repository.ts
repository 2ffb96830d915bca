// Storage of the registry: an atomic replace of the whole dataset, and the reads behind the endpoints.
// Each read is one SQL statement, so it sees one committed registry — never half of an import.
import type { Address } from "viem";
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import type { Database, Db } from "../db/client.ts";
import { bumpGeneration } from "../db/generations.ts";
import type { Registry } from "./registry.ts";
import type { Metadata, PartnerCurator, PartnerEntity, PartnerVault, VaultType } from "./schemas.ts";
import { registryCurators, registryNetworks, registryOperators, registryVaults } from "./tables.ts";

// Keeps each INSERT well below PostgreSQL's 65535 bind parameters.
const INSERT_BATCH = 500;

/**
 * Replaces the registry in one transaction and bumps its generation there too: readers (on PostgreSQL, by
 * MVCC) keep seeing the old registry until the new one is committed whole.
 */
export async function replaceRegistry(database: Database, registry: Registry): Promise<void> {
  await database.db.transaction(async (tx) => {
    await database.lockTransaction(tx, ADVISORY_LOCKS.registryImport);
    await tx.delete(registryVaults);
    await tx.delete(registryCurators);
    await tx.delete(registryOperators);
    await tx.delete(registryNetworks);
    await insertBatches(tx, registryNetworks, registry.networks);
    await insertBatches(tx, registryOperators, registry.operators);
    await insertBatches(tx, registryCurators, registry.curators);
    await insertBatches(
      tx,
      registryVaults,
      registry.vaults.map((vault) => ({
        address: vault.address,
        curatorId: vault.curatorId ?? null,
        vaultType: vault.onChain?.vaultType ?? null,
        collateral: vault.onChain?.collateral ?? null,
        totalSupply: vault.onChain?.totalSupply ?? null,
        tvl: vault.onChain?.tvl ?? null,
        approved: vault.onChain?.approved ?? false,
        meta: vault.meta,
      })),
    );
    await bumpGeneration(tx, "registry");
  });
}

/**
 * Adds the entries whose key is not stored yet, leaving every stored entry as it is, in one transaction (and bumps
 * the generation when it added any). Returns how many it added. For entries that belong beside any imported
 * registry, such as the devnet's own networks, operators and vaults.
 */
export async function addMissingRegistryEntries(database: Database, entries: Registry): Promise<number> {
  return database.db.transaction(async (tx) => {
    await database.lockTransaction(tx, ADVISORY_LOCKS.registryImport);
    let added = 0;
    const count = (rows: unknown[]) => {
      added += rows.length;
    };
    if (entries.networks.length > 0)
      count(await tx.insert(registryNetworks).values(entries.networks).onConflictDoNothing().returning());
    if (entries.operators.length > 0)
      count(await tx.insert(registryOperators).values(entries.operators).onConflictDoNothing().returning());
    if (entries.curators.length > 0)
      count(await tx.insert(registryCurators).values(entries.curators).onConflictDoNothing().returning());
    if (entries.vaults.length > 0)
      count(
        await tx
          .insert(registryVaults)
          .values(
            entries.vaults.map((vault) => ({
              address: vault.address,
              curatorId: vault.curatorId ?? null,
              vaultType: vault.onChain?.vaultType ?? null,
              collateral: vault.onChain?.collateral ?? null,
              totalSupply: vault.onChain?.totalSupply ?? null,
              tvl: vault.onChain?.tvl ?? null,
              approved: vault.onChain?.approved ?? false,
              meta: vault.meta,
            })),
          )
          .onConflictDoNothing()
          .returning(),
      );
    if (added > 0) await bumpGeneration(tx, "registry");
    return added;
  });
}

async function insertBatches<Table extends Parameters<Db["insert"]>[0]>(
  tx: Pick<Db, "insert">,
  table: Table,
  rows: Table["$inferInsert"][],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await tx.insert(table).values(rows.slice(start, start + INSERT_BATCH));
  }
}

export async function readNetworks(database: Database): Promise<PartnerEntity[]> {
  return readEntities(database, "registry_networks");
}

export async function readOperators(database: Database): Promise<PartnerEntity[]> {
  return readEntities(database, "registry_operators");
}

async function readEntities(
  database: Database,
  table: "registry_networks" | "registry_operators",
): Promise<PartnerEntity[]> {
  const rows = await database.query<{ address: Address; meta: Metadata }>(
    `select address, meta from ${table} order by address collate "C"`,
  );
  return rows.map((row) => ({ address: row.address, meta: row.meta }));
}

/** Approved vaults only: the spec's /entities/vaults. */
export async function readApprovedVaults(database: Database): Promise<PartnerVault[]> {
  const rows = await database.query<{
    address: Address;
    vault_type: VaultType;
    collateral: Address;
    curator_id: string | null;
    total_supply: string;
    tvl: number | string;
    meta: Metadata;
  }>(
    `select address, vault_type, collateral, curator_id, total_supply, tvl, meta
       from registry_vaults where approved order by address collate "C"`,
  );
  return rows.map((row) => ({
    address: row.address,
    vaultType: row.vault_type,
    collateral: row.collateral,
    ...(row.curator_id !== null ? { curatorId: row.curator_id } : {}),
    totalSupply: row.total_supply,
    tvl: Number(row.tvl),
    meta: row.meta,
  }));
}

/** Curators with the approved vaults they curate (sorted), read in the same statement. */
export async function readCurators(database: Database): Promise<PartnerCurator[]> {
  const rows = await database.query<{ id: string; meta: Metadata; vaults: Address[] }>(
    `select c.id, c.meta,
            coalesce((select json_agg(v.address order by v.address collate "C")
                        from registry_vaults v
                       where v.approved and v.curator_id = c.id), '[]'::json) as vaults
       from registry_curators c
      order by c.id collate "C"`,
  );
  return rows.map((row) => ({ id: row.id, meta: row.meta, vaults: row.vaults }));
}

/** Every stored vault, approved or not (points may reference any of them). */
export async function readVaultAddresses(database: Database): Promise<Address[]> {
  const rows = await database.query<{ address: Address }>(
    `select address from registry_vaults order by address collate "C"`,
  );
  return rows.map((row) => row.address);
}

/** True when nothing has been imported yet (or an empty tree was). */
export async function isRegistryEmpty(database: Database): Promise<boolean> {
  const rows = await database.query<{ empty: boolean }>(
    `select not (exists (select 1 from registry_vaults) or exists (select 1 from registry_networks)
              or exists (select 1 from registry_operators) or exists (select 1 from registry_curators)) as empty`,
  );
  return rows[0]?.empty ?? true;
}
