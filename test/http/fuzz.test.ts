// Malformed requests to every operation of the OpenAPI document, to the internal discount API and to the docs' static
// files, over real HTTP: wrong types, out-of-range numbers, 2^256, NUL and other control characters, deep nesting,
// bad JSON, wrong content types, traversal segments. Half of them change one field of a valid request, so the
// handlers themselves run, not only validation. No answer may be a 5xx, and every error must come in its route's
// envelope: `{errorCode, errorMessage}` under /entities and /points, the swap-flow envelope with an X-Request-Id
// everywhere else. And text PostgreSQL cannot store (a lone UTF-16 surrogate, a NUL character) in any string of any
// body or query is refused at validation: 400, field by field, never a 5xx nor a 200 that stored nothing.
//
// Seeded and bounded: a failure names the seed, and SLUICE_FUZZ_SEED=<seed> replays exactly those requests.
import { randomInt } from "node:crypto";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { DevFaucet, faucetAssetsFor } from "../../src/devnet/faucet.ts";
import { PartnerErrorSchema, SwapErrorSchema } from "../../src/http/errors.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { SolverLogoStore } from "../../src/solvers/logos.ts";
import { discountBody } from "../liquidity/worked-example.ts";
import { address, loadSnapshot, registerVault, row } from "../points/support.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { placeOrder, quoteRequestBody, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp, type TestSolver, testDeployment } from "../support/swap.ts";

const SEED = process.env.SLUICE_FUZZ_SEED ? Number(process.env.SLUICE_FUZZ_SEED) : randomInt(2 ** 31);
/** Per operation over the whole run, shared between the database kinds (the HTTP layer is the same on both). */
const SAMPLES_PER_OPERATION = 200;
const CONCURRENCY = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PARTNER_PATH = /^\/api\/v1\/(entities|points)(\/|\?|$)/;
const TWO_POW_256 = (1n << 256n).toString();
const PARSER_ERROR_CODES: readonly string[] = ["MALFORMED_REQUEST", "HEADERS_TOO_LARGE", "REQUEST_TIMEOUT"];

const chain = useTestChain();

// --- requests ------------------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A valid request of one operation, in parts the mutations change one at a time. */
interface RequestParts {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: Json;
}

interface Operation {
  method: string;
  /** `/api/v1` or `/api-internal/v1`. */
  prefix: string;
  /** As the OpenAPI document names it, parameters in braces. */
  path: string;
  valid(): RequestParts;
  /** Statuses that only the handler itself answers: some sample must get one. */
  reached: number[];
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was done to the valid request. */
  mutation: string;
}

