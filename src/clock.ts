// Wall-clock time as a dependency, so quote expiry and lifecycle code can be tested without sleeping (tests move a
// ManualClock, test/support/clock.ts).

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
