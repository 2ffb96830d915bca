// Ensures the orders dataset in one database kind by running bench/dataset/orders-generate.ts as a child
// process (its progress goes to our stderr), and returns the facts it prints.
import { runDatasetGenerator } from "../dataset/generator-process.ts";
import type { OrdersDatasetFacts } from "../dataset/orders-dataset.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";

export function ensureOrdersDataset(
  kind: BenchDatabaseKind,
  options: { regenerate: boolean; scale: number },
): Promise<OrdersDatasetFacts> {
  return runDatasetGenerator("bench/dataset/orders-generate.ts", "orders dataset", kind, options);
}
