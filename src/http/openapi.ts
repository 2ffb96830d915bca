// The OpenAPI 3.1 document, generated from the routes' zod schemas (never written by hand).
import type { SwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { SWAP_ERROR_CODES } from "./errors.ts";
import { type DocumentExamples, EXAMPLE_TIMESTAMP, exampleKey } from "./openapi-examples.ts";
import type { RouteEntry } from "./route.ts";
import {
  CODE_MEANINGS,
  type ErrorStatusAnswer,
  errorStatusDescription,
  STATUS_MEANINGS,
} from "./route-answers.ts";

export const API_PREFIX = "/api/v1";
export const API_VERSION = "3.1.0";

/** The part of the document this module changes. */
interface WithComponentSchemas {
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The generator gives each component schema `$id: "#/components/schemas/<name>"`. A `$id` opens a new schema
 * resource, so standard tools (and the docs page) resolve the `$ref`s inside that component against the component
 * instead of the document, and fail. The components are parts of this document, not resources of their own: their
 * `$id`s are dropped, and the `$ref`s (`#/components/schemas/<name>`) resolve against the document as intended.
 */
export function withoutComponentIds<Document extends object>(document: Document): Document {
  const { components } = document as WithComponentSchemas;
  if (!components?.schemas) return document;
  const schemas = Object.fromEntries(
    Object.entries(components.schemas).map(([name, schema]) => {
      const { $id: _dropped, ...rest } = schema as Record<string, unknown>;
      return [name, rest];
    }),
  );
  return { ...document, components: { ...components, schemas } };
}

/** Marks a response schema whose body is not JSON: the document lists it under this media type. */
export const MEDIA_TYPE_KEY = "x-media-type";

/**
 * The generator lists every response under application/json. A response whose schema names another media type (the
 * order stream's text/event-stream) is listed under that one instead; the route's errors stay JSON.
 */
export function withMediaTypes<Document extends object>(document: Document): Document {
  const paths = (
    document as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> }
  ).paths;
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const content = (response as { content?: Record<string, { schema?: Record<string, unknown> }> })
          .content;
        const json = content?.["application/json"];
        const mediaType = json?.schema?.[MEDIA_TYPE_KEY];
        if (!content || !json?.schema || typeof mediaType !== "string") continue;
        const { [MEDIA_TYPE_KEY]: _marker, ...schema } = json.schema;
        delete content["application/json"];
        content[mediaType] = { ...json, schema };
      }
    }
  }
  return document;
}

/** What the document is made from besides the routes' schemas: the route table and this deployment's examples. */
export interface DocumentFacts {
  routes: readonly RouteEntry[];
  examples?: DocumentExamples;
}

export function openApiOptions(facts: DocumentFacts): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Sluice — Redemption Swap and Partner Points API",
        version: API_VERSION,
        description:
          "Registries and partner points, the quote / approval / order flow of redemption swaps, solver liquidity and signed discounts.\n\n" +
          "Every response carries `X-Request-Id`. Each operation lists every status it can answer and the error codes each " +
          "carries. Requests Node's HTTP parser refuses before any route sees them answer 400 `MALFORMED_REQUEST`, 431 " +
          "`HEADERS_TOO_LARGE` or 408 `REQUEST_TIMEOUT`; unknown paths 404 `NOT_FOUND` (`pageNotFound` under /entities and /points).",
      },
      servers: [{ url: API_PREFIX }],
      components: {
        schemas: {},
      },
      "x-error-codes": { swap: [...SWAP_ERROR_CODES] },
    } as never,
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // Paths are documented relative to the server URL, which already ends in /api/v1.
      return {
        ...transformed,
        url: transformed.url.startsWith(API_PREFIX)
          ? transformed.url.slice(API_PREFIX.length) || "/"
          : transformed.url,
      };
    },
    transformObject: (input) =>
      withAnswersDescribed(withMediaTypes(withoutComponentIds(jsonSchemaTransformObject(input))), facts),
  };
}

