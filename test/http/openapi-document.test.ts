// The OpenAPI document as a client's tools read it: valid OpenAPI 3.1 for a standard parser, every request body and
// response a real object schema once dereferenced, every response described, every status an operation can answer
// listed with its codes (checked against real answers to malformed, oversized and mistyped requests and to requests
// while the database is out of reach), examples from the deployment served and valid against their schemas, and the
// entry points redirecting to the docs page.
import { dereference, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { DatabaseUnavailableError } from "../../src/db/unavailable.ts";
import type { Deployment } from "../../src/deployment/schema.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { type DocumentedOperation, type OpenApiDocument, undocumented } from "../support/openapi-document.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";

const METHODS = ["get", "post"] as const;

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  operation: DocumentedOperation;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] }] : [])),
  );
}

/** A mainnet-like deployment: another chain, other tokens, not local (no faucet, no demo swapper). */
const MAINNET_LIKE = placeholderDeployment({
  name: "mainnet-like",
  chainId: 1,
  chainName: "ethereum",
  local: false,
  inputTokens: [
    {
      address: "0x00000000000000000000000000000000000000a1",
      symbol: "RWA1",
      name: "RWA one",
      decimals: 6,
      minQuoteAmount: "1000",
      liquidityOutputToken: "0x00000000000000000000000000000000000000b2",
    },
  ],
  outputTokens: [
    { address: "0x00000000000000000000000000000000000000b1", symbol: "USDX", name: "USDX", decimals: 6 },
    { address: "0x00000000000000000000000000000000000000b2", symbol: "USDY", name: "USDY", decimals: 6 },
  ],
  solvers: [
    {
      id: "ext_alpha",
      name: "Alpha",
      endpoint: "http://127.0.0.1:9",
      filler: "0x0000000000000000000000000000000000000002",
      internal: false,
      sharedSecretEnv: "ALPHA_SECRET",
    },
  ],
});

