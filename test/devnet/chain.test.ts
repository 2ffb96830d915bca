// The devnet's chain on its own (no API, no database): a state file anvil cannot read — a crash while it was
// being written — is moved aside and the devnet starts on a fresh, fully deployed chain instead of not at all.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createChainPublicClient } from "../../src/chain/client.ts";
import { devnetFiles, startDevnetChain } from "../../src/devnet/devnet.ts";
import { silentLogger } from "../../src/logger.ts";
import { temporaryDataDir } from "./support.ts";

describe("devnet chain", () => {
  const dataDir = temporaryDataDir();
  afterAll(() => dataDir.remove());

  it("moves an unreadable state file aside and deploys on a fresh chain", async () => {
    const files = devnetFiles(dataDir.path);
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.anvilState, '{"block":{"number":"0x3","beneficiary":"0x00');

    const chain = await startDevnetChain({ dataDir: dataDir.path, logger: silentLogger() });
    try {
      expect(chain.deployedNow).toBe(true);
      expect(
        readdirSync(files.dir).filter((name) => name.startsWith("anvil-state.json.unreadable-")),
      ).toHaveLength(1);
      const client = createChainPublicClient({ chainId: chain.chainId, rpcUrls: chain.rpcUrl });
      expect((await client.getCode({ address: chain.core.reactor }))?.length).toBeGreaterThan(2);
    } finally {
      await chain.stop();
    }
  });
});
