// The Node flags Sluice's server runs with (bin/sluice.mjs's shebang: a larger young generation, see there) are the
// same whichever way it is started: the bin itself (`sluice`, `npx sluice`), the npm scripts (`npm start`,
// `npm run sluice`), and the process-manager command docs/operators.md gives. And they take effect: run through the
// shebang as the kernel runs it, Node accepts them and carries them in process.execArgv.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SLUICE_BIN } from "../support/cli.ts";

const SHEBANG = /^#!\/usr\/bin\/env -S node((?: --[a-z-]+=\S+)+)\n/;

function binFlags(): string {
  const match = SHEBANG.exec(readFileSync(SLUICE_BIN, "utf8"));
  if (!match) throw new Error("bin/sluice.mjs does not start with `#!/usr/bin/env -S node --flag=value …`");
  return match[1]!.trim();
}

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the server's Node flags", () => {
  it("are the bin's shebang, and the npm scripts and the process-manager command pass the same", () => {
    const flags = binFlags();
    expect(flags).toContain("--max-semi-space-size=");
    const scripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts;
    expect(scripts.start).toBe(`node ${flags} bin/sluice.mjs serve`);
    expect(scripts.sluice).toBe(`node ${flags} bin/sluice.mjs`);
    const operators = readFileSync(join(REPO_ROOT, "docs", "operators.md"), "utf8");
    expect(operators).toContain(`\`node ${flags} bin/sluice.mjs serve\``);
  });

  it("take effect when the bin runs through its shebang", async () => {
    // The kernel hands env the rest of the shebang line as one argument; env -S splits it.
    const shebangLine = readFileSync(SLUICE_BIN, "utf8").split("\n")[0]!;
    const envArgument = shebangLine.slice("#!/usr/bin/env ".length);
    const folder = mkdtempSync(join(tmpdir(), "sluice-node-flags-"));
    try {
      const script = join(folder, "probe.mjs");
      writeFileSync(script, "console.log(JSON.stringify(process.execArgv));\n");
      const probe = await run("/usr/bin/env", [envArgument, script]);
      expect(probe.stderr).toBe("");
      expect(probe.code).toBe(0);
      expect(JSON.parse(probe.stdout)).toEqual(binFlags().split(" "));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // And the file itself is executable through it.
    const help = await run(SLUICE_BIN, ["help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: sluice");
  });
});
