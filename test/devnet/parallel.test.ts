// Two devnets started at the same time (as two test workers or two checkouts would) share no port and no file,
// and each funds wallets on its own chain.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { DevFaucetResponseSchema } from "../../src/devnet/schemas.ts";
import { balancesOf, getJson, postJson, startTestDevnet, temporaryDataDir } from "./support.ts";

describe("two devnets at once", () => {
  const dirs = [temporaryDataDir(), temporaryDataDir()];
  const devnets: DevnetSluice[] = [];
  afterAll(async () => {
    await Promise.all(devnets.map((devnet) => devnet.sluice.stop()));
    for (const dir of dirs) dir.remove();
  });

  it("start side by side on separate data directories and both work", async () => {
    const started = await Promise.all(dirs.map((dir) => startTestDevnet(dir.path)));
    devnets.push(...started);
    console.info(`two devnets ready in ${started.map((d) => d.readyMs).join(" ms and ")} ms`);
    const first = started[0]!;
    const second = started[1]!;

    const ports = (devnet: DevnetSluice) => [
      new URL(devnet.sluice.apiUrl).port,
      new URL(devnet.chain.rpcUrl).port,
      ...devnet.bundled.solvers.map((solver) => new URL(solver.url).port),
    ];
    expect(new Set([...ports(first), ...ports(second)]).size).toBe(8);
    // Two fresh anvils started in the same second can share a genesis hash; what keeps them apart is their own
    // data directories (chain state, records, database), not the hash.
    expect(first.chain.files.dir).not.toBe(second.chain.files.dir);

    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    for (const devnet of started) {
      const bundle = DevFaucetResponseSchema.parse(
        (await getJson(`${devnet.sluice.apiUrl}/dev/faucet`)).json,
      ).assets;
      const funded = await postJson(`${devnet.sluice.apiUrl}/dev/faucet`, { walletAddress: wallet });
      expect(funded.status).toBe(200);
      expect(
        await balancesOf(
          devnet,
          wallet,
          bundle.map((a) => a.token),
        ),
      ).toEqual(bundle.map((a) => BigInt(a.amount)));
    }
  }, 180_000);
});
