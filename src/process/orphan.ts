// A server started by npm (`npm start`, `npm run sluice -- serve`, npx) belongs to that npm process. npm 11 does not
// pass SIGTERM on to its child: stopped alone, npm exits and the server would run on as an orphan, its parent now
// init. Watching its parent PID is how the server notices. A server started any other way (a shell with nohup, a
// supervisor, a container) may outlive its parent on purpose and is not watched.

export interface ParentWatchOptions {
  /** Called once, with the PID the parent had, when the parent PID changes. */
  onOrphaned: (parentPid: number) => void;
  /** How often the parent PID is read (default 1000 ms). */
  intervalMs?: number;
  /** The current parent PID (default `process.ppid`, which asks the kernel each time). */
  parentPid?: () => number;
}

/** Watches the parent PID until it changes (then calls `onOrphaned`) or the returned function stops the watch. */
export function watchParent(options: ParentWatchOptions): () => void {
  const parentPid = options.parentPid ?? (() => process.ppid);
  const original = parentPid();
  const timer = setInterval(() => {
    if (parentPid() === original) return;
    clearInterval(timer);
    options.onOrphaned(original);
  }, options.intervalMs ?? 1000);
  // The watch alone never keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether this process runs as (or under) an npm script or npx: npm sets `npm_lifecycle_event` for them. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.npm_lifecycle_event);
}
