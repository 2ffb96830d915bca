// Registry tables. Keys are lowercase (addresses, slugs); metadata is stored as the validated object the
// API serves. An import replaces all four tables in one transaction.
import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, jsonb, numeric, pgTable, text } from "drizzle-orm/pg-core";
import type { Metadata } from "./schemas.ts";

export const registryNetworks = pgTable(
  "registry_networks",
  {
    address: text("address").primaryKey(),
    meta: jsonb("meta").$type<Metadata>().notNull(),
  },
  (table) => [check("registry_networks_address_lowercase", sql`${table.address} = lower(${table.address})`)],
);

export const registryOperators = pgTable(
  "registry_operators",
  {
    address: text("address").primaryKey(),
    meta: jsonb("meta").$type<Metadata>().notNull(),
  },
  (table) => [check("registry_operators_address_lowercase", sql`${table.address} = lower(${table.address})`)],
);

export const registryCurators = pgTable(
  "registry_curators",
  {
    id: text("id").primaryKey(),
    meta: jsonb("meta").$type<Metadata>().notNull(),
  },
  (table) => [check("registry_curators_id_lowercase", sql`${table.id} = lower(${table.id})`)],
);

/**
 * Every vault of the metadata tree. The on-chain columns come from the overlay and are null for vaults it
 * does not cover; only approved vaults (which always have them) are served.
 */
export const registryVaults = pgTable(
  "registry_vaults",
  {
    address: text("address").primaryKey(),
    curatorId: text("curator_id"),
    vaultType: text("vault_type"),
    collateral: text("collateral"),
    totalSupply: numeric("total_supply", { precision: 78, scale: 0, mode: "bigint" }),
    tvl: doublePrecision("tvl"),
    approved: boolean("approved").notNull().default(false),
    meta: jsonb("meta").$type<Metadata>().notNull(),
  },
  (table) => [
    check("registry_vaults_address_lowercase", sql`${table.address} = lower(${table.address})`),
    check("registry_vaults_vault_type", sql`${table.vaultType} in ('pre-deposit', 'v1', 'v2')`),
    check(
      "registry_vaults_approved_complete",
      sql`not ${table.approved} or (${table.vaultType} is not null and ${table.collateral} is not null and ${table.totalSupply} is not null and ${table.tvl} is not null)`,
    ),
  ],
);
