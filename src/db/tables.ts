// Tables that belong to no single domain.
import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/**
 * A monotonically increasing generation per dataset (`registry`, `points`). Writers bump it in the same
 * transaction as their data, so every replica can tell cheaply whether its in-memory caches are stale.
 */
export const datasetGenerations = pgTable("dataset_generations", {
  dataset: text("dataset").primaryKey(),
  generation: bigint("generation", { mode: "number" }).notNull(),
});
