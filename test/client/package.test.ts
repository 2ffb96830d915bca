// @sluice/client as a wallet developer gets it: `npm pack` of packages/client, installed with viem into an empty
// project of its own (nothing of Sluice's clone reachable), the README's example type-checked there under
// `tsc --strict` and run against a fresh devnet until its order fills.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { REPO_ROOT } from "../support/cli.ts";

const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, maxBuffer: 16 * 1024 * 1024 });

/** The README's TypeScript example: its one `ts` code block that imports @sluice/client. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const examples = blocks.filter((block) => block.includes('from "@sluice/client"'));
  expect(examples).toHaveLength(1);
  return examples[0]!;
}

describe("@sluice/client, packed and installed into an empty project with only viem", () => {
  const dataDir = temporaryDataDir();
  const packDir = temporaryDataDir();
  const appDir = temporaryDataDir();
  let devnet: DevnetSluice;
  let tarball: string;
  beforeAll(async () => {
    const [started] = await Promise.all([
      startTestDevnet(dataDir.path),
      npm(["pack", "--workspace", "@sluice/client", "--pack-destination", packDir.path], REPO_ROOT),
    ]);
    devnet = started;
    tarball = join(packDir.path, readdirSync(packDir.path).find((name) => name.endsWith(".tgz"))!);
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    for (const dir of [dataDir, packDir, appDir]) dir.remove();
  });

  it("packs its build, its README and its manifest alone, with viem as its only (peer) dependency", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    expect(files).toContain("package/README.md");
    expect(
      files.filter((file) => !/^package\/(dist\/[\w.-]+\.(js|d\.ts)|README\.md|package\.json)$/.test(file)),
    ).toEqual([]);
    const { stdout: manifest } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
    const packed = JSON.parse(manifest);
    expect(packed.name).toBe("@sluice/client");
    expect(packed.dependencies).toBeUndefined();
    expect(Object.keys(packed.peerDependencies)).toEqual(["viem"]);
  });

  it("installs beside the app's own viem (one copy), and the README's example compiles under tsc --strict and fills a swap", async () => {
    const viemVersion = JSON.parse(
      readFileSync(join(REPO_ROOT, "node_modules", "viem", "package.json"), "utf8"),
    ).version;
    writeFileSync(
      join(appDir.path, "package.json"),
      JSON.stringify({ name: "app", private: true, type: "module" }),
    );
    await npm(["install", "--prefer-offline", `viem@${viemVersion}`, tarball], appDir.path);
    const modules = join(appDir.path, "node_modules");
    expect(existsSync(join(modules, "@sluice", "client", "dist", "index.js"))).toBe(true);
    // One viem: the client's types are the app's, so a viem account is accepted where the client wants a signer.
    expect(existsSync(join(modules, "@sluice", "client", "node_modules"))).toBe(false);
    // Nothing of the server came along.
    for (const serverPackage of ["fastify", "pg", "@electric-sql", "drizzle-orm", "esbuild"])
      expect(existsSync(join(modules, serverPackage)), serverPackage).toBe(false);

    const example = readmeExample().replace("http://localhost:8080/api/v1", devnet.apiUrl);
    expect(example).toContain(devnet.apiUrl);
    writeFileSync(join(appDir.path, "index.ts"), example);
    writeFileSync(
      join(appDir.path, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          // fetch's and console's types from the DOM library: the app has no @types/node.
          lib: ["ES2022", "DOM"],
          types: [],
          strict: true,
          // viem's own declarations are not what is judged here (only the app's file is), and are slow to check.
          skipLibCheck: true,
          outDir: "out",
        },
        files: ["index.ts"],
      }),
    );
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    await run(process.execPath, [tsc, "-p", appDir.path], { cwd: appDir.path }).catch((error) => {
      throw new Error(`the README's example does not compile:\n${error.stdout}${error.stderr}`);
    });

    const { stdout } = await run(process.execPath, [join("out", "index.js")], {
      cwd: appDir.path,
      env: { PATH: process.env.PATH ?? "" },
      timeout: 90_000,
    });
    expect(stdout).toMatch(/^filled 0x[0-9a-f]{64} \[/);
  }, 240_000);
});
