// Checks a server's real answers against the response schemas its routes declare. Every Fastify instance built while
// the check is installed gets, before any route exists, an `onRoute` hook that collects each route's `response`
// schemas and an `onSend` hook that notes which route (and status) answered each request; `inject` then judges the
// whole body, streamed or prepared bytes included, with the zod schema of its status, and checks that the OpenAPI
// document lists the status and the error code for a documented route.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from "fastify";
import type { z } from "zod";
import { isPartnerPath, PartnerErrorSchema, SwapErrorSchema } from "../../src/http/errors.ts";
import { documentedOperation, openApiDocument, undocumented } from "./openapi-document.ts";

/** Fastify publishes every new instance here, before its factory returns (fastify.js, `initChannel`). */
const INITIALIZATION_CHANNEL = "fastify.initialization";

export interface CheckedRoute {
  /** `GET /api/v1/orders`. */
  key: string;
  /** By status code (`200`, `404`, …); undefined when the route declares no response schema. */
  responses: Record<string, z.ZodType> | undefined;
  /** Statuses it answered in checked requests. */
  answered: Set<number>;
}

interface Answered {
  /** The matched route's key; undefined when no route matched (the not-found handler). */
  route: string | undefined;
  url: string;
  status: number;
}

export interface ResponseSchemaCheck {
  /** Every route of the instances built while installed, HEAD routes (Fastify's copies of GETs) left out. */
  readonly routes: ReadonlyMap<string, CheckedRoute>;
  /**
   * Sends a request and checks its answer: the status must be one the matched route declares and the body must match
   * that status's schema (an unmatched path: its API family's error envelope). Returns the response.
   */
  inject(app: FastifyInstance, options: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
  /** Stops equipping new instances (those built meanwhile keep their hooks). */
  uninstall(): void;
}

function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}

function methodsOf(options: RouteOptions): string[] {
  return Array.isArray(options.method) ? options.method : [options.method];
}

/** The body as the schema of its status sees it: JSON parsed, an empty body (304) null, anything else its text. */
function bodyOf(response: LightMyRequestResponse): unknown {
  if (response.body === "") return null;
  const type = String(response.headers["content-type"] ?? "");
  return type.startsWith("application/json") ? JSON.parse(response.body) : response.body;
}

export function installResponseSchemaCheck(): ResponseSchemaCheck {
  const routes = new Map<string, CheckedRoute>();
  const answered = new Map<string, Answered>();

  const equip = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook("onRoute", (options) => {
      const responses = (options.schema as { response?: Record<string, z.ZodType> } | undefined)?.response;
      for (const method of methodsOf(options)) {
        const key = routeKey(method, options.url);
        // The same route of a second instance (the partner and the swap app both have /health) is the same schema.
        if (method !== "HEAD" && !routes.has(key)) routes.set(key, { key, responses, answered: new Set() });
      }
    });
    fastify.addHook("onSend", async (request, reply, payload) => {
      const { method, url } = request.routeOptions;
      answered.set(request.id, {
        route: url === undefined ? undefined : routeKey(String(method), url),
        url: request.url,
        status: reply.statusCode,
      });
      return payload;
    });
  };
  subscribe(INITIALIZATION_CHANNEL, equip);

  return {
    routes,
    async inject(app, options) {
      const response = await app.inject(options);
      const id = String(response.headers["x-request-id"]);
      const seen = answered.get(id);
      if (!seen)
        throw new Error(
          `${options.method ?? "GET"} ${options.url}: no answer was recorded (${response.statusCode})`,
        );
      answered.delete(id);
      const where = `${options.method ?? "GET"} ${options.url} → ${response.statusCode}`;
      if (seen.status !== response.statusCode) throw new Error(`${where}: onSend saw ${seen.status}`);
      const body = bodyOf(response);

      if (seen.route === undefined) {
        const envelope = isPartnerPath(seen.url) ? PartnerErrorSchema : SwapErrorSchema;
        judge(where, "the not-found envelope", envelope, body);
        return response;
      }
      const route = routes.get(seen.route);
      if (!route) throw new Error(`${where}: answered by ${seen.route}, which no onRoute hook saw`);
      route.answered.add(response.statusCode);
      if (!route.responses) throw new Error(`${where}: ${route.key} declares no response schema`);
      const status = String(response.statusCode);
      const schema = route.responses[status] ?? route.responses[`${status[0]}xx`] ?? route.responses.default;
      if (!schema)
        throw new Error(
          `${where}: ${route.key} does not declare ${status} (declares ${Object.keys(route.responses).join(", ")})`,
        );
      judge(where, `${route.key}'s ${status} schema`, schema, body);
      const [method, url] = route.key.split(" ") as [string, string];
      const operation = documentedOperation(openApiDocument(app), method, url);
      const missing = operation && undocumented(operation, response.statusCode, body);
      if (missing) throw new Error(`${where}: the OpenAPI document of ${route.key}: ${missing}`);
      return response;
    },
    uninstall() {
      unsubscribe(INITIALIZATION_CHANNEL, equip);
    },
  };
}

function judge(where: string, what: string, schema: z.ZodType, body: unknown): void {
  const parsed = schema.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
  throw new Error(`${where}: the body does not match ${what}: ${issues.slice(0, 5).join("; ")}`);
}