interface Operation {
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}
interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}
interface Response {
  description?: string;
  headers?: Record<string, { description: string; schema: unknown }>;
  content?: Record<string, MediaType>;
  "x-error-codes"?: string[];
}

const JSON_TYPE = "application/json";

/**
 * Each documented operation's responses described (no "Default Response"): every error status with its meaning, its
 * codes (`x-error-codes`) and an example per code, in JSON whatever the success's media type; the route's own
 * statuses with its descriptions; and this deployment's request and response examples.
 */
function withAnswersDescribed<Document extends object>(document: Document, facts: DocumentFacts): Document {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const entry of facts.routes) {
    if (entry.listener !== "public" || !entry.path.startsWith(API_PREFIX)) continue;
    const documentPath = (entry.path.slice(API_PREFIX.length) || "/").replace(/:(\w+)/g, "{$1}");
    const operation = paths[documentPath]?.[entry.method.toLowerCase()];
    if (!operation) continue;
    const examples = facts.examples?.get(exampleKey(entry.method, entry.path));
    operation.responses ??= {};
    const responses = operation.responses;
    const errors = new Map((entry.errorAnswers ?? []).map((answer) => [answer.status, answer]));
    for (const [status, answer] of errors) responses[status] = errorResponse(answer, responses[status]);
    for (const [status, response] of Object.entries(responses)) {
      const code = Number(status);
      if (errors.has(code)) continue;
      response.description =
        entry.descriptions?.[code] ??
        (response.description && response.description !== "Default Response"
          ? response.description
          : (STATUS_MEANINGS[code] ?? `Status ${status}`));
      const example = examples?.responses?.[code];
      // JSON, or the route's own media type (an event stream's example is its text).
      const media = response.content?.[JSON_TYPE] ?? Object.values(response.content ?? {})[0];
      if (example && media) media.examples = { example };
    }
    for (const parameter of operation.parameters ?? []) {
      const byPlace =
        parameter.in === "query" ? examples?.query : parameter.in === "path" ? examples?.params : undefined;
      const example = byPlace?.[parameter.name];
      if (example !== undefined) parameter.example = example;
    }
    const body = operation.requestBody?.content?.[JSON_TYPE];
    if (examples?.body && body) body.examples = { example: examples.body };
  }
  return document;
}

function errorResponse(answer: ErrorStatusAnswer, documented: Response | undefined): Response {
  // The envelope's schema as generated (under the route's media type when it produces another, e.g. image/png).
  const generated = documented?.content ? Object.values(documented.content)[0]?.schema : undefined;
  const schema = generated ?? {
    $ref: `#/components/schemas/${answer.envelope === "swap" ? "SwapError" : "PartnerError"}`,
  };
  const examples = Object.fromEntries(
    answer.codes.map((code) => [
      code,
      {
        summary: CODE_MEANINGS[code],
        value:
          answer.envelope === "swap"
            ? {
                error: {
                  code,
                  message: CODE_MEANINGS[code],
                  status: answer.status,
                  timestamp: EXAMPLE_TIMESTAMP,
                  ...(code === "VALIDATION_FAILED"
                    ? { details: { issues: [{ path: "amount", message: "Invalid input" }] } }
                    : {}),
                  ...(code === "AUCTION_OPEN" ? { details: { availableAt: EXAMPLE_TIMESTAMP } } : {}),
                },
              }
            : { errorCode: code, errorMessage: CODE_MEANINGS[code] },
      },
    ]),
  );
  const retryAfter = answer.retryAfterCodes ?? [];
  return {
    description: errorStatusDescription(answer),
    ...(retryAfter.length > 0
      ? {
          headers: {
            "Retry-After": {
              description: `Seconds to wait before retrying (with ${retryAfter.map((code) => `\`${code}\``).join(", ")})`,
              schema: { type: "integer", minimum: 1 },
            },
          },
        }
      : {}),
    content: { [JSON_TYPE]: { schema, examples } },
    "x-error-codes": [...answer.codes],
  };
}
