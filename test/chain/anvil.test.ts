// The anvil process helper: concurrent anvils bind different ports and write only their own state files, state
// survives a stop/start through `--state`, and anvil does not outlive its parent process.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, createTestClient, http, parseEther } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { anvilArgs, startAnvil } from "../../src/devnet/anvil.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/anvil-child.ts", import.meta.url));
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sluice-anvil-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process is gone when /proc has no entry for it or it is a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

function clients(rpcUrl: string) {
  return {
    public: createPublicClient({ transport: http(rpcUrl), cacheTime: 0 }),
    test: createTestClient({ mode: "anvil", transport: http(rpcUrl) }),
  };
}

describe("startAnvil", () => {
  it("builds its arguments from the options, always on an ephemeral port", () => {
    expect(anvilArgs({ blockTime: 1, stateFile: "/x/state.json", chainId: 5 })).toEqual([
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--block-time",
      "1",
      "--state",
      "/x/state.json",
      "--chain-id",
      "5",
    ]);
    expect(anvilArgs()).not.toContain("--silent");
  });

  it("runs anvils side by side on different ports with their own state files", async () => {
    const dir = tempDir();
    const files = [join(dir, "a.json"), join(dir, "b.json")];
    const anvils = await Promise.all(
      files.map((stateFile, i) => startAnvil({ stateFile, chainId: 31337 + i })),
    );
    try {
      expect(new Set(anvils.map((a) => a.port)).size).toBe(2);
      const ids = await Promise.all(anvils.map((a) => clients(a.rpcUrl).public.getChainId()));
      expect(ids).toEqual([31337, 31338]);
      // Each chain is its own: a balance set on one does not appear on the other.
      const who = "0x00000000000000000000000000000000000000aa";
      await clients(anvils[0]!.rpcUrl).test.setBalance({ address: who, value: parseEther("7") });
      expect(await clients(anvils[1]!.rpcUrl).public.getBalance({ address: who })).toBe(0n);
    } finally {
      await Promise.all(anvils.map((a) => a.stop()));
    }
    expect(files.every(existsSync)).toBe(true);
    expect(readFileSync(files[0]!, "utf8")).not.toBe(readFileSync(files[1]!, "utf8"));
  });

  it("keeps the chain across a stop and a start with the same state file", async () => {
    const stateFile = join(tempDir(), "state.json");
    const who = "0x00000000000000000000000000000000000000bb";
    const first = await startAnvil({ stateFile });
    const c1 = clients(first.rpcUrl);
    await c1.test.setBalance({ address: who, value: parseEther("3") });
    await c1.test.mine({ blocks: 5 });
    const height = await c1.public.getBlockNumber();
    await first.stop();
    await first.stop(); // idempotent
    expect(first.process.exitCode !== null || first.process.signalCode !== null).toBe(true);

    const second = await startAnvil({ stateFile });
    try {
      const c2 = clients(second.rpcUrl);
      expect(await c2.public.getBalance({ address: who })).toBe(parseEther("3"));
      expect(await c2.public.getBlockNumber()).toBeGreaterThanOrEqual(height);
    } finally {
      await second.stop();
    }
  });

  it("mines on its own with blockTime", async () => {
    const anvil = await startAnvil({ blockTime: 1 });
    try {
      const c = clients(anvil.rpcUrl).public;
      const start = await c.getBlockNumber();
      await new Promise((r) => setTimeout(r, 2_200));
      expect(await c.getBlockNumber()).toBeGreaterThan(start);
    } finally {
      await anvil.stop();
    }
  });

  it("reports a failed start with anvil's output", async () => {
    await expect(startAnvil({ args: ["--no-such-flag"], startTimeoutMs: 10_000 })).rejects.toThrow(
      /anvil exited/,
    );
  });

  describe("does not outlive its parent", () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    });

    async function parentWithAnvil(mode: "exit" | "wait") {
      const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, mode], {
        cwd: REPO_ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push(child);
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve(out.trim());
        });
        child.once("exit", (code) => reject(new Error(`fixture exited (${code}) before printing: ${out}`)));
      });
      const [pid] = line.split(" ");
      return { child, anvilPid: Number(pid) };
    }

    it("when the parent exits without stopping it", async () => {
      const { anvilPid } = await parentWithAnvil("exit");
      expect(await waitUntilGone(anvilPid, 10_000)).toBe(true);
    });

    it("when the parent is killed with SIGKILL", async () => {
      const { child, anvilPid } = await parentWithAnvil("wait");
      expect(isAlive(anvilPid)).toBe(true);
      child.kill("SIGKILL");
      expect(await waitUntilGone(anvilPid, 10_000)).toBe(true);
    });
  });
});
