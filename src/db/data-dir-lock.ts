// One process at a time per embedded (PGlite) data directory. PGlite runs PostgreSQL inside the process in
// single-user mode: a second process on the same directory neither sees the first one's buffers nor knows it
// exists, so what it writes is lost or corrupts the directory. The process that opens a directory holds a lock file
// beside it (`<dir>.lock`) naming itself; every other process is refused until the holder releases it (on close, or
// at exit). A lock whose holder is gone from this host (its PID free, or reused by a process started at another
// time) is stale and is taken over.
//
// Atomic: a lock file is written in full under a private name and published with link(2), which fails when the name
// exists, so two processes never both create it. Replacing a stale lock takes one more such step: only the process
// that creates `<dir>.lock.takeover-<stale token>` may delete that stale lock, so of two processes finding the same
// stale lock one replaces it and the other then finds the winner's live lock.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { currentProcessIdentity, type ProcessIdentity, processState } from "../process/identity.ts";

export interface DataDirLockHolder extends ProcessIdentity {
  /** Unique per acquisition: tells one holder's lock file from the next one's. */
  token: string;
  /** What the holder runs, e.g. `sluice.mjs serve`. */
  command: string;
  acquiredAt: string;
}

export interface DataDirLock {
  /** The locked directory (absolute). */
  readonly dataDir: string;
  readonly file: string;
  /** Deletes the lock file if it is still this process's. Idempotent. */
  release(): void;
}

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    /** Null when the lock file names no holder this version can read. */
    readonly holder: DataDirLockHolder | null,
  ) {
    super(lockedMessage(dataDir, lockFile, holder));
  }
}

/** Where the lock of `dataDir` lives: beside it, so the directory itself holds nothing but the database. */
export function dataDirLockFile(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

/** Takes the lock of `dataDir` or throws DataDirLockedError naming its holder. Touches nothing else. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  const file = dataDirLockFile(dir);
  mkdirSync(dirname(file), { recursive: true });
  const record: DataDirLockHolder = {
    ...currentProcessIdentity(),
    token: randomBytes(8).toString("hex"),
    command: [basename(process.argv[1] ?? "node"), ...process.argv.slice(2)].join(" ").slice(0, 200),
    acquiredAt: new Date().toISOString(),
  };
  const claim = claimFile(file, record);
  if (!claim.claimed) throw new DataDirLockedError(dir, file, claim.holder);
  const lock: DataDirLock = {
    dataDir: dir,
    file,
    release() {
      if (held.delete(lock)) releaseFile(file, record.token);
    },
  };
  held.add(lock);
  releaseAtExit();
  return lock;
}

type Claim = { claimed: true } | { claimed: false; holder: DataDirLockHolder | null };

// A live process replacing a stale lock holds its takeover file for a few file operations; wait that long at most.
const MAX_ATTEMPTS = 200;
const RETRY_MS = 5;

function claimFile(file: string, record: DataDirLockHolder): Claim {
  const staged = `${file}.${record.token}.tmp`;
  writeFileSync(staged, `${JSON.stringify(record)}\n`, { flag: "wx" });
  try {
    let holder: DataDirLockHolder | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (publish(staged, file)) return { claimed: true };
      const found = readHolder(file);
      // Released between the two calls: try again.
      if (found === "missing") continue;
      holder = found;
      if (!holder || processState(holder) !== "gone") return { claimed: false, holder };
      const takeover = `${file}.takeover-${holder.token}`;
      if (!claimFile(takeover, record).claimed) {
        pause(RETRY_MS);
        continue;
      }
      try {
        // Still the stale lock? Only a takeover (which needs the file just claimed) could have replaced it.
        const current = readHolder(file);
        if (current !== "missing" && current?.token === holder.token) removeFile(file);
      } finally {
        releaseFile(takeover, record.token);
      }
    }
    return { claimed: false, holder };
  } finally {
    removeFile(staged);
  }
}

function publish(staged: string, file: string): boolean {
  try {
    linkSync(staged, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function readHolder(file: string): DataDirLockHolder | null | "missing" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<DataDirLockHolder>;
    // The token names a takeover file and the PID is signalled (signal 0) where there is no /proc: both checked.
    const valid =
      Number.isSafeInteger(value.pid) &&
      value.pid! > 0 &&
      typeof value.token === "string" &&
      /^[0-9a-f]{1,64}$/.test(value.token) &&
      typeof value.host === "string";
    return valid ? (value as DataDirLockHolder) : null;
  } catch {
    return null;
  }
}

function releaseFile(file: string, token: string): void {
  const holder = readHolder(file);
  if (holder !== "missing" && holder?.token === token) removeFile(file);
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Locks this process holds, released at exit when their database was never closed (process.exit after an error).
const held = new Set<DataDirLock>();
let exitHookInstalled = false;

function releaseAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const lock of held) lock.release();
  });
}

function lockedMessage(dataDir: string, lockFile: string, holder: DataDirLockHolder | null): string {
  const sharing = "or use PostgreSQL (DATABASE_URL), which many processes can share";
  if (!holder)
    return (
      `the embedded database in ${dataDir} is locked by ${lockFile}, which names no process this version can ` +
      "check: if no process uses the directory, delete that file"
    );
  const who = `process ${holder.pid} (${holder.command}, since ${holder.acquiredAt})`;
  if (processState(holder) === "elsewhere")
    return (
      `the embedded database in ${dataDir} is in use by ${who} on host ${holder.host}, which this host cannot ` +
      `check: if that process is gone, delete ${lockFile}; ${sharing}`
    );
  return (
    `the embedded database in ${dataDir} is in use by ${who}${holder.pid === process.pid ? ", this very process" : ""}: ` +
    `PGlite allows one process per data directory. Stop that process first (run imports and migrations while the ` +
    `server is stopped), ${sharing}. Nothing was written`
  );
}
