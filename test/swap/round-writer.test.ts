// QuoteRoundWriter: rounds answered within the batch window are stored in one statement, a POST /order (or a
// GET /auctions) waiting for one of them flushes its batch at once, a failed batch is retried round by round (only the bad round is
// lost, and logged), and draining writes everything queued.
import { describe, expect, it } from "vitest";
import type { QuoteRound } from "../../src/swap/quote-round-statement.ts";
import { QuoteRoundWriter } from "../../src/swap/round-writer.ts";

function round(requestId: string, quoteIds: string[]): QuoteRound {
  return {
    request: { requestId } as QuoteRound["request"],
    answers: [],
    entries: quoteIds.map((quoteId) => ({ quoteId, requestId }) as QuoteRound["entries"][number]),
  };
}

/** A save that records each statement's rounds (by request id) and fails any batch holding a "bad" round. */
function recordingSave(delayMs = 0) {
  const statements: string[][] = [];
  const save = async (rounds: readonly QuoteRound[]) => {
    const ids = rounds.map((r) => r.request.requestId);
    statements.push(ids);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (ids.includes("bad")) throw new Error("duplicate key");
  };
  return { statements, save };
}

function recordingLogger() {
  const errors: Array<{ requestId: unknown; msg: string }> = [];
  return {
    errors,
    logger: {
      error: (fields: { requestId?: unknown }, msg: string) =>
        errors.push({ requestId: fields.requestId, msg }),
    } as never,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("QuoteRoundWriter", () => {
  it("stores the rounds of one window in one statement, later ones in the next", async () => {
    const { statements, save } = recordingSave();
    const writer = new QuoteRoundWriter({ save, logger: recordingLogger().logger, batchWindowMs: 30 });
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
    const writer = new QuoteRoundWriter({ save, logger: recordingLogger().logger, batchWindowMs: 10_000 });
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
    const writer = new QuoteRoundWriter({ save, logger: recordingLogger().logger, batchWindowMs: 10_000 });
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
    const { errors, logger } = recordingLogger();
    const writer = new QuoteRoundWriter({ save, logger, batchWindowMs: 5 });
    writer.write(round("r1", ["q1"]));
    writer.write(round("bad", ["q2"]));
    writer.write(round("r3", ["q3"]));
    await writer.settled("q3");
    expect(statements).toEqual([["r1", "bad", "r3"], ["r1"], ["bad"], ["r3"]]);
    expect(errors).toEqual([
      { requestId: "bad", msg: "quote round not stored: its quotes cannot become orders" },
    ]);
  });

  it("drains: writes what is queued now and settles once everything is stored", async () => {
    const { statements, save } = recordingSave(20);
    const writer = new QuoteRoundWriter({ save, logger: recordingLogger().logger, batchWindowMs: 10_000 });
    writer.write(round("r1", ["q1"]));
    writer.write(round("r2", ["q2"]));
    await writer.drain();
    expect(statements).toEqual([["r1", "r2"]]);
    expect(writer.pending).toBe(0);
  });
});