class Picker {
  constructor(readonly random: () => number) {}
  int(below: number): number {
    return Math.floor(this.random() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
}

/** A JSON value nested `depth` deep, written as text where the marker stands (JSON.stringify would recurse). */
const DEEP_MARKER = /"\\u0001deep:(\d+)"/g;
const deep = (depth: number): string => `\u0001deep:${depth}`;
function jsonText(value: Json): string {
  return JSON.stringify(value).replace(DEEP_MARKER, (_match, depth: string) => {
    const n = Number(depth);
    return `${"[".repeat(n)}${"]".repeat(n)}`;
  });
}

const CONTROL_CHARACTERS = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009f",
];

/** Text that is not well-formed Unicode, or holds a NUL: PostgreSQL's text and jsonb refuse both. */
const UNSTORABLE_TEXT = ["\ud800", "\udfff", "\udc00\ud800", "\ud83e", "\u0000"];

/** `valid` with unstorable text at its start, inside or at its end. */
function unstorable(pick: Picker, valid: string): string {
  const at = pick.int(valid.length + 1);
  return `${valid.slice(0, at)}${pick.pick(UNSTORABLE_TEXT)}${valid.slice(at)}`;
}

/** A string that breaks some rule, often derived from the valid one. */
function badString(pick: Picker, valid: string): string {
  const at = pick.int(valid.length + 1);
  switch (pick.int(22)) {
    case 0:
      return "";
    case 1:
      return pick.pick([" ", "0", "-1", "1.5", "1e3", "+1", "00", "-0", "0x", "0x0"]);
    case 2:
      return pick.pick([
        TWO_POW_256,
        `${TWO_POW_256}0`,
        "9007199254740992",
        "9007199254740993",
        "18446744073709551616",
      ]);
    case 3:
      return pick.pick([
        "NaN",
        "Infinity",
        "-Infinity",
        "null",
        "undefined",
        "true",
        "[]",
        "{}",
        "__proto__",
      ]);
    case 4:
      return `${valid}\u0000`;
    case 5:
      return `${valid.slice(0, at)}${pick.pick(CONTROL_CHARACTERS)}${valid.slice(at)}`;
    case 6:
      return `${valid.slice(0, at)}${pick.pick(["\u2028", "\ud800", "\udc00", "\ufeff", "\u202e", "🦀", "é", "１", "٣"])}${valid.slice(at)}`;
    case 7:
      return "x".repeat(1 + pick.int(pick.chance(0.2) ? 20_000 : 600));
    case 8:
      return pick.pick([
        "..",
        "../..",
        "../../../etc/passwd",
        "..\\..\\",
        "%00",
        "%2e%2e%2f",
        "%",
        "%zz",
        "/",
      ]);
    case 9:
      return valid.toUpperCase();
    case 10:
      return ` ${valid} `;
    case 11:
      return `${valid},${valid}`;
    case 12:
      return valid.slice(0, Math.max(0, valid.length - 1 - pick.int(3)));
    case 13:
      return `${valid}${pick.pick(["0", "a", "g", "x", ".0", "e1"])}`;
    case 14:
      return `0x${"g".repeat(40)}`;
    case 15:
      return `0x${"f".repeat(pick.pick([39, 41, 63, 65, 129, 131]))}`;
    case 16:
      return String(pick.int(10 ** pick.int(20)));
    case 17:
      return valid.replace(/[0-9]/g, "٣");
    case 18:
      return valid.repeat(2 + pick.int(4));
    case 19:
      return String.fromCodePoint(1 + pick.int(0x10ffff)).replace(/[\ud800-\udfff]/g, "?");
    default: {
      const alphabet = "abcXYZ019-_~!$&'()*+,;=:@%\"<>\\^`{|}";
      return Array.from({ length: 1 + pick.int(24) }, () => pick.pick([...alphabet])).join("");
    }
  }
}

/** A JSON value that breaks some rule where `valid` stands. */
function badJson(pick: Picker, valid: Json): Json {
  switch (pick.int(8)) {
    case 0:
      return pick.pick([0, -1, 1.5, -0, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 1.157920892373162e77, 2 ** 48]);
    case 1:
      return pick.pick([true, false, null, [], {}]);
    case 2:
      return [valid];
    case 3:
      return { value: valid };
    case 4:
      return deep(pick.pick([10, 100, 1_000, 5_000]));
    case 5:
      if (typeof valid === "number") return String(valid);
      if (typeof valid === "string" && /^\d+$/.test(valid)) return Number(valid);
      return badString(pick, jsonText(valid));
    default:
      return badString(pick, typeof valid === "string" ? valid : jsonText(valid));
  }
}

/** Every place in a JSON value, as a path of keys and indexes (the root is not one). */
function jsonPaths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...prefix, index], ...jsonPaths(item, [...prefix, index])]);
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...jsonPaths(item, [...prefix, key]),
    ]);
  return [];
}

function getAt(value: Json, path: Array<string | number>): Json {
  return path.reduce<Json>((node, key) => (node as Record<string, Json>)[key as string] as Json, value);
}

/** A copy of `value` with the place at `path` replaced (or removed, with `undefined`). */
function setAt(value: Json, path: Array<string | number>, replacement: Json | undefined): Json {
  const [head, ...rest] = path;
  if (head === undefined) return replacement ?? null;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = setAt(copy[head as number]!, rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, Json>) };
  if (rest.length === 0 && replacement === undefined) delete copy[head as string];
  else copy[head as string] = setAt(copy[head as string]!, rest, replacement);
  return copy;
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, where encodeURIComponent would throw). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

function render(operation: Operation, parts: RequestParts, mutation: string): FuzzRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    percentEncode(parts.params[name] ?? ""),
  );
  const query = Object.entries(parts.query)
    .flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map((item) => `${percentEncode(key)}=${percentEncode(item)}`),
    )
    .join("&");
  const headers = { ...parts.headers };
  const request: FuzzRequest = {
    method: operation.method,
    url: `${operation.prefix}${path}${query ? `?${query}` : ""}`,
    headers,
    mutation,
  };
  if (parts.body !== undefined) {
    request.payload = jsonText(parts.body);
    headers["content-type"] = "application/json";
  }
  return request;
}

