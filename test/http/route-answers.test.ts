// A route's error statuses and their codes, derived from the errors its service throws (through the error table) and
// from its shape: what route() adds to its responses and the OpenAPI document lists.
import { describe, expect, it } from "vitest";
import { DiscountRejectedError } from "../../src/discounts/errors.ts";
import { PartnerErrorSchema } from "../../src/http/errors.ts";
import { route } from "../../src/http/route.ts";
import { errorStatusAnswers } from "../../src/http/route-answers.ts";
import {
  InvalidCursorError,
  QuoteExpiredError,
  QuoteNotFoundError,
  QuoteUnavailableError,
} from "../../src/orders/errors.ts";
import { NoPointsDataError, UnknownVaultError } from "../../src/points/errors.ts";
import { BaseError } from "../../src/shared/errors.ts";

const answers = (shape: Partial<Parameters<typeof errorStatusAnswers>[0]>) =>
  Object.fromEntries(
    errorStatusAnswers({
      method: "GET",
      envelope: "swap",
      validatesInput: false,
      failures: {},
      ...shape,
    }).map((answer) => [answer.status, `${answer.envelope}:${answer.codes.join(",")}`]),
  );

describe("a route's error statuses", () => {
  it("are 500 alone for a GET without input, errors or database", () => {
    expect(answers({})).toEqual({ 500: "swap:INTERNAL" });
  });

  it("add 400, 413 and 415 for a JSON body, 503 for the database, and each error's row", () => {
    expect(
      answers({
        method: "POST",
        validatesInput: true,
        failures: {
          errors: [QuoteNotFoundError, QuoteExpiredError, QuoteUnavailableError, InvalidCursorError],
          database: true,
        },
      }),
    ).toEqual({
      400: "swap:VALIDATION_FAILED",
      404: "swap:QUOTE_NOT_FOUND",
      409: "swap:QUOTE_EXPIRED,QUOTE_UNAVAILABLE",
      413: "swap:PAYLOAD_TOO_LARGE",
      415: "swap:UNSUPPORTED_MEDIA_TYPE",
      500: "swap:INTERNAL",
      503: "swap:SERVICE_UNAVAILABLE",
    });
  });

  it("give a class whose status depends on the case every status it can have", () => {
    expect(answers({ failures: { errors: [DiscountRejectedError] } })).toMatchObject({
      400: "swap:DISCOUNT_REJECTED",
      409: "swap:DISCOUNT_REJECTED",
    });
  });

  it("use the partner envelope's codes on partner routes", () => {
    expect(
      answers({
        envelope: "partner",
        validatesInput: true,
        failures: { errors: [NoPointsDataError, UnknownVaultError], database: true },
      }),
    ).toEqual({
      400: "partner:anErrorOccurred",
      404: "partner:noData,noResultsFound",
      500: "partner:ooops",
      503: "partner:ooops",
    });
  });

  it("refuse an error without a row, and both envelopes under one status", () => {
    class Unlisted extends BaseError {}
    expect(() => answers({ failures: { errors: [Unlisted] } })).toThrow(/no row/);
    expect(() => answers({ failures: { errors: [QuoteNotFoundError, NoPointsDataError] } })).toThrow(
      /both envelopes/,
    );
  });

  it("are added to the responses route() mounts, each with its envelope's schema, the route's own kept", () => {
    const entry = route({
      method: "GET",
      url: "/points/total/current",
      listener: "public",
      schema: { response: { 200: PartnerErrorSchema }, errors: [NoPointsDataError], database: true },
      handler: async () => ({ errorCode: "noData" as const, errorMessage: "x" }),
    });
    expect(entry.errorAnswers?.map((answer) => answer.status)).toEqual([404, 500, 503]);
    let mounted: { schema: { response: Record<number, unknown>; errors?: unknown } } | undefined;
    entry.mount({ route: (options: never) => (mounted = options) } as never);
    expect(mounted?.schema.response).toEqual({
      200: PartnerErrorSchema,
      404: PartnerErrorSchema,
      500: PartnerErrorSchema,
      503: PartnerErrorSchema,
    });
    // Fastify gets a plain schema: the failure facts stay with the route table.
    expect(mounted?.schema).not.toHaveProperty("errors");
  });
});
