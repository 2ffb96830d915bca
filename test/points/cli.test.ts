// `sluice import points` and `sluice points sync` end to end: the real binary against PGlite in a data
// directory, and against PostgreSQL (DATABASE_URL) when TEST_DATABASE_URL is set.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseKind, openDatabase } from "../../src/db/client.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase, databaseKinds } from "../support/db.ts";
import { address } from "./support.ts";

const V1 = address("a", 1);
const V2 = address("a", 2);
const R1 = address("b", 1);
const R2 = address("b", 2);
const HUGE = 2n ** 190n + 7n; // a JSON number no double can hold

/** Where the CLI's database lives for one database kind, and how the test opens it afterwards. */
interface CliTarget {
  env: Record<string, string>;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

async function cliTarget(kind: DatabaseKind, workDir: string): Promise<CliTarget> {
  if (kind === "pglite") {
    const dataDir = join(workDir, "data");
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") }),
      dispose: async () => {},
    };
  }
  const { url, drop } = await createEmptyPostgresDatabase();
  return {
    env: { DATABASE_URL: url },
    open: async () => openDatabase({ kind: "postgres", url, poolSize: 1 }),
    dispose: drop,
  };
}

async function inspect<T>(target: CliTarget, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await target.open();
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const storedRows = (database: Database) =>
  database.query<{
    points_type: string;
    block_number: string;
    vault: string;
    receiver: string;
    receiver_type: string;
    points: string;
  }>(
    `select s.points_type, s.block_number::text as block_number, b.vault, b.receiver, b.receiver_type, b.points::text as points
     from points_balances b join points_snapshots s on s.id = b.snapshot_id
     order by s.points_type, s.block_number, b.vault, b.receiver, b.receiver_type`,
  );

describe.each(databaseKinds)("points command line (%s)", (kind) => {
  let workDir: string;
  let target: CliTarget;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-cli-points-"));
    target = await cliTarget(kind, workDir);
  });

  afterAll(async () => {
    await target?.dispose();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  /** Writes `content` to `fileName` in the work directory and runs `sluice import points` on it with `flags`. */
  const importPoints = (fileName: string, content: string, flags: string[]) => {
    const file = join(workDir, fileName);
    writeFileSync(file, content);
    return runSluice(["import", "points", file, ...flags], target.env);
  };

  it("imports a JSONL snapshot with numbers beyond 2^53, in one transaction", async () => {
    const result = await importPoints(
      "sluice.jsonl",
      [
        `{"receiver_address":"${R1.toUpperCase().replace("0X", "0x")}","receiver_type":"staker","vault_address":"${V1}","points":${HUGE}}`,
        "",
        `{"receiver_address":"${R2}","receiver_type":"operator","vault_address":"${V1}","points":"12","block_number":1}\r`,
        `{"receiver_address":"${R2}","receiver_type":"operator","vault_address":"${V1}","points":"30"}`,
      ].join("\n"),
      ["--type", "sluice", "--block", "100", "--feed-decimals", "48", "--type-decimals", "48"],
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `imported points snapshot sluice@100: 3 rows, 2 receiver rows in 1 vaults, total ${HUGE + 42n} (48 decimals)`,
    );
    expect(await inspect(target, storedRows)).toEqual([
      {
        points_type: "sluice",
        block_number: "100",
        vault: V1,
        receiver: R1,
        receiver_type: "staker",
        points: HUGE.toString(),
      },
      {
        points_type: "sluice",
        block_number: "100",
        vault: V1,
        receiver: R2,
        receiver_type: "operator",
        points: "42",
      },
    ]);
  });

  it("imports a CSV snapshot (quoted fields, any column order, extra columns)", async () => {
    const result = await importPoints(
      "partner.csv",
      [
        "vault_address,points,receiver_address,receiver_type,note",
        `${V2},5,${R1},"staker, early","a ""quoted"" note"`,
        `${V2}, 7 ,${R2},network,`,
      ].join("\n"),
      ["--type", "partner", "--block", "200", "--feed-decimals", "18", "--type-decimals", "18"],
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const rows = await inspect(target, storedRows);
    expect(rows.filter((row) => row.points_type === "partner")).toEqual([
      {
        points_type: "partner",
        block_number: "200",
        vault: V2,
        receiver: R1,
        receiver_type: "staker, early",
        points: "5",
      },
      {
        points_type: "partner",
        block_number: "200",
        vault: V2,
        receiver: R2,
        receiver_type: "network",
        points: "7",
      },
    ]);
  });

  it("rejects a bad row by line and reason and writes nothing", async () => {
    const badAddress = await importPoints(
      "bad.csv",
      [
        "receiver_address,receiver_type,vault_address,points",
        `${R1},staker,${V1},1`,
        `${R2},staker,${V1},2`,
        `0x1234,staker,${V1},3`,
      ].join("\n"),
      ["--type", "fresh", "--block", "1", "--feed-decimals", "6", "--type-decimals", "6"],
    );
    expect(badAddress.code).toBe(1);
    expect(badAddress.stderr).toContain("line 4: receiver_address: must be 0x followed by 40 hex characters");

    const fraction = await importPoints(
      "bad.jsonl",
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":"1"}\n` +
        `{"receiver_address":"${R2}","receiver_type":"staker","vault_address":"${V1}","points":1.5}\n`,
      ["--type", "fresh", "--block", "1", "--feed-decimals", "6", "--type-decimals", "6"],
    );
    expect(fraction.code).toBe(1);
    expect(fraction.stderr).toContain(
      "line 2: points: amount has more than 6 decimals and cannot be stored exactly",
    );

    const existing = await importPoints(
      "dup.jsonl",
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":"1"}\n`,
      ["--type", "sluice", "--block", "100", "--feed-decimals", "48"],
    );
    expect(existing.code).toBe(1);
    expect(existing.stderr).toContain("sluice already has a snapshot at block 100");

    // Only the two snapshots imported above; the refused imports left not even their new type behind.
    const after = await inspect(target, async (database) => ({
      snapshots: await database.query(
        "select points_type, block_number::text as block from points_snapshots order by id",
      ),
      types: await database.query("select name from points_types order by name"),
    }));
    expect(after).toEqual({
      snapshots: [
        { points_type: "sluice", block: "100" },
        { points_type: "partner", block: "200" },
      ],
      types: [{ name: "partner" }, { name: "sluice" }],
    });
  });

  it("imports whole points into a type with decimals, exactly", async () => {
    const result = await importPoints(
      "whole.jsonl",
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":1.5}\n`,
      ["--type", "whole", "--block", "1", "--feed-decimals", "0", "--type-decimals", "18"],
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const rows = await inspect(target, storedRows);
    expect(rows.filter((row) => row.points_type === "whole").map((row) => row.points)).toEqual([
      (15n * 10n ** 17n).toString(),
    ]);

    // The type exists now: --type-decimals may be left out, and must match when given.
    const mismatch = await importPoints(
      "whole2.jsonl",
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":2}\n`,
      ["--type", "whole", "--block", "2", "--feed-decimals", "0", "--type-decimals", "6"],
    );
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain("points type whole has 18 decimals, not 6");
    const fresh = await importPoints(
      "whole3.jsonl",
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":2}\n`,
      ["--type", "brand-new", "--block", "2", "--feed-decimals", "0"],
    );
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain("points type brand-new is new: give its decimals (--type-decimals)");
  });

  it("refuses a bare --decimals, naming both flags, and a run without --feed-decimals", async () => {
    const file = join(workDir, "ambiguous.jsonl");
    writeFileSync(
      file,
      `{"receiver_address":"${R1}","receiver_type":"staker","vault_address":"${V1}","points":1}\n`,
    );
    const runs = await Promise.all([
      runSluice(["import", "points", file, "--type", "amb", "--block", "1", "--decimals", "18"], target.env),
      runSluice(["points", "sync", "http://127.0.0.1:9", "--type", "amb", "--decimals", "0"], target.env),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("--decimals is ambiguous and no longer accepted");
      expect(run.stderr).toContain("--feed-decimals <d>");
      expect(run.stderr).toContain("--type-decimals <d>");
    }
    const missing = await Promise.all([
      runSluice(
        ["import", "points", file, "--type", "amb", "--block", "1", "--type-decimals", "18"],
        target.env,
      ),
      runSluice(["points", "sync", "http://127.0.0.1:9", "--type", "amb"], target.env),
    ]);
    for (const run of missing) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("required option '--feed-decimals <d>' not specified");
    }
    const types = await inspect(target, (database) =>
      database.query("select name from points_types where name = 'amb'"),
    );
    expect(types).toEqual([]);
  });

  it("syncs from a points-template feed, detecting its shape and saying so", async () => {
    const server: Server = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      if (request.url === "/api/last_block")
        return response.end('{"last_block_number": 300, "timestamp": 1}');
      if (request.url === "/api/all?block_number=300&offset=0&limit=50") {
        return response.end(
          `[{"receiver_address":"${R1}","receiver_type":"staker","block_number":300,"network_address":null,` +
            `"vault_address":"${V1}","points":123456789012345678901234.5}]`,
        );
      }
      response.statusCode = 404;
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      const result = await runSluice(
        ["points", "sync", url, "--type", "synced", "--feed-decimals", "0", "--page-size", "50"],
        target.env,
      );
      expect(result.stderr).toBe(
        `feed format: points-template (detected at ${url}/api/last_block)\noffset 0: 1 rows (1 staged)\n`,
      );
      expect(result.code).toBe(0);
      const points = 1234567890123456789012345n * 10n ** 17n;
      expect(result.stdout).toBe(
        `synced synced@300: 1 rows, 1 receiver rows in 1 vaults, total ${points} (18 decimals)\n`,
      );
      const rows = await inspect(target, storedRows);
      expect(rows.filter((row) => row.points_type === "synced").map((row) => row.points)).toEqual([
        points.toString(),
      ]);

      const named = await runSluice(
        [
          "points",
          "sync",
          url,
          "--type",
          "synced",
          "--feed-decimals",
          "0",
          "--feed-format",
          "points-template",
        ],
        target.env,
      );
      expect(named).toMatchObject({ code: 0, stderr: "feed format: points-template\n" });
      expect(named.stdout).toBe("synced is up to date at block 300\n");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
