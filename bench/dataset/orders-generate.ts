// Ensures the orders benchmark dataset in one database kind, generating it when it is missing, incomplete or
// from another plan (or with --regenerate), and prints its facts as the last stdout line:
//   npx tsx bench/dataset/orders-generate.ts --db postgres|pglite [--regenerate] [--scale <factor>]
// The orders suite runs it as a child process, so the load generator's process never holds a database.
import { ownDatabase } from "../lib/bench-databases.ts";
import { ensureStoredDataset, generatorArgs } from "./generator-process.ts";
import { generateOrdersDataset } from "./orders-dataset.ts";
import { FULL_ORDERS_PLAN, ORDERS_DATABASE, ordersFingerprint, scaledOrdersPlan } from "./orders-plan.ts";
import { schemaFingerprint } from "./store.ts";

const args = generatorArgs();
const log = (message: string) => process.stderr.write(`[orders dataset ${args.kind}] ${message}\n`);
const plan = scaledOrdersPlan(FULL_ORDERS_PLAN, args.scale);
const fingerprint = ordersFingerprint(plan, schemaFingerprint());

await ensureStoredDataset({
  target: ownDatabase(args.kind, ORDERS_DATABASE),
  marker: fingerprint,
  regenerate: args.regenerate,
  size: `${plan.orders.toLocaleString("en")} orders`,
  log,
  generate: (database) => generateOrdersDataset(database, plan, fingerprint, log),
});
