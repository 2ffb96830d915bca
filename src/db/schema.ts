// Every table of the service, re-exported from the domain that owns it. drizzle-kit reads this file.

export * from "../api-keys/tables.ts";
export * from "../cooldowns/tables.ts";
export * from "../discounts/tables.ts";
export * from "../indexer/tables.ts";
export * from "../limits/tables.ts";
export * from "../orders/tables.ts";
export * from "../points/tables.ts";
export * from "../points-engine/store/tables.ts";
export * from "../registry/tables.ts";
export * from "../rounds/tables.ts";
export * from "../scorecards/tables.ts";
export * from "../swap/tables.ts";
export * from "./tables.ts";
