// Promises tests open by hand, to hold work at a known point and release it when the test says.

/** A promise (`opened`) that resolves when the test calls `open()`. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Whether `promise` settles within `ms` milliseconds. */
export function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

/** Polls `condition` every `intervalMs` until it holds; throws "timed out: <what>" after `timeoutMs`. */
export async function eventually(
  condition: () => Promise<boolean> | boolean,
  what: string,
  { timeoutMs = 15_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A request held unanswered: `reached` resolves when it arrives; `release()` lets it go on. */
export interface HeldRequest {
  reached: Promise<void>;
  release(): void;
}
