// A clock tests move by hand: quote expiry, cache staleness and the lifecycle are tested without sleeping.
import type { Clock } from "../../src/clock.ts";

export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.#ms = typeof start === "number" ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(at: Date | number): void {
    this.#ms = typeof at === "number" ? at : at.getTime();
  }
}
