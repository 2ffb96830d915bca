// The operator's write commands beside a server running on the embedded database (issue 24.7): the real `sluice`
// binary, a devnet running in this process (so it holds the data directory's database), and each command's output
// and exit code checked against the same command run on a data directory no server holds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminServerPath } from "../../src/admin/running-server.ts";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { overlayToFile } from "../../src/registry/overlay.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { FIXTURE_TREE, fixtureOverlay } from "../registry/support.ts";
import { runSluice } from "../support/cli.ts";
import { TEST_LIMITS_ENV } from "../support/limits.ts";

const VAULT = "0x1111111111111111111111111111111111111111";
const R1 = "0x2222222222222222222222222222222222222222";
const R2 = "0x3333333333333333333333333333333333333333";

interface PointsRecord {
  points_type: string;
  last_block: number;
  total_points: string;
  items: Array<{ vault_address: string; points: string }>;
}

describe("write commands beside a running embedded server", () => {
  const dataDir = temporaryDataDir();
  const workDir = mkdtempSync(join(tmpdir(), "sluice-beside-"));
  /** A data directory no server holds: where the same commands run on the database themselves. */
  const aloneDir = join(workDir, "alone");
  let devnet: DevnetSluice;
  let api: string;
  const besideEnv = () => ({ DATA_DIR: dataDir.path, DEPLOYMENT: undefined, DEPLOYMENT_FILE: undefined });
  const aloneEnv = { DATA_DIR: aloneDir, DEPLOYMENT: undefined, DEPLOYMENT_FILE: undefined };

  const pointsFile = (name: string, lines: string[]) => {
    const path = join(workDir, name);
    writeFileSync(path, `${lines.join("\n")}\n`);
    return path;
  };
  const goodRows = pointsFile("good.jsonl", [
    `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${VAULT}","points":"10"}`,
    `{"receiver_address":"${R2}","receiver_type":"staker","vault_address":"${VAULT}","points":"32"}`,
    `{"receiver_address":"${R2}","receiver_type":"operator","vault_address":"${VAULT}","points":"1.5"}`,
  ]);
  const importArgs = (file: string, block: number) => [
    "import",
    "points",
    file,
    "--type",
    "beside",
    "--block",
    String(block),
    "--feed-decimals",
    "1",
    "--type-decimals",
    "6",
  ];

  beforeAll(async () => {
    // The load below reads as fast as it can from one address: not what this test is about.
    devnet = await startTestDevnet(dataDir.path, { env: { ...TEST_LIMITS_ENV } });
    api = devnet.sluice.apiUrl;
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("says where its admin routes are while it runs", async () => {
    const record = JSON.parse(readFileSync(adminServerPath(dataDir.path), "utf8"));
    expect(record).toEqual({ internalApiUrl: devnet.sluice.internalApiUrl, pid: process.pid });
  });

  it("imports points ten times in a row beside a load: each served at once, nothing lost", {
    timeout: 300_000,
  }, async () => {
    // The load: readers of what the imports write, all the while.
    let loading = true;
    const statuses: number[] = [];
    const load = (async () => {
      while (loading) {
        const answers = await Promise.all(
          ["/points/total/current", "/entities/vaults", "/health"].map((path) => fetch(`${api}${path}`)),
        );
        for (const answer of answers) {
          statuses.push(answer.status);
          await answer.arrayBuffer();
        }
      }
    })();
    try {
      for (let block = 100; block < 110; block += 1) {
        const run = await runSluice(importArgs(goodRows, block), besideEnv());
        expect(run).toMatchObject({
          code: 0,
          stdout: `imported points snapshot beside@${block}: 3 rows, 3 receiver rows in 1 vaults, total 4350000 (6 decimals)\n`,
        });
        // Served at once: the snapshot just imported is the type's current one.
        const current = (await (await fetch(`${api}/points/total/current`)).json()) as PointsRecord[];
        expect(current.filter((record) => record.points_type === "beside")).toMatchObject([
          {
            last_block: block,
            total_points: "4350000",
            items: [{ vault_address: VAULT, points: "4350000" }],
          },
        ]);
      }
    } finally {
      loading = false;
      await load;
    }
    expect(statuses.length).toBeGreaterThan(0);
    // Answered throughout (404 only while this devnet, started without demo data, has no registry or points yet).
    expect(statuses.filter((status) => status !== 200 && status !== 404)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(statuses.length / 3);
    for (let block = 100; block < 110; block += 1) {
      const at = (await (await fetch(`${api}/points/total/${block}`)).json()) as PointsRecord[];
      expect(at.filter((record) => record.points_type === "beside")).toMatchObject([{ last_block: block }]);
    }
  });

  it("fails a bad file with the message and exit code of the command on its own database", async () => {
    const bad = pointsFile("bad.jsonl", [
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${VAULT}","points":"10"}`,
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${VAULT}","points":"ten"}`,
    ]);
    const beside = await runSluice(importArgs(bad, 200), besideEnv());
    const alone = await runSluice(importArgs(bad, 200), aloneEnv);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/^sluice: line 2: /);
    expect({ code: beside.code, stdout: beside.stdout, stderr: lastLine(beside.stderr) }).toEqual({
      code: alone.code,
      stdout: alone.stdout,
      stderr: lastLine(alone.stderr),
    });
    // Nothing of it was stored.
    const at = (await (await fetch(`${api}/points/total/200`)).json()) as PointsRecord[];
    expect(at.filter((record) => record.points_type === "beside").map((r) => r.last_block)).toEqual([109]);
  });

  it("sets and lifts a solver's cooldown, served at once", async () => {
    const solverId = devnet.sluice.deployment!.market.solvers.all()[0]!.id;
    const until = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, ".000Z");
    const set = await runSluice(["solvers", "cooldown", "--set", solverId, "--until", until], besideEnv());
    expect(set).toMatchObject({ code: 0, stdout: `${solverId}: in cooldown until ${until}\n` });
    expect(await cooldownOf(solverId)).toBe(until);
    const lift = await runSluice(["solvers", "cooldown", "--lift", solverId], besideEnv());
    expect(lift).toMatchObject({ code: 0, stdout: `${solverId}: no cooldown; its doubling starts over\n` });
    expect(await cooldownOf(solverId)).toBeNull();
  });

  it("syncs a partner's feed with the progress lines and result of the command on its own database", async () => {
    const server: Server = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      if (request.url === "/api/last_block")
        return response.end('{"last_block_number": 300, "timestamp": 1}');
      if (request.url === "/api/all?block_number=300&offset=0&limit=50")
        return response.end(
          `[{"receiver_address":"${R1}","receiver_type":"staker","block_number":300,"network_address":null,` +
            `"vault_address":"${VAULT}","points":"7"}]`,
        );
      response.statusCode = 404;
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const args = ["points", "sync", url, "--type", "synced", "--feed-decimals", "0", "--page-size", "50"];
      const alone = await runSluice(args, aloneEnv);
      const beside = await runSluice(args, besideEnv());
      expect(alone.code).toBe(0);
      expect(beside).toEqual(alone);
      const current = (await (await fetch(`${api}/points/total/current`)).json()) as PointsRecord[];
      expect(current.filter((record) => record.points_type === "synced")).toMatchObject([
        { last_block: 300, total_points: "7000000000000000000", items: [{ vault_address: VAULT }] },
      ]);
    } finally {
      server.close();
    }
  });

  it("imports the registry, served at once", async () => {
    const overlayFile = join(workDir, "overlay.json");
    writeFileSync(overlayFile, JSON.stringify(overlayToFile(await fixtureOverlay())));
    const args = ["import", "registry", FIXTURE_TREE, "--overlay", overlayFile];
    const beside = await runSluice(args, besideEnv());
    const alone = await runSluice(args, aloneEnv);
    expect(beside.code).toBe(0);
    expect(beside).toEqual(alone);
    const networks = (await (await fetch(`${api}/entities/networks`)).json()) as
      | { data?: unknown[] }
      | unknown[];
    expect(Array.isArray(networks) ? networks : networks.data).toHaveLength(21);
  });

  it("answers points engine status and runs a backfill from the start through the server, which goes on after", {
    timeout: 180_000,
  }, async () => {
    const leaseEpoch = (text: string) => BigInt(/^lease: epoch (\d+),/m.exec(text)?.[1] ?? "-1");
    const status = await runSluice(["points", "engine", "status"], besideEnv());
    expect(status.stderr).toBe("");
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^points type: sluice \(48 decimals\), start block \d+\n/);
    expect(status.stdout).toMatch(/^head: block \d+, \d+ confirmations: lag \d+ blocks behind block \d+$/m);
    const before = leaseEpoch(status.stdout);
    expect(before).toBeGreaterThan(0n);

    // --from 1: nothing is kept that far back, so everything is computed again, by the server, as the command would.
    const backfill = await runSluice(["points", "engine", "backfill", "--from", "1"], besideEnv());
    expect(backfill.code).toBe(0);
    expect(backfill.stdout).toMatch(
      /^recomputed from the start block\npoints engine at block \d+: [1-9]\d* blocks, \d+ stake events\n$/,
    );
    const at = BigInt(/at block (\d+):/.exec(backfill.stdout)![1]!);

    // The backfill took the lease (one epoch) and gave it back; the server's engine took it again and goes on.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const after = await runSluice(["points", "engine", "status"], besideEnv());
      expect(after.code).toBe(0);
      const position = BigInt(/^position: block (\d+)/m.exec(after.stdout)?.[1] ?? "-1");
      if (leaseEpoch(after.stdout) >= before + 2n && position > at) break;
      if (Date.now() > deadline) throw new Error(`the server's engine did not go on:\n${after.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });

  /** The solver's cooldown end as /solvers serves it. */
  async function cooldownOf(solverId: string): Promise<string | null> {
    const { solvers } = (await (await fetch(`${api}/solvers`)).json()) as {
      solvers: Array<{ id: string; cooldownUntil: string | null }>;
    };
    return solvers.find((solver) => solver.id === solverId)!.cooldownUntil;
  }
});

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}
