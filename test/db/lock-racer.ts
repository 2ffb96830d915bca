// A process that takes a data directory's lock (run by data-dir-lock.test.ts with `node --import tsx`). It prints
// `won` or `lost <message>`, holds what it won until its stdin closes, then releases it and exits.
//
// With `--barrier <dir> --racers <n>`, it waits after its first read of the lock file until all n racers have read
// it: every racer then works from the same stale lock, the interleaving that would let two of them win if taking a
// stale lock over were not atomic. The wait hooks the real readFileSync; the lock code itself is unchanged.
import fs, { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    barrier: { type: "string" },
    racers: { type: "string" },
  },
});
const dataDir = values["data-dir"]!;
const barrier = values.barrier;
const racers = Number(values.racers ?? "1");

if (barrier) {
  const lockFile = `${dataDir}.lock`;
  const readFileSync = fs.readFileSync;
  let arrived = false;
  fs.readFileSync = ((path: fs.PathOrFileDescriptor, options?: unknown) => {
    const result = readFileSync(path, options as never);
    if (!arrived && path === lockFile) {
      arrived = true;
      mkdirSync(barrier, { recursive: true });
      writeFileSync(join(barrier, String(process.pid)), "");
      const sleeper = new Int32Array(new SharedArrayBuffer(4));
      while (readdirSync(barrier).length < racers) Atomics.wait(sleeper, 0, 0, 2);
    }
    return result;
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
}

// Imported after the hook so that its `readFileSync` binding is the hooked one.
const { acquireDataDirLock } = await import("../../src/db/data-dir-lock.ts");
let release = () => {};
try {
  release = acquireDataDirLock(dataDir).release;
  process.stdout.write("won\n");
} catch (error) {
  process.stdout.write(`lost ${(error as Error).message}\n`);
}
process.stdin.on("end", () => {
  release();
  process.exit(0);
});
process.stdin.resume();
