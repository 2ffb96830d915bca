// Ensures the partner dataset in one database kind by running bench/dataset/generate.ts as a child process
// (its progress goes to our stderr), and returns the facts it prints.
import { runDatasetGenerator } from "../dataset/generator-process.ts";
import type { PartnerDatasetFacts } from "../dataset/partner-dataset.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";

export function ensurePartnerDataset(
  kind: BenchDatabaseKind,
  options: { regenerate: boolean; scale: number },
): Promise<PartnerDatasetFacts> {
  return runDatasetGenerator("bench/dataset/generate.ts", "dataset", kind, options);
}
