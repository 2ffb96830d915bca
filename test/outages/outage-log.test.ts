// An outage is two log lines, whatever happens in between: one warning when it starts, one when it ends, per kind.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../src/db/unavailable.ts";
import { failureLevel, OutageLog, outageOf } from "../../src/outages.ts";

describe("OutageLog", () => {
  it("warns once when an outage starts and once when it ends, with how long and how many failures", () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let now = 1000;
    const log = new OutageLog(logger, "chain", { chain: "anvil" }, () => now);
    log.succeeded();
    expect(lines).toEqual([]);
    for (let i = 0; i < 50; i++) log.failed(new Error(`refused ${i}`));
    expect(log.down).toBe(true);
    now = 4000;
    log.succeeded();
    log.succeeded();
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [40, "chain unavailable: outage started"],
      [40, "chain available again: outage ended"],
    ]);
    expect(lines[0]).toMatchObject({ outage: "chain", chain: "anvil", err: { message: "refused 0" } });
    expect(lines[1]).toMatchObject({ outage: "chain", downMs: 3000, failures: 50 });
    // The next outage is told again.
    log.failed(new Error("again"));
    expect(lines).toHaveLength(3);
  });

  it("lets the places that meet an outage's failures log them at debug", () => {
    const wrapped = new Error("query failed", {
      cause: new DatabaseUnavailableError("database unavailable: Connection terminated unexpectedly"),
    });
    expect(outageOf(wrapped)).toBe("database");
    expect(failureLevel(wrapped, "warn")).toBe("debug");
    expect(failureLevel(new Error("a bug"), "error")).toBe("error");
  });
});
