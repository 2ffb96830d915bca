// Ensures the partner benchmark dataset is stored in one database kind, generating it when it is missing,
// incomplete or from another plan (or with --regenerate), and prints its facts as the last stdout line:
//   npx tsx bench/dataset/generate.ts --db postgres|pglite [--regenerate] [--scale <factor>]
// `npm run bench` runs it as a child process, so the load generator's process never holds a database.
import { ensureStoredDataset, generatorArgs } from "./generator-process.ts";
import { generatePartnerDataset } from "./partner-dataset.ts";
import { FULL_PLAN, fingerprint, scaledPlan } from "./plan.ts";
import { benchDatabase, schemaFingerprint, vacuumAnalyze } from "./store.ts";

const args = generatorArgs();
const log = (message: string) => process.stderr.write(`[dataset ${args.kind}] ${message}\n`);
const plan = scaledPlan(FULL_PLAN, args.scale);

await ensureStoredDataset({
  target: benchDatabase(args.kind),
  marker: `${fingerprint(plan)} schema:${schemaFingerprint()}`,
  regenerate: args.regenerate,
  size: `${plan.currentRows.toLocaleString("en")} current rows`,
  log,
  async generate(database) {
    const facts = await generatePartnerDataset(database, plan, log);
    await vacuumAnalyze(database);
    return facts;
  },
});