/** Header values an HTTP client can send (no control characters), each wrong in some way. */
function badHeader(pick: Picker, valid: string): string {
  return pick.pick([
    "",
    " ",
    valid.toUpperCase(),
    `${valid}x`,
    "int_nobody",
    "ext_alpha",
    "a".repeat(4000),
    "é",
    `${valid}\t`,
  ]);
}

/** One field of a valid request changed: a path parameter, a query parameter, a header or a place in the body. */
function mutateOneField(pick: Picker, operation: Operation): FuzzRequest {
  const parts = operation.valid();
  const fields = [
    ...Object.keys(parts.params).map((name) => ({ kind: "param" as const, name })),
    ...Object.keys(parts.query).map((name) => ({ kind: "query" as const, name })),
    ...Object.keys(parts.headers).map((name) => ({ kind: "header" as const, name })),
    ...(parts.body === undefined
      ? []
      : jsonPaths(parts.body).map((path) => ({ kind: "body" as const, path }))),
  ];
  // An operation without fields gets one it does not expect.
  if (fields.length === 0) {
    parts.query = { [pick.pick(["limit", "cursor", "address", "x"])]: badString(pick, "1") };
    return render(operation, parts, "unexpected query parameter");
  }
  const field = pick.pick(fields);
  switch (field.kind) {
    case "param":
      parts.params[field.name] = badString(pick, parts.params[field.name]!);
      return render(operation, parts, `path parameter ${field.name}`);
    case "query": {
      const valid = parts.query[field.name]!;
      const one = Array.isArray(valid) ? valid[0]! : valid;
      const roll = pick.int(7);
      if (roll === 0) delete parts.query[field.name];
      else if (roll === 1) parts.query[field.name] = [one, badString(pick, one)];
      else parts.query[field.name] = badString(pick, one);
      return render(operation, parts, `query parameter ${field.name}`);
    }
    case "header":
      if (pick.chance(0.2)) delete parts.headers[field.name];
      else parts.headers[field.name] = badHeader(pick, parts.headers[field.name]!);
      return render(operation, parts, `header ${field.name}`);
    case "body": {
      const body = parts.body!;
      const valid = getAt(body, field.path);
      const roll = pick.int(10);
      if (roll === 0) parts.body = setAt(body, field.path, undefined);
      else if (roll === 1 && Array.isArray(valid))
        parts.body = setAt(
          body,
          field.path,
          pick.chance(0.5) ? [] : Array.from({ length: 60 }, () => valid[0] ?? null),
        );
      else if (roll === 2 && valid && typeof valid === "object" && !Array.isArray(valid))
        parts.body = setAt(body, field.path, {
          ...valid,
          [pick.pick(["__proto__", "constructor", "x\u0000"])]: 1,
        });
      else parts.body = setAt(body, field.path, badJson(pick, valid));
      return render(operation, parts, `body ${field.path.join(".")}`);
    }
  }
}

const BAD_JSON_TEXTS = [
  '{"a":}',
  "{'a':1}",
  "[1,2,]",
  "NaN",
  "",
  "null",
  "[]",
  "1",
  '"x"',
  "{",
  "}",
  "\u0000",
];
const BAD_CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/xml",
  "application/json-patch+json",
  "*/*",
  "application/json, text/plain",
];
const TRAVERSAL_SEGMENTS = [
  "..",
  "%2e%2e",
  "%2E%2E%2F",
  "..%2f..%2f",
  "..%5c..%5c",
  "..\\..\\",
  ".",
  "%00",
  "%",
  "%zz",
  "%ff",
  "",
  "%2f",
  ";x=1",
  "..;/",
  "~",
  "docs/static/../../../package.json",
];

