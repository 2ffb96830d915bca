// Ensures the orders benchmark dataset in one database kind, generating it when it is missing, incomplete or
// from another plan (or with --regenerate), and prints its facts as the last stdout line:
//   npx tsx bench/dataset/orders-generate.ts --db postgres|pglite [--regenerate] [--scale <factor>]
// The orders suite runs it as a child process, so the load generator's process never holds a database.
import { parseArgs } from "node:util";
import { ownDatabase } from "../lib/bench-databases.ts";
import { generateOrdersDataset, type OrdersDatasetFacts } from "./orders-dataset.ts";
import { FULL_ORDERS_PLAN, ORDERS_DATABASE, ordersFingerprint, scaledOrdersPlan } from "./orders-plan.ts";
import { readMarker, schemaFingerprint, writeMarker } from "./store.ts";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    regenerate: { type: "boolean", default: false },
    scale: { type: "string", default: "1" },
  },
});

if (values.db !== "postgres" && values.db !== "pglite") {
  process.stderr.write("--db must be postgres or pglite\n");
  process.exit(2);
}
const scale = Number(values.scale);
if (!(scale > 0 && scale <= 1)) {
  process.stderr.write("--scale must be a number in (0, 1]\n");
  process.exit(2);
}

const log = (message: string) => process.stderr.write(`[orders dataset ${values.db}] ${message}\n`);
const plan = scaledOrdersPlan(FULL_ORDERS_PLAN, scale);
const target = ownDatabase(values.db, ORDERS_DATABASE);
const fingerprint = ordersFingerprint(plan, schemaFingerprint());

let facts: OrdersDatasetFacts | undefined;
if (!values.regenerate) facts = await storedFacts();

if (facts) {
  log(`reusing the complete dataset at ${target.location} (generated in ${facts.generationSeconds} s)`);
} else {
  log(`generating at ${target.location}: ${plan.orders.toLocaleString("en")} orders`);
  await target.reset();
  const database = await target.open();
  try {
    facts = await generateOrdersDataset(database, plan, fingerprint, log);
    await writeMarker(database, fingerprint, facts);
  } finally {
    await database.close();
  }
  log(`generated in ${facts.generationSeconds} s`);
}

process.stdout.write(`${JSON.stringify(facts)}\n`);

/** The marker's facts; none when the database is missing, incomplete, from another plan or another schema. */
async function storedFacts(): Promise<OrdersDatasetFacts | undefined> {
  const database = await target.openUnmigrated();
  try {
    return await readMarker<OrdersDatasetFacts>(database, fingerprint);
  } finally {
    await database.close();
  }
}
