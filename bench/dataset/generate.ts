// Ensures the partner benchmark dataset is stored in one database kind, generating it when it is missing,
// incomplete or from another plan (or with --regenerate), and prints its facts as the last stdout line:
//   npx tsx bench/dataset/generate.ts --db postgres|pglite [--regenerate] [--scale <factor>]
// `npm run bench` runs it as a child process, so the load generator's process never holds a database.
import { parseArgs } from "node:util";
import { generatePartnerDataset, type PartnerDatasetFacts } from "./partner-dataset.ts";
import { FULL_PLAN, fingerprint, scaledPlan } from "./plan.ts";
import { benchDatabase, readMarker, schemaFingerprint, vacuumAnalyze, writeMarker } from "./store.ts";

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

const log = (message: string) => process.stderr.write(`[dataset ${values.db}] ${message}\n`);
const plan = scaledPlan(FULL_PLAN, scale);
const target = benchDatabase(values.db);
const marker = `${fingerprint(plan)} schema:${schemaFingerprint()}`;

let facts: PartnerDatasetFacts | undefined;
if (!values.regenerate) facts = await storedFacts();

if (facts) {
  log(`reusing the complete dataset at ${target.location} (generated in ${facts.generationSeconds} s)`);
} else {
  log(`generating at ${target.location}: ${plan.currentRows.toLocaleString("en")} current rows`);
  await target.reset();
  const database = await target.open();
  try {
    facts = await generatePartnerDataset(database, plan, log);
    await vacuumAnalyze(database);
    await writeMarker(database, marker, facts);
  } finally {
    await database.close();
  }
  log(`generated in ${facts.generationSeconds} s`);
}

process.stdout.write(`${JSON.stringify(facts)}\n`);

/** The marker's facts; none when the database is missing, incomplete, from another plan or another schema. */
async function storedFacts(): Promise<PartnerDatasetFacts | undefined> {
  const database = await target.openUnmigrated();
  try {
    return await readMarker<PartnerDatasetFacts>(database, marker);
  } finally {
    await database.close();
  }
}