/** The whole request malformed: its JSON text, content type, method, path segments, query string or nesting. */
function mutateWhole(pick: Picker, operation: Operation): FuzzRequest {
  const parts = operation.valid();
  const request = render(operation, parts, "");
  const kind = pick.int(7);
  if (kind === 0 && request.payload !== undefined) {
    const cut = request.payload.slice(0, pick.int(request.payload.length));
    const bad = pick.pick([
      cut,
      `${request.payload},`,
      `\ufeff${request.payload}`,
      `${request.payload}${request.payload}`,
      request.payload.replace(/"/g, "'"),
      request.payload.replace(":", ":NaN,"),
      `{"__proto__":{"polluted":1},${request.payload.slice(1)}`,
      `{"constructor":{"prototype":{"polluted":1}},${request.payload.slice(1)}`,
      pick.pick(BAD_JSON_TEXTS),
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
    ]);
    return { ...request, payload: bad, mutation: "malformed JSON" };
  }
  if (kind === 1) {
    const headers = { ...request.headers, "content-type": pick.pick(BAD_CONTENT_TYPES) };
    return { ...request, headers, payload: request.payload ?? "a=1", mutation: "wrong content type" };
  }
  if (kind === 2) {
    const method = pick.pick([
      "PUT",
      "DELETE",
      "PATCH",
      "OPTIONS",
      "HEAD",
      operation.method === "GET" ? "POST" : "GET",
    ]);
    return { ...request, method, mutation: `method ${method}` };
  }
  if (kind === 3) {
    const [path = "", query] = request.url.split("?");
    const segments = path.split("/");
    const at = 1 + pick.int(segments.length);
    segments.splice(at, pick.chance(0.5) ? 1 : 0, pick.pick(TRAVERSAL_SEGMENTS));
    return { ...request, url: `${segments.join("/")}${query ? `?${query}` : ""}`, mutation: "path segment" };
  }
  if (kind === 4) {
    const junk = pick.pick([
      "%00=1",
      "a[b]=1",
      "a=%00",
      `x=${"y".repeat(pick.int(20_000))}`,
      "&&&",
      "=",
      "__proto__=1",
      "constructor[prototype][x]=1",
      "limit=1&limit=2",
    ]);
    const separator = request.url.includes("?") ? "&" : "?";
    return { ...request, url: `${request.url}${separator}${junk}`, mutation: "query string" };
  }
  if (kind === 5) {
    const depth = pick.pick([50, 1_000, 20_000]);
    return {
      ...request,
      headers: { ...request.headers, "content-type": "application/json" },
      payload: `{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      mutation: "deep nesting",
    };
  }
  // Two fields at once, for combinations the one-field mutations never make.
  const first = mutateOneField(pick, operation);
  return {
    ...first,
    mutation: `${first.mutation} (and no body)`,
    payload: pick.chance(0.5) ? undefined : first.payload,
  };
}

// --- sending and judging ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(port: number, agent: Agent, request: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.payload !== undefined) headers["content-length"] = String(Buffer.byteLength(request.payload));
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: request.method, path: request.url, headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.payload);
  });
}

/** What is wrong with an answer, or undefined. */
function judge(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return "a 5xx";
  if (answer.status < 400 || request.method === "HEAD") return undefined;
  if (!UUID.test(String(answer.headers["x-request-id"]))) return "no X-Request-Id";
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return "an error body that is not JSON";
  }
  // What Node's parser refuses is answered before any route is known: always the swap-flow envelope.
  const parsed = SwapErrorSchema.safeParse(body);
  if (parsed.success && PARSER_ERROR_CODES.includes(parsed.data.error.code)) return undefined;
  const partner = PARTNER_PATH.test(request.url);
  const schema = partner ? PartnerErrorSchema : SwapErrorSchema;
  if (!schema.safeParse(body).success) return `not the ${partner ? "partner" : "swap-flow"} envelope`;
  return undefined;
}

async function runAll<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

// --- the server and its valid requests ------------------------------------------------------------------------

const SOLVERS: TestSolver[] = [
  { id: "ext_alpha", endpoint: "", logo: "sluice-alpha" },
  { id: "int_gamma", endpoint: "", internal: true },
];
const INTERNAL_CREDENTIALS = { "x-solver-id": "int_gamma", "x-rfq-shared-secret": "secret-int_gamma" };
const VAULT = address("a", 1);
const RECEIVER = address("b", 1);

describe.each(databaseKinds)("fuzzing every operation over HTTP (%s)", (kind) => {
  let database: Database;
  let subject: SwapTestApp;
  let alpha: ScriptedSolver;
  let gamma: ScriptedSolver;
  let port: number;
  /** The internal listener's port: the internal discount API is fuzzed there, as it is served. */
  let internalPort: number;
  let operations: Operation[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const filler = chain.core.executors[0]!;
    alpha = await startScriptedSolver({
      kind: "quote",
      filler,
      amountOut: (request) => (BigInt(request.amount) * 98n) / 100n / 10n ** 12n,
    });
    gamma = await startScriptedSolver({ kind: "decline" });
    const solvers = [
      { ...SOLVERS[0]!, endpoint: alpha.url },
      { ...SOLVERS[1]!, endpoint: gamma.url },
    ];
    const deployment = testDeployment(chain, solvers);
    const faucet = new DevFaucet({
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      owner: chain.accounts.deployer,
      assets: faucetAssetsFor(deployment),
      pollingIntervalMs: 20,
    });
    subject = await createSwapTestApp(chain, database, {
      clock: new ManualClock(Number(await chain.now()) * 1000),
      solvers,
      faucet,
      // No indexer runs here while the fuzzed dev helpers mine blocks: readiness must not hinge on it.
      env: { READY_MAX_INDEXER_LAG_BLOCKS: "1000000000" },
    });
    const { app } = subject;
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
    await subject.internal.listen({ port: 0, host: "127.0.0.1" });
    internalPort = (subject.internal.server.address() as AddressInfo).port;

    // Something for every route to find: points, a vault, two orders (so a list has a next page), a discount.
    await loadSnapshot(database, "sluice", 100, [row(VAULT, RECEIVER, 10n ** 20n)]);
    await registerVault(database, VAULT);
    const [order] = [await placeOrder(chain, app, database), await placeOrder(chain, app, database)];
    const swapper = chain.accounts.swapper.address;
    const page = await app.inject({ url: `/api/v1/orders?swapper=${swapper}&limit=1` });
    const cursor = page.json().cursor as string;
    expect(cursor, page.body).toEqual(expect.any(String));

    const quoteBody = quoteRequestBody(chain, { amount: 10n ** 18n, swapper });
    const quote = await app.inject({ method: "POST", url: "/api/v1/quote", payload: quoteBody });
    expect(quote.statusCode, quote.body).toBe(200);
    const entry = quote.json().quotes[0];
    const signature = await signRequest(
      chain.accounts.swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    const deadline = Number(await chain.now()) + 3600;
    const adapter = chain.core.adapters.usd;
    const published = await discountBody(chain, adapter, chain.accounts.marketMaker, { deadline });
    const publishing = await app.inject({ method: "POST", url: "/api/v1/discount", payload: published.body });
    expect(publishing.statusCode, publishing.body).toBe(200);
    const discountId = publishing.json().discountId as string;
    // Another pair, so that publishing it leaves the resolvable discount live.
    const another = await discountBody(chain, chain.core.adapters.usdt, chain.accounts.marketMaker, {
      deadline,
    });
    const logo = new SolverLogoStore().byName("sluice-alpha")!.fileName;

    const none = (): RequestParts => ({ params: {}, query: {}, headers: {} });
    const get = (path: string, valid: () => RequestParts = none, reached = [200]): Operation => ({
      method: "GET",
      prefix: "/api/v1",
      path,
      valid,
      reached,
    });
    const post = (path: string, body: () => Json, reached = [200]): Operation => ({
      method: "POST",
      prefix: "/api/v1",
      path,
      valid: () => ({ ...none(), body: body() }),
      reached,
    });
    const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Json;
    operations = [
      get("/health"),
      get("/ready"),
      get("/solver-logos/{filename}", () => ({ ...none(), params: { filename: logo } })),
      get("/entities/networks"),
      get("/entities/vaults"),
      get("/entities/operators"),
      get("/entities/curators"),
      get("/points/receiver/{address}/current", () => ({ ...none(), params: { address: RECEIVER } })),
      get("/points/vault/{address}/current", () => ({ ...none(), params: { address: VAULT } })),
      get("/points/vault/{address}/{blockNumber}", () => ({
        ...none(),
        params: { address: VAULT, blockNumber: "100" },
      })),
      get("/points/total/current"),
      get("/points/total/{blockNumber}", () => ({ ...none(), params: { blockNumber: "100" } })),
      get(
        "/points/receiver/{address}/{blockNumber}",
        () => ({ ...none(), params: { address: RECEIVER, blockNumber: "100" } }),
        [410],
      ),
      post("/check_approval", () => ({
        walletAddress: swapper,
        chainId: chain.chainId,
        token: chain.core.tokens.rwa,
        amount: "1000000000000000000",
      })),
      // With solverIds: a list of strings the round stores.
      post("/quote", () => json({ ...quoteBody, solverIds: ["ext_alpha"] })),
      post("/order", () => json({ quote: entry.quote, signature })),
      // The quote round's results, not public yet (the clock stays before its deadline): 409 AUCTION_OPEN.
      get(
        "/auctions/{requestId}",
        () => ({ ...none(), params: { requestId: quote.json().requestId } }),
        [409],
      ),
      get("/orders", () => ({
        ...none(),
        query: {
          swapper,
          orderStatus: "open",
          orderIds: [order.orderId],
          orderHash: order.orderHash,
          solverId: "ext_alpha",
          sortKey: "createdAt",
          sort: "desc",
          limit: "1",
          cursor,
        },
      })),
      // 409 once the order is no longer open, which the handler answers too.
      post("/cancel", () => ({ orderId: order.orderId }), [200, 409]),
      // A solver's stream without its credentials: 401 from the handler. Every mutation stays short of a stream
      // (no wallet filter, no credentials), so each request gets a whole answer.
      get("/orders/stream", () => ({ ...none(), query: { solverId: "ext_alpha", lastEventId: "1" } }), [401]),
      post("/liquidity", () => ({ tokenIn: chain.core.tokens.rwa, solverIds: ["ext_alpha", "int_gamma"] })),
      post("/liquidity-batch", () => ({ tokensIn: [chain.core.tokens.rwa], solverId: "ext_alpha" })),
      get("/solvers"),
      get("/solvers/{id}", () => ({ ...none(), params: { id: "ext_alpha" } })),
      get("/deployment"),
      post("/discount", () => json(another.body), [200, 409]),
      get("/dev/faucet"),
      post("/dev/faucet", () => ({ walletAddress: chain.accounts.other.address })),
      post("/dev/fund", () => ({ walletAddress: chain.accounts.other.address })),
      {
        method: "GET",
        prefix: "/api-internal/v1",
        path: "/discounts",
        valid: () => ({
          ...none(),
          query: { discountIds: discountId, tokensToRedeem: chain.core.tokens.rwa },
          headers: { ...INTERNAL_CREDENTIALS },
        }),
        reached: [200],
      },
      {
        method: "GET",
        prefix: "/api-internal/v1",
        path: "/health",
        valid: none,
        reached: [200],
      },
      {
        method: "GET",
        prefix: "/api-internal/v1",
        path: "/ready",
        valid: none,
        reached: [200],
      },
      {
        method: "GET",
        prefix: "/api-internal/v1",
        path: "/trail",
        valid: () => ({ ...none(), query: { orderId: order!.orderId } }),
        reached: [200],
      },
      {
        method: "POST",
        prefix: "/api-internal/v1",
        path: "/discounts",
        valid: () => ({
          ...none(),
          headers: { ...INTERNAL_CREDENTIALS },
          body: { discountIds: [discountId] },
        }),
        reached: [200],
      },
      // Not an API operation, but a path where traversal matters.
      get("/docs/static/{file}", () => ({ ...none(), params: { file: "index.css" } })),
    ];
  });

  afterAll(async () => {
    await subject?.close();
    await Promise.all([alpha?.close(), gamma?.close()]);
    await database?.close();
  });

  it("covers every operation of the OpenAPI document, whose schemas carry no $id", async () => {
    const response = await subject.app.inject({ url: "/api/v1/openapi.json" });
    const document = response.json();
    expect(response.body).not.toContain('"$id"');
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const fuzzed = operations.filter((o) => o.prefix === "/api/v1").map((o) => `${o.method} ${o.path}`);
    expect(documented.filter((operation) => !fuzzed.includes(operation))).toEqual([]);
  });

  // Its work grows with the operations (three more with /ready and /trail): a loaded machine needs more than 60 s.
  it(`answers ${SAMPLES_PER_OPERATION} malformed requests per operation without a 5xx, in the route's envelope`, async () => {
    const seed = SEED + databaseKinds.indexOf(kind);
    const pick = new Picker(mulberry32(seed));
    const samples = Math.ceil(SAMPLES_PER_OPERATION / databaseKinds.length);
    const requests = operations.flatMap((operation) =>
      Array.from({ length: samples }, (_, index) => ({
        operation,
        // Every other request changes one field of a valid one.
        request: index % 2 === 0 ? mutateOneField(pick, operation) : mutateWhole(pick, operation),
      })),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    // The first failure of each kind per operation, so that one noisy kind does not hide the others.
    const failures = new Map<string, string>();
    const statuses = new Map<Operation, Set<number>>();
    try {
      await runAll(requests, CONCURRENCY, async ({ operation, request }) => {
        let problem: string | undefined;
        let answer: Answer | undefined;
        try {
          const target = operation.prefix === "/api-internal/v1" ? internalPort : port;
          answer = await send(target, agent, request);
          problem = judge(request, answer);
          statuses.set(operation, (statuses.get(operation) ?? new Set()).add(answer.status));
        } catch (error) {
          problem = `no answer (${(error as Error).message})`;
        }
        const kind = `${problem} (${operation.method} ${operation.path})`;
        if (problem && !failures.has(kind))
          failures.set(
            kind,
            `${problem}: ${request.mutation}: ${request.method} ${request.url.slice(0, 300)} ` +
              `${JSON.stringify(request.headers).slice(0, 200)} ${request.payload?.slice(0, 300) ?? ""} → ` +
              `${answer?.status} ${answer?.body.slice(0, 300)}`,
          );
      });
    } finally {
      agent.destroy();
    }
    expect([...failures.values()], `seed ${seed} (SLUICE_FUZZ_SEED=${SEED} replays it)`).toEqual([]);
    // The valid-looking requests got through to the handlers.
    for (const operation of operations) {
      const seen = [...(statuses.get(operation) ?? [])];
      expect(
        seen.some((status) => operation.reached.includes(status)),
        `seed ${seed}: ${operation.method} ${operation.path} answered only ${seen.join(", ")}`,
      ).toBe(true);
    }
  }, 120_000);

  it("refuses unstorable text (a lone surrogate, a NUL) in every string of every body and query with 400", async () => {
    const pick = new Picker(mulberry32(SEED + 7));
    const requests: Array<{ operation: Operation; request: FuzzRequest }> = [];
    for (const operation of operations) {
      const parts = operation.valid();
      for (const [name, value] of Object.entries(parts.query)) {
        const valid = operation.valid();
        // A URL carries no lone surrogate (its percent-encoding is UTF-8): a NUL is what a query can hold.
        const bad = (text: string) => `${text.slice(0, 2)}\u0000${text.slice(2)}`;
        valid.query[name] = Array.isArray(value) ? [value[0]!, bad(value[0]!)] : bad(value);
        requests.push({ operation, request: render(operation, valid, `query parameter ${name}`) });
      }
      if (parts.body === undefined) continue;
      for (const path of jsonPaths(parts.body)) {
        const value = getAt(parts.body, path);
        if (typeof value !== "string") continue;
        const valid = operation.valid();
        valid.body = setAt(valid.body!, path, unstorable(pick, value));
        requests.push({ operation, request: render(operation, valid, `body ${path.join(".")}`) });
      }
      // A key the route keeps nowhere, and one in an object it stores whole.
      const keyed = operation.valid();
      if (keyed.body && typeof keyed.body === "object" && !Array.isArray(keyed.body)) {
        keyed.body = { ...keyed.body, [`x${pick.pick(UNSTORABLE_TEXT)}`]: "1" };
        requests.push({ operation, request: render(operation, keyed, "body key") });
      }
    }
    expect(requests.length).toBeGreaterThan(40);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const wrong: string[] = [];
    try {
      await runAll(requests, CONCURRENCY, async ({ operation, request }) => {
        const target = operation.prefix === "/api-internal/v1" ? internalPort : port;
        const answer = await send(target, agent, request);
        const problem = answer.status === 400 ? judge(request, answer) : `${answer.status}`;
        if (problem)
          wrong.push(
            `${operation.method} ${operation.path} ${request.mutation}: ${problem} ${answer.body.slice(0, 200)}`,
          );
      });
    } finally {
      agent.destroy();
    }
    expect(wrong, `SLUICE_FUZZ_SEED=${SEED} replays it`).toEqual([]);
  });
});
