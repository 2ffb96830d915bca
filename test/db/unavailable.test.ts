// "Database unavailable" is what the database client raised, classified where it raised it: a socket error met
// anywhere else (a client hanging up mid-body: Node's "aborted", code ECONNRESET) is not one (issue 21.5).
import { describe, expect, it } from "vitest";
import {
  asClientFailure,
  asDatabaseUnavailable,
  DatabaseUnavailableError,
} from "../../src/db/unavailable.ts";

function socketError(code: string, message = `read ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

describe("database unavailable", () => {
  it("is never an ECONNRESET the database client did not raise", () => {
    const aborted = socketError("ECONNRESET", "aborted");
    expect(asDatabaseUnavailable(aborted)).toBeUndefined();
    expect(asDatabaseUnavailable(new Error("fetch failed", { cause: aborted }))).toBeUndefined();
  });

  it("classifies the client's own failures where it raises them, and finds them through any wrapping", () => {
    for (const raised of [
      socketError("ECONNREFUSED"),
      socketError("ECONNRESET"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }),
      new Error("Connection terminated unexpectedly"),
      new AggregateError([socketError("ECONNREFUSED")], "connect failed"),
    ]) {
      const failure = asClientFailure(raised);
      expect(failure, raised.message).toBeInstanceOf(DatabaseUnavailableError);
      expect((failure as Error).cause).toBe(raised);
      const wrapped = new Error("Failed query", { cause: failure });
      expect(asDatabaseUnavailable(wrapped)).toBe(failure);
    }
  });

  it("leaves every other failure of the client as it is", () => {
    const duplicate = Object.assign(new Error("duplicate key value"), { code: "23505" });
    expect(asClientFailure(duplicate)).toBe(duplicate);
    expect(asDatabaseUnavailable(duplicate)).toBeUndefined();
  });
});
