// Reading the OpenAPI document the way a client does: which statuses an operation lists, and which error codes each
// one carries (`x-error-codes`). Tests compare real answers with it.
import type { FastifyInstance } from "fastify";
import { API_PREFIX } from "../../src/http/route.ts";

export interface DocumentedResponse {
  description?: string;
  content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }>;
  "x-error-codes"?: string[];
}

export interface DocumentedOperation {
  requestBody?: {
    content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  parameters?: Array<{ name: string; in: string; schema?: unknown }>;
  responses: Record<string, DocumentedResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, DocumentedOperation>>;
  components: { schemas: Record<string, unknown> };
}

export function openApiDocument(app: FastifyInstance): OpenApiDocument {
  return (app as unknown as { swagger(): OpenApiDocument }).swagger();
}

/** The document's path of a route (`/api/v1/points/vault/:address/current` → `/points/vault/{address}/current`). */
export function documentPath(routeUrl: string): string | undefined {
  if (!routeUrl.startsWith(API_PREFIX)) return undefined;
  return (routeUrl.slice(API_PREFIX.length) || "/").replace(/:(\w+)/g, "{$1}");
}

/** The operation a route is documented as; undefined when it is not in the document (hidden, internal). */
export function documentedOperation(
  document: OpenApiDocument,
  method: string,
  routeUrl: string,
): DocumentedOperation | undefined {
  const path = documentPath(routeUrl);
  return path === undefined ? undefined : document.paths[path]?.[method.toLowerCase()];
}

/** The error code of an answer's body, in either envelope; undefined for anything else. */
export function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const swap = (body as { error?: { code?: unknown } }).error?.code;
  if (typeof swap === "string") return swap;
  const partner = (body as { errorCode?: unknown }).errorCode;
  return typeof partner === "string" ? partner : undefined;
}

/** Why an answer is not what its operation documents; undefined when the document lists its status (and code). */
export function undocumented(
  operation: DocumentedOperation,
  status: number,
  body: unknown,
): string | undefined {
  const response = operation.responses[String(status)];
  if (!response) return `status ${status} is not documented (${Object.keys(operation.responses).join(", ")})`;
  const code = errorCodeOf(body);
  if (status >= 400 && code !== undefined && !response["x-error-codes"]?.includes(code))
    return `code ${code} is not among ${status}'s documented codes (${response["x-error-codes"]?.join(", ")})`;
  return undefined;
}
