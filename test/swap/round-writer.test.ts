// QuoteRoundWriter: rounds answered within the batch window are stored in one statement, a POST /order (or a
// GET /auctions) waiting for one of them flushes its batch at once, a batch that fails for another reason than the
// database is retried round by round (only the bad round is lost, and logged), rounds the database could not take
// are kept and written again with backoff until it is back or their quotes expire (one warning per outage), and
// draining writes everything queued or kept.

import { describe, expect, it } from "vitest";
import { asClientFailure, DatabaseUnavailableError } from "../../src/db/unavailable.ts";
import type { QuoteRound } from "../../src/swap/quote-round-statement.ts";
import { QuoteRoundWriter, type QuoteRoundWriterOptions } from "../../src/swap/round-writer.ts";
import { ManualClock } from "../support/clock.ts";
import { eventually } from "../support/gates.ts";

const NOW_MS = Date.UTC(2026, 10, 21, 12, 0, 0);
/** The deadline of a quote issued at NOW_MS. */
const DEADLINE = NOW_MS / 1000 + 120;

function round(requestId: string, quoteIds: string[], deadline = DEADLINE): QuoteRound {
  return {
    request: { requestId } as QuoteRound["request"],
    answers: [],
    entries: quoteIds.map((quoteId) => ({ quoteId, requestId, deadline }) as QuoteRound["entries"][number]),
  };
}

/** What node-postgres throws when the server refuses connections. */
/** What the database client raises when it cannot connect (src/db/unavailable.ts classifies it there). */
function refused(): unknown {
  return asClientFailure(
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
  );
}

/**
 * A save that records each statement's rounds (by request id), fails any batch holding a "bad" round, and fails
 * every statement as an unreachable database would while `down` is set.
 */
function recordingSave(delayMs = 0) {
  const state = {
    statements: [] as string[][],
    /** Statements that failed because the database was down. */
    refused: 0,
    down: false,
    save: async (rounds: readonly QuoteRound[]) => {
      const ids = rounds.map((r) => r.request.requestId);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (state.down) {
        state.refused++;
        throw refused();
      }
      state.statements.push(ids);
      if (ids.includes("bad")) throw new Error("duplicate key");
    },
  };
  return state;
}

function recordingLogger() {
  const lines: Array<{ level: "error" | "warn" | "info"; msg: string; fields: Record<string, unknown> }> = [];
  const at = (level: "error" | "warn" | "info") => (fields: Record<string, unknown>, msg: string) =>
    lines.push({ level, msg, fields });
  return {
    lines,
    of: (level: "error" | "warn" | "info") => lines.filter((line) => line.level === level),
    logger: { error: at("error"), warn: at("warn"), info: at("info") } as never,
  };
}

