// The HTTP error table: every named domain failure has a row, the row alone decides status and code, the error
// alone its message and details, and the OpenAPI code list derives from it (a route's error statuses: route-answers.test.ts).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiscountRejectedError } from "../../src/discounts/errors.ts";
import {
  ERROR_TABLE,
  errorAnswer,
  FRAMEWORK_SWAP_ERROR_CODES,
  rowOf,
  SWAP_ERROR_CODES,
} from "../../src/http/error-table.ts";
import { QuoteExpiredError, QuoteNotFoundError, QuoteUnavailableError } from "../../src/orders/errors.ts";
import { UnknownVaultError } from "../../src/points/errors.ts";
import { SolversBusyError } from "../../src/rounds/errors.ts";
import { BaseError } from "../../src/shared/errors.ts";

const SRC = join(import.meta.dirname, "../../src");

/**
 * Every class that extends BaseError exported by a domain folder's errors.ts, or by http/system-errors.ts (the
 * system routes' own, which belong to no domain).
 */
async function domainErrorClasses(): Promise<Array<{ file: string; name: string; error: typeof BaseError }>> {
  const found: Array<{ file: string; name: string; error: typeof BaseError }> = [];
  const files = readdirSync(SRC, { withFileTypes: true })
    .filter((folder) => folder.isDirectory() && folder.name !== "shared")
    .filter((folder) => readdirSync(join(SRC, folder.name)).includes("errors.ts"))
    .map((folder) => `${folder.name}/errors.ts`);
  for (const file of [...files, "http/system-errors.ts"]) {
    const module: Record<string, unknown> = await import(join(SRC, file));
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === "function" && value.prototype instanceof BaseError)
        found.push({ file, name, error: value as typeof BaseError });
    }
  }
  return found;
}

describe("the HTTP error table", () => {
  it("has a row for every named error of every domain's errors.ts, and one row per class", async () => {
    const classes = await domainErrorClasses();
    expect(classes.length).toBeGreaterThanOrEqual(ERROR_TABLE.length);
    for (const { file, name, error } of classes) expect(rowOf(error), `${file} ${name}`).toBeDefined();
    const rows = ERROR_TABLE.map((row) => row.error);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it("answers with the row's status and code and the error's own message and details", () => {
    expect(errorAnswer(new QuoteNotFoundError("q-1"))).toEqual({
      envelope: "swap",
      status: 404,
      code: "QUOTE_NOT_FOUND",
      message: "Unknown quote id",
      details: { quoteId: "q-1" },
    });
    // A reason picks the message; the facts beside it are the details, and none leaves the key out.
    expect(errorAnswer(new QuoteUnavailableError({ reason: "nonce_used" }))).toEqual({
      envelope: "swap",
      status: 409,
      code: "QUOTE_UNAVAILABLE",
      message: "The quote's nonce is already used on-chain",
    });
    expect(errorAnswer(new QuoteUnavailableError({ reason: "no_solver", solversAsked: 2 }))).toMatchObject({
      message: "No solver can honor this quote any more",
      details: { solversAsked: 2 },
    });
    expect(errorAnswer(new UnknownVaultError("0xabc"))).toEqual({
      envelope: "partner",
      status: 404,
      code: "noResultsFound",
      message: "Unknown vault 0xabc",
    });
  });

  it("answers a failure that passes by itself with its Retry-After seconds", () => {
    expect(
      errorAnswer(new SolversBusyError({ solversAsked: 1, solversBusy: 2, solverTimeoutMs: 1500 })),
    ).toEqual({
      envelope: "swap",
      status: 503,
      code: "SOLVERS_BUSY",
      message: "The solvers that could answer are busy; retry shortly",
      details: { solversAsked: 1, solversBusy: 2, retryAfterSeconds: 2 },
      retryAfterSeconds: 2,
    });
    expect(errorAnswer(new QuoteNotFoundError("q-1"))).not.toHaveProperty("retryAfterSeconds");
  });

  it("gives a discount rejection the status of its reason", () => {
    expect(errorAnswer(new DiscountRejectedError("expired", "The deadline has passed"))?.status).toBe(400);
    expect(errorAnswer(new DiscountRejectedError("nonce_used", "The nonce is used"))?.status).toBe(409);
    expect(rowOf(DiscountRejectedError)?.statuses).toEqual([400, 409]);
  });

  it("leaves any other error to the server's own handling", () => {
    expect(errorAnswer(new Error("boom"))).toBeUndefined();
    expect(errorAnswer("not an error")).toBeUndefined();
    class Unlisted extends BaseError {}
    expect(errorAnswer(new Unlisted("not in the table"))).toBeUndefined();
  });

  it("answers a subclass with its nearest listed ancestor's row", () => {
    class Narrower extends QuoteExpiredError {}
    expect(errorAnswer(new Narrower(5))).toMatchObject({ status: 409, code: "QUOTE_EXPIRED" });
  });

  it("lists every code it answers in the OpenAPI code list, with the framework's, once each", () => {
    for (const row of ERROR_TABLE) {
      if (row.envelope === "swap") expect(SWAP_ERROR_CODES).toContain(row.code);
    }
    for (const code of FRAMEWORK_SWAP_ERROR_CODES) expect(SWAP_ERROR_CODES).toContain(code);
    expect(new Set(SWAP_ERROR_CODES).size).toBe(SWAP_ERROR_CODES.length);
  });
});
