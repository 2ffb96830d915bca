// Prints the demo overlay of a metadata tree as JSON, ready for `sluice import registry <dir> --overlay <file>`:
//   npx tsx scripts/demo-overlay.ts [dir] [--seed <n>] > overlay.json
// Without a dir it uses the public mainnet tree in fixtures/metadata-mainnet.
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { demoOverlayForTree } from "../src/demo/registry.ts";
import { overlayToFile } from "../src/registry/overlay.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seed: { type: "string" } },
});

const registryDir = positionals[0] ?? fileURLToPath(new URL("../fixtures/metadata-mainnet", import.meta.url));
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !Number.isSafeInteger(seed)) {
  process.stderr.write(`--seed must be an integer, got ${values.seed}\n`);
  process.exit(1);
}

const overlay = await demoOverlayForTree(registryDir, seed);
process.stdout.write(`${JSON.stringify(overlayToFile(overlay), null, 2)}\n`);
