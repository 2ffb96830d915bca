// The shipped Prometheus alerts (deploy/prometheus/alerts.yml): promtool checks the file and runs its unit tests
// (alerts.test.yml: each alert fires when it should and stays quiet when it should not), and every metric an alert
// names is one Sluice exports. promtool is Debian's `prometheus` package (.ci/run installs it); without it this file
// fails, it never skips.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packagePath } from "../../src/package-root.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";

const RULES_DIR = packagePath("deploy", "prometheus");

function promtool(): string {
  const path = process.env.PROMTOOL_PATH ?? "promtool";
  const found = spawnSync(path, ["--version"], { encoding: "utf8" });
  if (found.error || found.status !== 0)
    throw new Error(
      `promtool not found (${path}): install Debian's prometheus package (apt-get install prometheus) or set PROMTOOL_PATH`,
    );
  return path;
}

function run(args: string[]): string {
  const path = promtool();
  try {
    return execFileSync(path, args, { cwd: RULES_DIR, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(" ")} failed:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
  }
}

describe("the Prometheus alerts", () => {
  it("are valid rules", () => {
    expect(run(["check", "rules", "alerts.yml"])).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("pass their promtool unit tests", () => {
    expect(run(["test", "rules", "alerts.test.yml"])).toContain("SUCCESS");
  });

  it("alert on every case the operators' guide promises", () => {
    const names = [...readFileSync(join(RULES_DIR, "alerts.yml"), "utf8").matchAll(/- alert: (\w+)/g)].map(
      (match) => match[1],
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "SluiceChainFollowerLagging",
        "SluiceNoChainHead",
        "SluiceHttp5xxRate",
        "SluiceFadeBreakerFloor",
        "SluiceOrdersPastDeadline",
      ]),
    );
    // Each alert has a unit test that expects it to fire.
    const tests = readFileSync(join(RULES_DIR, "alerts.test.yml"), "utf8");
    for (const name of names)
      expect(tests, name).toMatch(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n`));
  });

  it("name only metrics a Sluice with a deployment exports", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const { sluice } = await createTestServer(database, {
        deployment: unstartedDeployment(placeholderDeployment()),
      });
      const exported = new Set(
        (await sluice.internalHttp.inject({ url: "/metrics" })).body
          .split("\n")
          .flatMap((line) => /^# TYPE (\S+) /.exec(line)?.[1] ?? []),
      );
      const rules = readFileSync(join(RULES_DIR, "alerts.yml"), "utf8");
      const named = new Set(
        [...rules.matchAll(/\b(sluice_[a-z_]+)\b/g)]
          .map((match) => match[1]!)
          .filter((name) => !name.endsWith("_")),
      );
      expect(named.size).toBeGreaterThan(5);
      expect([...named].filter((name) => !exported.has(name))).toEqual([]);
      await sluice.stop();
    } finally {
      await database.close();
    }
  });
});