function writerWith(
  save: QuoteRoundWriterOptions["save"],
  options: Partial<QuoteRoundWriterOptions> = {},
): QuoteRoundWriter {
  return new QuoteRoundWriter({
    save,
    logger: recordingLogger().logger,
    clock: new ManualClock(NOW_MS),
    batchWindowMs: 10_000,
    ...options,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("QuoteRoundWriter", () => {
  it("stores the rounds of one window in one statement, later ones in the next", async () => {
    const { statements, save } = recordingSave();
    const writer = writerWith(save, { batchWindowMs: 30 });
    writer.write(round("r1", ["q1"]));
    writer.write(round("r2", ["q2", "q3"]));
    expect(writer.pending).toBe(2);
    expect(statements).toEqual([]);
    await sleep(60);
    writer.write(round("r3", ["q4"]));
    await sleep(60);
    expect(statements).toEqual([["r1", "r2"], ["r3"]]);
    expect(writer.pending).toBe(0);
  });

  it("writes a round's batch at once when its quote is waited for, and settles once it is stored", async () => {
    const { statements, save } = recordingSave(20);
    const writer = writerWith(save);
    writer.write(round("r1", ["q1", "q2"]));
    const started = performance.now();
    await writer.settled("q2");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(statements).toEqual([["r1"]]);
    // Nothing pending for it any more, nor for an id it never had.
    await writer.settled("q2");
    await writer.settled("unknown");
    expect(statements).toEqual([["r1"]]);
  });

  it("writes a round's batch at once when its request id is waited for (GET /auctions), even without entries", async () => {
    const { statements, save } = recordingSave(20);
    const writer = writerWith(save);
    writer.write(round("r1", []));
    const started = performance.now();
    await writer.settledRound("r1");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(statements).toEqual([["r1"]]);
    expect(writer.pending).toBe(0);
    await writer.settledRound("r1");
    await writer.settledRound("unknown");
    expect(statements).toEqual([["r1"]]);
  });

  it("retries a failed batch round by round: only the bad round is lost, and it is logged", async () => {
    const { statements, save } = recordingSave();
    const log = recordingLogger();
    const writer = writerWith(save, { logger: log.logger, batchWindowMs: 5 });
    writer.write(round("r1", ["q1"]));
    writer.write(round("bad", ["q2"]));
    writer.write(round("r3", ["q3"]));
    await writer.settled("q3");
    expect(statements).toEqual([["r1", "bad", "r3"], ["r1"], ["bad"], ["r3"]]);
    expect(log.lines).toEqual([
      {
        level: "error",
        msg: "quote round not stored: its quotes cannot become orders",
        fields: expect.objectContaining({ requestId: "bad" }),
      },
    ]);
  });

  it("drains: writes what is queued now and settles once everything is stored", async () => {
    const { statements, save } = recordingSave(20);
    const writer = writerWith(save);
    writer.write(round("r1", ["q1"]));
    writer.write(round("r2", ["q2"]));
    await writer.drain();
    expect(statements).toEqual([["r1", "r2"]]);
    expect(writer.pending).toBe(0);
  });

  describe("while the database is out of reach", () => {
    it("keeps the rounds and stores them once it is back, with one warning for the outage however many retries", async () => {
      const db = recordingSave();
      const log = recordingLogger();
      const writer = writerWith(db.save, {
        logger: log.logger,
        batchWindowMs: 5,
        retryBackoff: { firstMs: 10, maxMs: 40 },
      });
      db.down = true;
      writer.write(round("r1", ["q1"]));
      writer.write(round("r2", ["q2"]));
      await eventually(() => db.refused >= 5, "several retries failed");
      expect(writer.kept).toBe(2);
      expect(writer.pending).toBe(2);
      // One batch attempt, then retries of the kept rounds only: never round by round.
      expect(db.statements).toEqual([]);
      expect(log.lines.map((line) => [line.level, line.msg])).toEqual([
        [
          "warn",
          "quote rounds not stored: the database is unavailable; keeping them and retrying until it is back or their quotes expire",
        ],
      ]);

      db.down = false;
      await eventually(() => writer.pending === 0, "the kept rounds are stored");
      expect(db.statements).toEqual([["r1", "r2"]]);
      expect(log.lines.at(-1)).toMatchObject({
        level: "info",
        msg: "quote rounds stored after the database came back",
        fields: { stored: 2, expired: 0, overflowed: 0, failed: 0 },
      });
      expect(log.of("warn")).toHaveLength(1);

      // Afterwards, rounds are written as before, in their own statement.
      writer.write(round("r3", ["q3"]));
      await writer.settled("q3");
      expect(db.statements).toEqual([["r1", "r2"], ["r3"]]);
    });

    it("adds new rounds to the kept ones without an attempt of their own", async () => {
      const db = recordingSave();
      const writer = writerWith(db.save, {
        batchWindowMs: 5,
        retryBackoff: { firstMs: 60_000, maxMs: 60_000 },
      });
      db.down = true;
      writer.write(round("r1", ["q1"]));
      await eventually(() => writer.kept === 1, "the first round is kept");
      writer.write(round("r2", ["q2"]));
      writer.write(round("r3", ["q3"]));
      await eventually(() => writer.kept === 3, "the later rounds join it");
      expect(db.refused).toBe(1);
    });

    it("tries a kept quote's round at once when an /order waits for it: 503 (DatabaseUnavailableError) while out, found once back", async () => {
      const db = recordingSave();
      const writer = writerWith(db.save, {
        batchWindowMs: 5,
        retryBackoff: { firstMs: 60_000, maxMs: 60_000 },
      });
      db.down = true;
      writer.write(round("r1", ["q1"]));
      await eventually(() => writer.kept === 1, "the round is kept");
      await expect(writer.settled("q1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(writer.settledRound("r1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(db.refused).toBe(3);

      // Back, long before the next scheduled retry: the wait itself stores the round.
      db.down = false;
      await writer.settled("q1");
      expect(db.statements).toEqual([["r1"]]);
      expect(writer.pending).toBe(0);
      await writer.settledRound("r1");
    });

    it("drops kept rounds whose quotes expired and the oldest beyond the memory bound, and says so when it is back", async () => {
      const db = recordingSave();
      const log = recordingLogger();
      const clock = new ManualClock(NOW_MS);
      const writer = writerWith(db.save, {
        logger: log.logger,
        clock,
        batchWindowMs: 5,
        retryBackoff: { firstMs: 10, maxMs: 10 },
        maxKeptRounds: 3,
      });
      db.down = true;
      writer.write(round("old", ["q0"]));
      writer.write(round("short", ["q1"], DEADLINE - 60));
      writer.write(round("r2", ["q2"]));
      writer.write(round("r3", ["q3"]));
      await eventually(() => db.refused >= 1, "the batch failed");
      // Four rounds, room for three: the oldest went.
      expect(writer.kept).toBe(3);
      await expect(writer.settled("q0")).resolves.toBeUndefined();

      clock.advance(61_000);
      db.down = false;
      await eventually(() => writer.pending === 0, "the kept rounds are stored or dropped");
      expect(db.statements).toEqual([["r2", "r3"]]);
      expect(log.lines.at(-1)).toMatchObject({
        level: "warn",
        fields: { stored: 2, expired: 1, overflowed: 1, failed: 0 },
      });
      expect(log.lines.at(-1)?.msg).toMatch(
        /^quote rounds stored after the database came back; some were dropped/,
      );
    });

    it("drains: gives the kept rounds one more attempt, then logs those lost", async () => {
      const db = recordingSave();
      const log = recordingLogger();
      const writer = writerWith(db.save, {
        logger: log.logger,
        batchWindowMs: 5,
        retryBackoff: { firstMs: 60_000, maxMs: 60_000 },
      });
      db.down = true;
      writer.write(round("r1", ["q1"]));
      await eventually(() => writer.kept === 1, "the round is kept");
      writer.write(round("r2", ["q2"]));
      await writer.drain();
      expect(db.refused).toBe(2);
      expect(writer.pending).toBe(0);
      expect(log.lines.at(-1)).toMatchObject({
        level: "error",
        msg: "quote rounds lost at shutdown: the database did not take them; their quotes cannot become orders",
        fields: { rounds: 2 },
      });
    });

    it("drains: stores the kept rounds when the database is back by then", async () => {
      const db = recordingSave();
      const writer = writerWith(db.save, {
        batchWindowMs: 5,
        retryBackoff: { firstMs: 60_000, maxMs: 60_000 },
      });
      db.down = true;
      writer.write(round("r1", ["q1"]));
      await eventually(() => writer.kept === 1, "the round is kept");
      db.down = false;
      await writer.drain();
      expect(db.statements).toEqual([["r1"]]);
      expect(writer.pending).toBe(0);
    });
  });
});
