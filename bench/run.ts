// `npm run bench [-- --suite partner] [--db postgres|pglite|both] [--duration 10] [--connections 2]
// [--regenerate] [--pglite-scale 1] [--streams 5000] [--points-scale 1]`: runs the chosen suites, prints each one's report (Markdown) and writes
// its measurements to bench/results/<suite>-<time>.json (gitignored).
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BenchDatabaseKind } from "./dataset/store.ts";
import { SUITES } from "./suites/index.ts";
import type { SuiteOptions } from "./suites/types.ts";

const RESULTS_DIR = fileURLToPath(new URL("./results", import.meta.url));

const USAGE = `usage: npm run bench -- [options]
  --suite <name>        a suite to run; repeat for several (default: all). Suites:
${SUITES.map((suite) => `                          ${suite.name}: ${suite.description}`).join("\n")}
  --db <kind>           postgres, pglite or both (default: both)
  --duration <s>        measured seconds per route (default: 10)
  --connections <n>     autocannon connections (default: 2)
  --regenerate          regenerate stored datasets even when complete
  --pglite-scale <f>    fraction of the dataset loaded into PGlite, in (0, 1] (default: 1)
  --streams <n>         idle order streams the stream suite holds on one replica (default: 5000)
  --points-scale <f>    fraction of the points-engine history (blocks, stakers, events), in (0, 1] (default: 1)
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    suite: { type: "string", multiple: true },
    db: { type: "string", default: "both" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "2" },
    regenerate: { type: "boolean", default: false },
    "pglite-scale": { type: "string", default: "1" },
    streams: { type: "string", default: "5000" },
    "points-scale": { type: "string", default: "1" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const databasesByFlag: Record<string, BenchDatabaseKind[]> = {
  postgres: ["postgres"],
  pglite: ["pglite"],
  both: ["postgres", "pglite"],
};
const databases =
  databasesByFlag[values.db] ?? fail(`--db must be postgres, pglite or both, not ${values.db}`);
const positiveNumber = (flag: string, value: string, integer: boolean) => {
  const number = Number(value);
  if (!(number > 0) || (integer && !Number.isInteger(number))) fail(`--${flag} must be a positive number`);
  return number;
};
const options: SuiteOptions = {
  databases,
  durationSeconds: positiveNumber("duration", values.duration, true),
  connections: positiveNumber("connections", values.connections, true),
  regenerate: values.regenerate,
  pgliteScale: positiveNumber("pglite-scale", values["pglite-scale"], false),
  idleStreams: positiveNumber("streams", values.streams, true),
  pointsScale: positiveNumber("points-scale", values["points-scale"], false),
};
if (options.pointsScale > 1) fail("--points-scale must be at most 1");
if (options.pgliteScale > 1) fail("--pglite-scale must be at most 1");

const names = values.suite ?? SUITES.map((suite) => suite.name);
const chosen = names.map(
  (name) => SUITES.find((suite) => suite.name === name) ?? fail(`unknown suite ${JSON.stringify(name)}`),
);

mkdirSync(RESULTS_DIR, { recursive: true });
for (const suite of chosen) {
  const result = await suite.run(options);
  process.stdout.write(`${result.text}\n\n`);
  const file = `${RESULTS_DIR}/${suite.name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  writeFileSync(file, `${JSON.stringify(result.json, null, 2)}\n`);
  process.stderr.write(`[bench] ${suite.name}: results written to ${file}\n`);
}
