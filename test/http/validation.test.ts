// The swap-flow envelope for every kind of bad input, checked on a small route built from the shared wire schemas.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { AddressSchema, Uint48Schema, Uint256StringSchema } from "../../src/shared/wire.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";

const echoRoute = async (app: App) => {
  app.post(
    "/test-echo",
    {
      schema: {
        body: z.object({ owner: AddressSchema, amount: Uint256StringSchema, deadline: Uint48Schema }),
      },
    },
    async (request) => request.body,
  );
  app.get("/test-crash", async () => {
    throw new Error("boom");
  });
};

describe("validation and error envelopes", () => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    ({ app } = await createTestServer(database, { testRoutes: echoRoute }));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const post = (payload: unknown, contentType = "application/json") =>
    app.inject({
      method: "POST",
      url: "/api/v1/test-echo",
      headers: { "content-type": contentType },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });

  it("accepts addresses in any case and returns them lowercase; ignores unknown fields", async () => {
    const response = await post({
      owner: "0xABCDEFabcdef0123456789012345678901234567",
      amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
      deadline: 2 ** 48 - 1,
      slippageTolerance: "0.5",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      owner: "0xabcdefabcdef0123456789012345678901234567",
      amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
      deadline: 2 ** 48 - 1,
    });
  });

  it.each([
    ["a short address", { owner: "0x1234", amount: "1", deadline: 1 }, "owner"],
    ["a fractional amount", { owner: `0x${"a".repeat(40)}`, amount: "1.5", deadline: 1 }, "amount"],
    [
      "an amount above uint256",
      { owner: `0x${"a".repeat(40)}`, amount: `1${"0".repeat(78)}`, deadline: 1 },
      "amount",
    ],
    [
      "2^256 exactly",
      { owner: `0x${"a".repeat(40)}`, amount: (1n << 256n).toString(), deadline: 1 },
      "amount",
    ],
    ["a numeric amount", { owner: `0x${"a".repeat(40)}`, amount: 1, deadline: 1 }, "amount"],
    ["a deadline above uint48", { owner: `0x${"a".repeat(40)}`, amount: "1", deadline: 2 ** 48 }, "deadline"],
    ["a string deadline", { owner: `0x${"a".repeat(40)}`, amount: "1", deadline: "1" }, "deadline"],
  ])("rejects %s with VALIDATION_FAILED naming the field", async (_label, body, field) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.status).toBe(400);
    expect(error.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
  });

  it("rejects malformed JSON, a missing body and a wrong content type without a 500", async () => {
    const malformed = await post("{not json");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe("VALIDATION_FAILED");
    const missing = await app.inject({ method: "POST", url: "/api/v1/test-echo" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe("VALIDATION_FAILED");
    const wrongType = await post("owner=1", "application/x-www-form-urlencoded");
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("turns an unexpected failure into a 500 INTERNAL envelope without leaking the message", async () => {
    const response = await app.inject({ url: "/api/v1/test-crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toMatchObject({ code: "INTERNAL", message: "Internal error", status: 500 });
  });
});
