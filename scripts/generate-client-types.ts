// npm run client:types — rewrites packages/client/src/openapi.gen.ts from the document a freshly started devnet serves (in a
// temporary data directory, on free ports; the devnet's deployment is deterministic, so is the document).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnetSluice } from "../src/app/devnet.ts";
import { readEnv } from "../src/config/env.ts";
import { silentLogger } from "../src/logger.ts";
import { CLIENT_TYPES_FILE, renderClientTypes } from "./client-types.ts";

const dataDir = mkdtempSync(join(tmpdir(), "sluice-client-types-"));
try {
  const env = readEnv({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SLUICE_DEMO_DATA: "0" });
  const devnet = await startDevnetSluice({ env, logger: silentLogger() });
  try {
    const response = await fetch(`${devnet.apiUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    writeFileSync(CLIENT_TYPES_FILE, await renderClientTypes(await response.json()));
    process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
  } finally {
    await devnet.sluice.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