describe("the OpenAPI document", () => {
  let database: Database;
  let app: App;
  let mainnetDatabase: Database;
  let mainnet: App;
  let document: OpenApiDocument;
  let deployment: Deployment;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    deployment = placeholderDeployment();
    app = (await createTestServer(database, { deployment: unstartedDeployment(deployment) })).app;
    document = (await app.inject({ url: "/api/v1/openapi.json" })).json();
    mainnetDatabase = await createTestDatabase("pglite");
    mainnet = (await createTestServer(mainnetDatabase, { deployment: unstartedDeployment(MAINNET_LIKE) }))
      .app;
  });

  afterAll(async () => {
    await Promise.all([app?.close(), mainnet?.close()]);
    await Promise.all([database?.close(), mainnetDatabase?.close()]);
  });

  it("validates as OpenAPI 3.1 through a standard parser", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(operationsOf(document).length).toBeGreaterThanOrEqual(20);
  });

  it("resolves each operation's request body and responses to real object schemas with their properties", async () => {
    const resolved = (await dereference(structuredClone(document) as never)) as unknown as OpenApiDocument;
    let bodies = 0;
    for (const { method, path, operation } of operationsOf(resolved)) {
      const where = `${method.toUpperCase()} ${path}`;
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      if (operation.requestBody) {
        expectRealSchema(body, `${where} request body`);
        bodies++;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type.startsWith("application/json"))
            expectRealSchema(media.schema, `${where} ${status} ${type}`);
          else if (type === "image/png")
            expect(media.schema, `${where} ${status}`).toMatchObject({ format: "binary" });
          else expect(media.schema, `${where} ${status} ${type}`).toBeTypeOf("object");
        }
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(8);
    // The /quote request body the docs page shows, field by field.
    const quote = resolved.paths["/quote"]?.post?.requestBody?.content?.["application/json"]?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(quote.properties)).toEqual(
      expect.arrayContaining([
        "tokenInChainId",
        "tokenIn",
        "tokenOut",
        "type",
        "amount",
        "swapper",
        "outputs",
      ]),
    );
  });

  it("describes every response (no 'Default Response') and lists the codes of every error status", () => {
    for (const { method, path, operation } of operationsOf(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${where} ${status}`).toBeTruthy();
        expect(response.description, `${where} ${status}`).not.toBe("Default Response");
        // The probes' 503 is their own answer (draining, not ready), not an error envelope.
        if (Number(status) < 400 || ((path === "/health" || path === "/ready") && status === "503")) continue;
        const codes = response["x-error-codes"] ?? [];
        expect(codes.length, `${where} ${status} lists no error codes`).toBeGreaterThan(0);
        for (const code of codes) expect(response.description, `${where} ${status}`).toContain(`\`${code}\``);
        const examples = Object.keys(response.content?.["application/json"]?.examples ?? {});
        expect(examples, `${where} ${status} examples`).toEqual(codes);
      }
      // What the framework answers for any operation of this shape.
      const statuses = Object.keys(operation.responses);
      expect(statuses, where).toContain("500");
      if (operation.requestBody)
        expect(statuses, where).toEqual(expect.arrayContaining(["400", "413", "415"]));
      if ((operation.parameters ?? []).some((parameter) => parameter.schema && hasRule(parameter.schema)))
        expect(statuses, where).toContain("400");
    }
  });

  it("lists every status and code its routes answer to malformed, mistyped and oversized requests", async () => {
    for (const { method, path, operation } of operationsOf(document)) {
      // Path parameters and every query parameter that has a rule get a value no rule accepts.
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === "query" && parameter.schema && hasRule(parameter.schema))
          query.set(parameter.name, "not-valid");
      if (method === "get" && !path.includes("{") && query.size === 0) continue;
      const url = `/api/v1${fillPath(path, () => "not-valid")}${query.size ? `?${query}` : ""}`;
      const probes =
        method === "post"
          ? [
              { payload: "{not json", headers: { "content-type": "application/json" } },
              { payload: "<tokenIn>0x1</tokenIn>", headers: { "content-type": "application/xml" } },
              {
                payload: JSON.stringify({ padding: "x".repeat(1024 * 1024 + 10) }),
                headers: { "content-type": "application/json" },
              },
              {
                payload: JSON.stringify({ unexpected: true }),
                headers: { "content-type": "application/json" },
              },
            ]
          : [{}];
      const answered = new Set<number>();
      for (const probe of probes) {
        const response = await app.inject({ method: method.toUpperCase() as "GET" | "POST", url, ...probe });
        answered.add(response.statusCode);
        const missing = undocumented(operation, response.statusCode, response.json());
        expect(missing, `${method.toUpperCase()} ${url}: ${response.body.slice(0, 200)}`).toBeUndefined();
      }
      // The dev helpers refuse before reading the body here (no faucet: 403 DEV_ONLY, documented).
      if (method === "post" && !answered.has(403))
        expect([...answered], url).toEqual(expect.arrayContaining([413, 415]));
    }
  });

  it("lists 503 wherever a route answers it with the database out of reach", async () => {
    const unreachable = unreachableDatabase();
    const { app: cut } = await createTestServer(unreachable, { deployment: unstartedDeployment(deployment) });
    const unavailable: string[] = [];
    try {
      for (const { method, path, operation } of operationsOf(document)) {
        // A stream (not a JSON answer) would not end under inject: those are another test's.
        if (operation.responses["200"] && !operation.responses["200"].content?.["application/json"]) continue;
        const query = new URLSearchParams();
        for (const parameter of operation.parameters ?? []) {
          const example = (parameter as { example?: unknown }).example;
          if (parameter.in === "query" && example !== undefined) query.set(parameter.name, String(example));
        }
        const body = operation.requestBody?.content?.["application/json"]?.examples?.example?.value;
        const url = `/api/v1${fillPath(path, validParameter)}${query.size ? `?${query}` : ""}`;
        const response = await cut.inject({
          method: method.toUpperCase() as "GET" | "POST",
          url,
          ...(method === "post" ? { payload: (body ?? {}) as object } : {}),
        });
        const missing = undocumented(
          operation,
          response.statusCode,
          response.body ? safeJson(response.body) : null,
        );
        expect(missing, `${method.toUpperCase()} ${url}: ${response.body.slice(0, 200)}`).toBeUndefined();
        if (response.statusCode === 503) unavailable.push(`${method.toUpperCase()} ${path}`);
      }
    } finally {
      await cut.close();
    }
    // The probe reached the database: these read it on every request.
    expect(unavailable).toEqual(
      expect.arrayContaining(["GET /entities/networks", "GET /orders", "GET /points/total/current"]),
    );
  });

  it("takes its examples from the deployment served, valid against their own schemas", async () => {
    const mainnetDocument: OpenApiDocument = (await mainnet.inject({ url: "/api/v1/openapi.json" })).json();
    for (const [served, doc] of [
      [deployment, document],
      [MAINNET_LIKE, mainnetDocument],
    ] as const) {
      const quote = doc.paths["/quote"]?.post?.requestBody?.content?.["application/json"]?.examples?.example
        ?.value as Record<string, unknown>;
      const tokenIn = served.inputTokens[0]!;
      expect(quote).toMatchObject({
        tokenInChainId: served.chainId,
        tokenOutChainId: served.chainId,
        tokenIn: tokenIn.address,
        tokenOut: tokenIn.liquidityOutputToken ?? served.outputTokens[0]!.address,
        type: "EXACT_INPUT",
      });
      expect(BigInt(quote.amount as string)).toBeGreaterThanOrEqual(BigInt(tokenIn.minQuoteAmount));
      const approval = doc.paths["/check_approval"]?.post?.responses["200"]?.content?.["application/json"]
        ?.examples?.example?.value as { approval: { to: string; data: string } };
      expect(approval.approval.to).toBe(tokenIn.address);
      expect(approval.approval.data.toLowerCase()).toContain(served.reactor.slice(2).toLowerCase());
      // A quote answer to sign on this chain, for this Reactor (when the deployment has a solver to quote).
      const quoted = doc.paths["/quote"]?.post?.responses["200"]?.content?.["application/json"]?.examples
        ?.example?.value as { quotes: Array<{ signatureData: { domain: object } }> } | undefined;
      if (served.solvers.length > 0)
        expect(quoted?.quotes[0]?.signatureData.domain).toMatchObject({
          chainId: served.chainId,
          verifyingContract: served.reactor,
        });
      await expectExamplesValid(doc);
    }
    // Nothing of the local deployment is in the other's document, and it offers no dev-helper examples.
    const text = JSON.stringify(mainnetDocument);
    for (const token of [...deployment.inputTokens, ...deployment.outputTokens])
      expect(text).not.toContain(token.address);
    expect(
      mainnetDocument.paths["/dev/fund"]?.post?.requestBody?.content?.["application/json"]?.examples,
    ).toBeUndefined();
  });

  it("gives every operation a request example (when it takes a body) and a 200 example, on both deployments", async () => {
    const mainnetDocument: OpenApiDocument = (await mainnet.inject({ url: "/api/v1/openapi.json" })).json();
    for (const [name, doc] of [
      ["devnet", document],
      ["mainnet-like", mainnetDocument],
    ] as const) {
      const missing: string[] = [];
      for (const { method, path, operation } of operationsOf(doc)) {
        const where = `${name} ${method.toUpperCase()} ${path}`;
        // Off the devnet the dev helpers only answer 403 DEV_ONLY: nothing to show (asserted above).
        if (name === "mainnet-like" && path.startsWith("/dev/")) continue;
        if (operation.requestBody && !operation.requestBody.content?.["application/json"]?.examples?.example)
          missing.push(`${where} request body`);
        const success = Object.entries(operation.responses["200"]?.content ?? {});
        // A binary answer (a solver's logo) has nothing to show as an example.
        const shown = success.filter(([type]) => !type.startsWith("image/"));
        for (const [type, media] of shown) if (!media.examples?.example) missing.push(`${where} 200 ${type}`);
      }
      // A quote answer, an auction's result and one solver's scorecard name a solver: a deployment without any (this
      // test's devnet placeholder) shows none of them.
      const served = name === "devnet" ? deployment : MAINNET_LIKE;
      const namingASolver = ["POST /quote", "GET /auctions/{requestId}", "GET /solvers/{id}"];
      expect(missing).toEqual(
        served.solvers.length === 0
          ? namingASolver.map((operation) => `${name} ${operation} 200 application/json`)
          : [],
      );
    }
  });

  it("redirects the entry points / and /api/v1 to the docs page", async () => {
    for (const url of ["/", "/api/v1", "/api/v1/"]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe("/api/v1/docs");
    }
    const page = await app.inject({ url: "/api/v1/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("swagger-ui");
  });
});

