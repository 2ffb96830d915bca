// `<DATA_DIR>/devnet/processes.json`: the processes a running devnet started (anvil and its watchdog) and the server
// that owns them, each as /proc knew it. A server killed with SIGKILL cannot stop its children; its watchdog stops
// anvil within a second, but if the watchdog died too, or the next start comes first, that anvil still runs on the
// same state file. So every start reads the record, checks that each process is the one recorded (PID, boot, start
// time, command line: PIDs are reused) and stops it — anvil with SIGINT, so that it writes its state — before
// starting its own. A record whose owner still runs means another server uses this devnet: the start stops there.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import {
  isRunning,
  type ProcessIdentity,
  readProcessIdentity,
  waitUntilExited,
} from "../process/identity.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";

/** How long a leftover anvil gets to write its state and exit after SIGINT before it is killed. */
const ANVIL_EXIT_TIMEOUT_MS = 15_000;

const ProcessIdentitySchema = z
  .object({
    pid: z.number().int().min(1),
    host: z.string().min(1),
    bootId: z.string().min(1).nullable(),
    startTime: z.string().regex(/^\d+$/).nullable(),
    cmdline: z.string().nullable(),
  })
  .strict();

const ChildSchema = z
  .object({
    role: z.string().min(1),
    /** How this child is asked to stop: anvil writes its state on SIGINT. */
    stopSignal: z.enum(["SIGINT", "SIGTERM", "SIGKILL"]),
    process: ProcessIdentitySchema,
  })
  .strict();

const ProcessesRecordSchema = z
  .object({ owner: ProcessIdentitySchema, children: z.array(ChildSchema) })
  .strict();

export type DevnetChild = z.infer<typeof ChildSchema>;

/** Another server runs the devnet of this data directory. */
export class DevnetInUseError extends Error {
  override name = "DevnetInUseError";
  constructor(
    readonly dir: string,
    readonly owner: ProcessIdentity,
  ) {
    super(
      `the devnet in ${dir} is in use by process ${owner.pid} (${owner.cmdline}); ` +
        "stop that server first, or use another DATA_DIR",
    );
  }
}

/** Records this process as the owner of `children`, replacing any earlier record. */
export function recordDevnetProcesses(
  path: string,
  children: ReadonlyArray<{ role: string; stopSignal: DevnetChild["stopSignal"]; pid: number | undefined }>,
): void {
  const owner = readProcessIdentity(process.pid);
  if (!owner) return;
  const recorded = children.flatMap(({ pid, ...child }) => {
    const identity = pid === undefined ? undefined : readProcessIdentity(pid);
    return identity ? [{ ...child, process: identity }] : [];
  });
  writeJsonAtomically(path, { owner, children: recorded });
}

/** Removes the record once this process has stopped its children itself. */
export function clearDevnetProcesses(path: string): void {
  const record = readRecord(path);
  if (record?.owner.pid === process.pid) rmSync(path, { force: true });
}

/**
 * Stops what a previous run left running (see the file comment). Throws DevnetInUseError when the recorded owner,
 * another process, still runs; a record that cannot be read is ignored.
 */
export async function stopLeftoverProcesses(path: string, dir: string, logger: Logger): Promise<void> {
  const record = readRecord(path);
  if (!record) return;
  if (record.owner.pid !== process.pid && isRunning(record.owner))
    throw new DevnetInUseError(dir, record.owner);
  // The watchdog first, so that it does not signal the anvil being stopped here as well.
  const children = [...record.children].sort((a, b) => stopOrder(a) - stopOrder(b));
  for (const child of children) {
    if (!isRunning(child.process)) continue;
    logger.warn(
      { role: child.role, pid: child.process.pid, signal: child.stopSignal },
      "devnet: stopping a process a previous run left behind",
    );
    signal(child.process.pid, child.stopSignal);
    const timeoutMs = child.stopSignal === "SIGKILL" ? 5_000 : ANVIL_EXIT_TIMEOUT_MS;
    if (!(await waitUntilExited(child.process, timeoutMs))) {
      signal(child.process.pid, "SIGKILL");
      await waitUntilExited(child.process, 5_000);
    }
  }
  rmSync(path, { force: true });
}

/** Sends `name` to `pid`; a process that exited meanwhile is what was wanted. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function stopOrder(child: DevnetChild): number {
  return child.stopSignal === "SIGINT" ? 1 : 0;
}

function readRecord(path: string): z.infer<typeof ProcessesRecordSchema> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const parsed = ProcessesRecordSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
