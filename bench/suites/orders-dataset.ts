// Ensures the orders dataset in one database kind by running bench/dataset/orders-generate.ts as a child
// process (its progress goes to our stderr), and returns the facts it prints.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { OrdersDatasetFacts } from "../dataset/orders-dataset.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export async function ensureOrdersDataset(
  kind: BenchDatabaseKind,
  options: { regenerate: boolean; scale: number },
): Promise<OrdersDatasetFacts> {
  const args = [
    "--import",
    "tsx",
    "bench/dataset/orders-generate.ts",
    "--db",
    kind,
    "--scale",
    String(options.scale),
  ];
  if (options.regenerate) args.push("--regenerate");
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`the ${kind} orders dataset generator exited with ${code}`);
  const last = stdout.trim().split("\n").at(-1);
  if (!last) throw new Error(`the ${kind} orders dataset generator printed no facts`);
  return JSON.parse(last) as OrdersDatasetFacts;
}
