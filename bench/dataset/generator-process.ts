// A dataset generator (generate.ts: the partner dataset; orders-generate.ts: the orders one) runs as a process
// of its own, so the load generator's process never holds a database. Both ends of it are here: the script
// takes `--db postgres|pglite [--regenerate] [--scale <factor>]`, reuses the stored dataset when its marker
// matches or generates it anew, and prints the dataset's facts as its last stdout line; a suite runs the script
// (its progress goes to the suite's stderr) and reads those facts.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Database } from "../../src/db/client.ts";
import { type BenchDatabaseKind, readMarker, writeMarker } from "./store.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface GeneratorArgs {
  kind: BenchDatabaseKind;
  regenerate: boolean;
  /** The fraction of the full plan to generate, in (0, 1]. */
  scale: number;
}

/** The script's command line; a wrong one exits with 2. */
export function generatorArgs(): GeneratorArgs {
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
  return { kind: values.db, regenerate: values.regenerate, scale };
}

/** Where a dataset is stored: the partner suite's database or a suite's own. */
interface DatasetTarget {
  location: string;
  reset(): Promise<void>;
  open(): Promise<Database>;
  openUnmigrated(): Promise<Database>;
}

/**
 * The script's work: the facts stored under `marker` when the dataset there is complete (and --regenerate was not
 * given); otherwise the database is emptied, `generate` fills it and the marker is written last, so a run that
 * dies half-way leaves none. The facts are printed either way.
 */
export async function ensureStoredDataset<Facts extends { generationSeconds: number }>(options: {
  target: DatasetTarget;
  marker: string;
  regenerate: boolean;
  /** What a generation writes, for the log ("1,000,000 orders"). */
  size: string;
  log: (message: string) => void;
  generate: (database: Database) => Promise<Facts>;
}): Promise<void> {
  const { target, marker, log } = options;
  let facts = options.regenerate ? undefined : await storedFacts<Facts>(target, marker);
  if (facts) {
    log(`reusing the complete dataset at ${target.location} (generated in ${facts.generationSeconds} s)`);
  } else {
    log(`generating at ${target.location}: ${options.size}`);
    await target.reset();
    const database = await target.open();
    try {
      facts = await options.generate(database);
      await writeMarker(database, marker, facts);
    } finally {
      await database.close();
    }
    log(`generated in ${facts.generationSeconds} s`);
  }
  process.stdout.write(`${JSON.stringify(facts)}\n`);
}

/** The marker's facts; none when the database is missing, incomplete, from another plan or another schema. */
async function storedFacts<Facts>(target: DatasetTarget, marker: string): Promise<Facts | undefined> {
  const database = await target.openUnmigrated();
  try {
    return await readMarker<Facts>(database, marker);
  } finally {
    await database.close();
  }
}

/** The suite's end: runs `script` (a path from the repository root) and returns the facts it printed. */
export async function runDatasetGenerator<Facts>(
  script: string,
  /** What the errors call it: "the postgres <name> generator exited with 1". */
  name: string,
  kind: BenchDatabaseKind,
  options: { regenerate: boolean; scale: number },
): Promise<Facts> {
  const args = ["--import", "tsx", script, "--db", kind, "--scale", String(options.scale)];
  if (options.regenerate) args.push("--regenerate");
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`the ${kind} ${name} generator exited with ${code}`);
  const last = stdout.trim().split("\n").at(-1);
  if (!last) throw new Error(`the ${kind} ${name} generator printed no facts`);
  return JSON.parse(last) as Facts;
}
