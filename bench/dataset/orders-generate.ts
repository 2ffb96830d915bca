// Ensures the orders benchmark dataset in one database kind, generating it when it is missing, incomplete or
// from another plan (or with --regenerate), and prints its facts as the last stdout line:
//   npx tsx bench/dataset/orders-generate.ts --db postgres|pglite [--regenerate] [--scale <factor>]
// The orders suite runs it as a child process, so the load generator's process never holds a database. With
// BENCH_SLUICE_ROOT naming a build with other migrations, the dataset goes to that build's own database, migrated
// by it (store.ts `ordersDatabase`).
import { ensureStoredDataset, generatorArgs } from "./generator-process.ts";
import { generateOrdersDataset } from "./orders-dataset.ts";
import { FULL_ORDERS_PLAN, ordersFingerprint, scaledOrdersPlan } from "./orders-plan.ts";
import { ordersDatabase, servedSchemaFingerprint } from "./store.ts";

const args = generatorArgs();
const log = (message: string) => process.stderr.write(`[orders dataset ${args.kind}] ${message}\n`);
const plan = scaledOrdersPlan(FULL_ORDERS_PLAN, args.scale);
// The schema of the build that serves it: with BENCH_SLUICE_ROOT, that build's own database and migrations.
const fingerprint = ordersFingerprint(plan, servedSchemaFingerprint());

await ensureStoredDataset({
  target: ordersDatabase(args.kind),
  marker: fingerprint,
  regenerate: args.regenerate,
  size: `${plan.orders.toLocaleString("en")} orders`,
  log,
  generate: (database) => generateOrdersDataset(database, plan, fingerprint, log),
});