/** An object schema with properties, an array of them, or a union of them: never a bare string or an empty schema. */
function expectRealSchema(schema: unknown, where: string): void {
  expect(schema, where).toBeTypeOf("object");
  const node = schema as {
    type?: unknown;
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
    oneOf?: unknown[];
  };
  const union = node.anyOf ?? node.oneOf;
  if (union) {
    for (const [index, branch] of union.entries()) expectRealSchema(branch, `${where} (branch ${index})`);
    return;
  }
  if (node.type === "array") {
    expectRealSchema(node.items, `${where} items`);
    return;
  }
  expect(node.type, `${where}: ${JSON.stringify(schema).slice(0, 200)}`).toBe("object");
  expect(Object.keys(node.properties ?? {}).length, `${where} has no properties`).toBeGreaterThan(0);
}

/** A parameter schema that can refuse a value (a pattern, a format, bounds, an enum). */
function hasRule(schema: unknown): boolean {
  const node = schema as Record<string, unknown>;
  return ["pattern", "format", "minimum", "maximum", "enum", "minLength", "maxLength"].some(
    (key) => key in node,
  );
}

function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => value(name));
}

/** A valid value for each path parameter name the API has. */
function validParameter(name: string): string {
  if (name === "address") return `0x${"ab".repeat(20)}`;
  if (name === "blockNumber") return "100";
  return "nobody.png";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Every example of the document (request bodies, parameters, responses) validates against its own schema. */
async function expectExamplesValid(document: OpenApiDocument): Promise<void> {
  const resolved = (await dereference(structuredClone(document) as never)) as unknown as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  let checked = 0;
  const check = (schema: unknown, value: unknown, where: string) => {
    const valid = ajv.validate(schema as object, value);
    expect(valid, `${where}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    checked++;
  };
  for (const { method, path, operation } of operationsOf(resolved)) {
    const where = `${method.toUpperCase()} ${path}`;
    const body = operation.requestBody?.content?.["application/json"];
    for (const [name, example] of Object.entries(body?.examples ?? {}))
      check(body?.schema, example.value, `${where} body ${name}`);
    for (const parameter of operation.parameters ?? []) {
      const example = (parameter as { example?: unknown }).example;
      if (example !== undefined) check(parameter.schema, coerce(example), `${where} ${parameter.name}`);
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      const media = response.content?.["application/json"];
      for (const [name, example] of Object.entries(media?.examples ?? {}))
        check(media?.schema, example.value, `${where} ${status} ${name}`);
      // An event stream's example is its text: each snapshot/order event's data is an Order record.
      const stream = response.content?.["text/event-stream"];
      for (const [name, example] of Object.entries(stream?.examples ?? {})) {
        const events = String(example.value)
          .split("\n\n")
          .filter((block) => /^event: (snapshot|order)$/m.test(block));
        expect(events.length, `${where} ${status} ${name}`).toBeGreaterThan(0);
        for (const event of events) {
          expect(event, `${where} ${status} ${name}`).toMatch(/^id: \d+$/m);
          const data = event.match(/^data: (.*)$/m)?.[1] ?? "null";
          check(resolved.components?.schemas?.Order, JSON.parse(data), `${where} ${status} ${name} event`);
        }
      }
    }
  }
  expect(checked).toBeGreaterThan(40);
}

/** A query example as the schema sees it once parsed (numbers in a query string are coerced). */
function coerce(value: unknown): unknown {
  return typeof value === "string" && /^\d+$/.test(value) && value.length < 10 ? Number(value) : value;
}

/** A database every query of which fails as an unreachable one does (a connection refused). */
function unreachableDatabase(): Database {
  const failure = () => new DatabaseUnavailableError("database unavailable: connection refused (test)");
  // Drizzle builds a query by chaining calls, then awaits it: every step is this proxy, and awaiting it fails.
  const chain: unknown = new Proxy(() => {}, {
    get: (_target, key) =>
      key === "then" ? (_resolve: unknown, reject: (error: Error) => void) => reject(failure()) : chain,
    apply: () => chain,
  });
  const database: Database = {
    kind: "postgres",
    db: chain as Database["db"],
    query: async () => {
      throw failure();
    },
    get maintenance() {
      return database;
    },
    tryAdvisoryLock: async () => {
      throw failure();
    },
    withAdvisoryLock: async () => {
      throw failure();
    },
    readConsistently: async () => {
      throw failure();
    },
    writeTogether: async () => {
      throw failure();
    },
    listen: async () => {
      throw failure();
    },
    lockTransaction: async () => {
      throw failure();
    },
    close: async () => {},
  };
  return database;
}
