// The solver HTTP transport against real local servers: connections kept alive per solver, a stale kept-alive
// connection retried once, the round's deadline ending a request, answers capped in size, and what
// requestSolverQuote makes of garbage and cut-off answers.
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Address } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { requestSolverQuote } from "../../src/solvers/client.ts";
import { SolverDeadline } from "../../src/solvers/deadline.ts";
import type { Solver } from "../../src/solvers/directory.ts";
import {
  SolverAnswerTooLargeError,
  SolverDeadlinePassedError,
  SolverHttpClient,
} from "../../src/solvers/http-client.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";

interface TestServer {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** Requests seen, with the connection (its index) each came on. */
  requests: Array<{ path: string; secret: string | undefined; body: string; connection: number }>;
  /** Connections currently open. */
  open: Set<Socket>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: TestServer["requests"][number]) => void;

const servers: TestServer[] = [];
const clients: SolverHttpClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startServer(handler: Handler, basePath = ""): Promise<TestServer> {
  const connectionIndex = new WeakMap<Socket, number>();
  const state: TestServer = {
    url: "",
    connections: 0,
    requests: [],
    open: new Set(),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const seen = {
        path: req.url ?? "",
        secret: req.headers["x-rfq-shared-secret"] as string | undefined,
        body,
        connection: connectionIndex.get(req.socket) ?? -1,
      };
      state.requests.push(seen);
      handler(req, res, seen);
    });
  });
  server.on("connection", (socket: Socket) => {
    connectionIndex.set(socket, state.connections++);
    state.open.add(socket);
    socket.on("close", () => state.open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}${basePath}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  servers.push(state);
  return state;
}

function newClient(options?: ConstructorParameters<typeof SolverHttpClient>[0]) {
  const client = new SolverHttpClient(options);
  clients.push(client);
  return client;
}

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const FILLER = addr(0xf1);

function solverAt(url: string, id = "ext_test"): Solver {
  return {
    id,
    name: id,
    endpoint: url,
    filler: FILLER,
    internal: false,
    enabled: true,
    sharedSecret: `s-${id}`,
  };
}

function quoteRequest(): SolverQuoteRequest {
  return {
    requestId: randomUUID(),
    quoteId: randomUUID(),
    tokenInChainId: 31337,
    tokenOutChainId: 31337,
    swapper: addr(0x5),
    tokenIn: addr(0x7),
    tokenOut: addr(0x11),
    amount: "1000",
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: 1,
    adapters: [{ adapter: addr(0xa1), asset: addr(0x11), assetDecimals: 6, maxAssets: "1", maxRate: "1" }],
  };
}

function validAnswer(request: SolverQuoteRequest) {
  return {
    chainId: request.tokenInChainId,
    amountIn: request.amount,
    amountOut: "990",
    filler: FILLER,
    requestId: request.requestId,
    swapper: request.swapper,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    quoteId: request.quoteId,
  };
}

const echo: Handler = (_req, res, seen) => {
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify(validAnswer(JSON.parse(seen.body))));
};

const never = () => new SolverDeadline();

describe("SolverHttpClient", () => {
  it("posts to {endpoint}/quote with the solver's secret and keeps one connection alive across calls", async () => {
    const server = await startServer(echo, "/rfq/v1");
    const client = newClient();
    const solver = solverAt(`${server.url}/`);
    for (let i = 0; i < 3; i++) {
      const request = quoteRequest();
      const answer = await client.post(solver, JSON.stringify(request), never());
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual(validAnswer(request));
    }
    expect(server.requests.map((r) => [r.path, r.secret, r.connection])).toEqual([
      ["/rfq/v1/quote", "s-ext_test", 0],
      ["/rfq/v1/quote", "s-ext_test", 0],
      ["/rfq/v1/quote", "s-ext_test", 0],
    ]);
    expect(server.connections).toBe(1);
  });

  it("sends the request's head as Node's http client writes it from a headers object", async () => {
    // The header lines are handed to Node as an array; the bytes on the wire are those it wrote before.
    const heads: string[] = [];
    const raw = createNetServer((socket) => {
      socket.once("data", (data) => {
        heads.push(data.toString("latin1"));
        socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}");
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = raw.address() as AddressInfo;
      const client = newClient();
      await client.post(solverAt(`http://127.0.0.1:${port}/rfq`), '{"a":1}', never());
      await client.post({ endpoint: `http://127.0.0.1:${port}`, sharedSecret: undefined }, "{}", never());
      expect(heads).toEqual([
        "POST /rfq/quote HTTP/1.1\r\ncontent-type: application/json\r\nx-rfq-shared-secret: s-ext_test\r\n" +
          `content-length: 7\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n{"a":1}`,
        "POST /quote HTTP/1.1\r\ncontent-type: application/json\r\n" +
          `content-length: 2\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n{}`,
      ]);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("gives each solver its own connections", async () => {
    const server = await startServer(echo);
    const client = newClient();
    const [a, b] = [solverAt(server.url, "ext_a"), solverAt(server.url, "ext_b")];
    await client.post(a, JSON.stringify(quoteRequest()), never());
    await client.post(b, JSON.stringify(quoteRequest()), never());
    await client.post(a, JSON.stringify(quoteRequest()), never());
    expect(server.requests.map((r) => [r.secret, r.connection])).toEqual([
      ["s-ext_a", 0],
      ["s-ext_b", 1],
      ["s-ext_a", 0],
    ]);
  });

  it("sends a request again, once, on a fresh connection when a kept-alive one turns out closed", async () => {
    // The solver drops its connection on the second request it gets on it, as a server closing an idle
    // connection at the moment it is reused would.
    const perConnection = new Map<number, number>();
    const server = await startServer((req, res, seen) => {
      const count = (perConnection.get(seen.connection) ?? 0) + 1;
      perConnection.set(seen.connection, count);
      if (count === 2) req.socket.destroy();
      else echo(req, res, seen);
    });
    const client = newClient();
    const solver = solverAt(server.url);
    await client.post(solver, JSON.stringify(quoteRequest()), never());
    const answer = await client.post(solver, JSON.stringify(quoteRequest()), never());
    expect(answer.status).toBe(200);
    expect(server.requests.map((r) => r.connection)).toEqual([0, 0, 1]);
  });

  it("does not send again when the first connection fails", async () => {
    const server = await startServer((req) => req.socket.destroy());
    const client = newClient();
    await expect(client.post(solverAt(server.url), "{}", never())).rejects.toMatchObject({
      code: "ECONNRESET",
    });
    expect(server.requests).toHaveLength(1);
  });

  it("ends the request and its connection when the deadline passes", async () => {
    const server = await startServer(() => {
      // Never answers.
    });
    const client = newClient();
    const deadline = new SolverDeadline();
    const pending = client.post(solverAt(server.url), "{}", deadline);
    await expect.poll(() => server.requests.length).toBe(1);
    deadline.close();
    await expect(pending).rejects.toBeInstanceOf(SolverDeadlinePassedError);
    await expect.poll(() => server.open.size).toBe(0);
  });

  it("sends nothing when the deadline has passed before the request is sent", async () => {
    const server = await startServer(echo);
    const client = newClient();
    const solver = solverAt(server.url);
    // A first request opens the connection, so the second one would go out at once.
    await client.post(solver, JSON.stringify(quoteRequest()), never());
    const deadline = new SolverDeadline();
    deadline.close();
    await expect(client.post(solver, JSON.stringify(quoteRequest()), deadline)).rejects.toBeInstanceOf(
      SolverDeadlinePassedError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(1);
  });

  it("stops reading an answer above the size limit, declared or streamed", async () => {
    const big = "x".repeat(2048);
    const server = await startServer((_req, res, seen) => {
      if (seen.body === "declared") res.writeHead(200, { "content-length": big.length }).end(big);
      else {
        // Chunked, no length: the limit is found while reading.
        res.writeHead(200);
        res.write(big.slice(0, 1000));
        setTimeout(() => res.end(big.slice(1000)), 20);
      }
    });
    const client = newClient({ maxAnswerBytes: 1024 });
    const solver = solverAt(server.url);
    await expect(client.post(solver, "declared", never())).rejects.toBeInstanceOf(SolverAnswerTooLargeError);
    await expect(client.post(solver, "streamed", never())).rejects.toBeInstanceOf(SolverAnswerTooLargeError);
  });

  it("reads an answer exactly at the limit", async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end("y".repeat(1024)));
    const answer = await newClient({ maxAnswerBytes: 1024 }).post(solverAt(server.url), "{}", never());
    expect(answer.body).toHaveLength(1024);
  });
});

describe("requestSolverQuote over the transport", () => {
  async function outcomeFrom(handler: Handler, signal = never()) {
    const server = await startServer(handler);
    return requestSolverQuote(solverAt(server.url), quoteRequest(), signal, newClient());
  }

  it("judges a valid answer a quote, with its latency", async () => {
    const outcome = await outcomeFrom(echo);
    expect(outcome).toMatchObject({ kind: "quoted", amountOut: 990n, filler: FILLER });
    expect(outcome.latencyMs).toBeGreaterThan(0);
  });

  it.each([
    ["not JSON", "<html>nope", "not JSON"],
    ["JSON of the wrong shape", JSON.stringify({ amountOut: 5 }), "chainId"],
    ["a JSON array", "[]", "expected object"],
    ["an empty body", "", "not JSON"],
  ])("rejects %s as invalid_body", async (_label, body, detail) => {
    const outcome = await outcomeFrom((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(body),
    );
    expect(outcome).toMatchObject({ kind: "rejected", reason: "invalid_body" });
    if (outcome.kind === "rejected") expect(outcome.detail).toContain(detail);
  });

  it.each([
    [
      "a field of the wrong type",
      { amountOut: 990 },
      "invalid_body",
      "amountOut: Invalid input: expected string",
    ],
    ["a malformed address", { filler: "0x12" }, "invalid_body", "filler: must be 0x followed by 40 hex"],
    ["another chain", { chainId: 1 }, "echo_mismatch", "chainId differs from the request"],
    ["another amountIn", { amountIn: "999" }, "echo_mismatch", "amountIn differs from the request"],
    ["another requestId", { requestId: randomUUID() }, "echo_mismatch", "requestId differs from the request"],
    ["another quoteId", { quoteId: randomUUID() }, "echo_mismatch", "quoteId differs from the request"],
    ["another swapper", { swapper: addr(0x6) }, "echo_mismatch", "swapper differs from the request"],
    ["another tokenIn", { tokenIn: addr(0x8) }, "echo_mismatch", "tokenIn differs from the request"],
    ["another tokenOut", { tokenOut: addr(0x12) }, "echo_mismatch", "tokenOut differs from the request"],
    ["another filler", { filler: addr(0xf2) }, "wrong_filler", `filler ${addr(0xf2)} is not ${FILLER}`],
    ["amountOut 0", { amountOut: "000" }, "zero_amount", "amountOut is 0"],
  ])("rejects an answer with %s as %s", async (_label, change, reason, detail) => {
    const outcome = await outcomeFrom((_req, res, seen) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ...validAnswer(JSON.parse(seen.body)), ...change })),
    );
    expect(outcome).toMatchObject({ kind: "rejected", reason });
    if (outcome.kind === "rejected") expect(outcome.detail).toContain(detail);
  });

  it("accepts echoed addresses and ids in another case, and amountIn with leading zeros", async () => {
    const outcome = await outcomeFrom((_req, res, seen) => {
      const answer = validAnswer(JSON.parse(seen.body));
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          ...answer,
          amountIn: `00${answer.amountIn}`,
          filler: answer.filler.toUpperCase().replace("0X", "0x"),
          swapper: answer.swapper.toUpperCase().replace("0X", "0x"),
          requestId: answer.requestId.toUpperCase(),
          quoteId: answer.quoteId.toUpperCase(),
        }),
      );
    });
    expect(outcome).toMatchObject({ kind: "quoted", amountOut: 990n, filler: FILLER });
  });

  it("rejects an oversized answer as invalid_body without reading it all", async () => {
    const outcome = await outcomeFrom((_req, res) => res.writeHead(200).end("z".repeat(200_000)));
    expect(outcome).toMatchObject({
      kind: "rejected",
      reason: "invalid_body",
      detail: "answer larger than 65536 bytes",
    });
  });

  it("rejects an answer cut off mid-body as a network failure", async () => {
    const outcome = await outcomeFrom((_req, res) => {
      res.writeHead(200, { "content-length": 500 });
      res.write('{"chainId":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(outcome).toMatchObject({ kind: "rejected", reason: "network", detail: "aborted" });
  });

  it("rejects a connection closed before any answer as a network failure", async () => {
    const outcome = await outcomeFrom((req) => req.socket.destroy());
    expect(outcome).toMatchObject({ kind: "rejected", reason: "network", detail: "socket hang up" });
  });

  it("rejects a non-2xx as http_status and a 204 as a decline", async () => {
    expect(await outcomeFrom((_req, res) => res.writeHead(503).end("busy"))).toMatchObject({
      kind: "rejected",
      reason: "http_status",
      detail: "HTTP 503",
    });
    expect(await outcomeFrom((_req, res) => res.writeHead(204).end())).toMatchObject({ kind: "declined" });
  });

  it("calls an answer that comes after the deadline a timeout", async () => {
    const outcome = await outcomeFrom(
      (_req, res, seen) => setTimeout(() => echo(_req, res, seen), 300),
      SolverDeadline.after(50),
    );
    expect(outcome).toMatchObject({ kind: "rejected", reason: "timeout" });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(45);
    expect(outcome.latencyMs).toBeLessThan(300);
  });

  it("calls a refused connection a network failure", async () => {
    const outcome = await requestSolverQuote(
      solverAt("http://127.0.0.1:1"),
      quoteRequest(),
      never(),
      newClient(),
    );
    expect(outcome).toMatchObject({ kind: "rejected", reason: "network" });
    if (outcome.kind === "rejected") expect(outcome.detail).toContain("ECONNREFUSED");
  });
});

/** A server that answers each request on a connection with the next of `answers` (raw bytes), counting connections. */
async function rawServer(answer: (request: number, connection: number) => string | undefined) {
  const state = { connections: 0, requests: 0, closed: 0, sockets: new Set<Socket>() };
  const server = createNetServer((socket) => {
    const connection = state.connections++;
    state.sockets.add(socket);
    socket.on("close", () => {
      state.closed++;
      state.sockets.delete(socket);
    });
    socket.on("data", () => {
      const reply = answer(state.requests++, connection);
      if (reply !== undefined) socket.write(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servers.push({
    url: `http://127.0.0.1:${port}`,
    connections: 0,
    requests: [],
    open: state.sockets,
    close: async () => {
      for (const socket of state.sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
  return { url: `http://127.0.0.1:${port}`, state };
}

describe("SolverHttpClient connections", () => {
  it("reads a chunked answer and keeps its connection", async () => {
    const raw = await rawServer(
      () => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    );
    const client = newClient();
    const solver = solverAt(raw.url);
    for (let i = 0; i < 2; i++) expect((await client.post(solver, "{}", never())).body).toBe("{}");
    expect(raw.state.connections).toBe(1);
  });

  it("reads an answer framed by the connection's close (HTTP/1.0, no length)", async () => {
    const server = createNetServer((socket) => {
      socket.once("data", () =>
        socket.end('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"ok":true}'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = newClient();
      const solver = solverAt(`http://127.0.0.1:${port}`);
      expect(await client.post(solver, "{}", never())).toEqual({ status: 200, body: '{"ok":true}' });
      // And again, on a new connection: the first one ended with its answer.
      expect(await client.post(solver, "{}", never())).toEqual({ status: 200, body: '{"ok":true}' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("skips an interim 100 Continue", async () => {
    const raw = await rawServer(
      () => "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
    );
    const answer = await newClient().post(solverAt(raw.url), "{}", never());
    expect(answer).toEqual({ status: 200, body: "{}" });
  });

  it("opens a new connection after an answer with Connection: close, or framed by the close", async () => {
    const raw = await rawServer((request) =>
      request === 0
        ? "HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 2\r\n\r\n{}"
        : "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
    );
    const client = newClient();
    const solver = solverAt(raw.url);
    await client.post(solver, "{}", never());
    await client.post(solver, "{}", never());
    expect(raw.state.connections).toBe(2);
    await expect.poll(() => raw.state.closed).toBe(1);
  });

  it("closes an idle connection after its idle time, or the solver's shorter Keep-Alive hint less a second", async () => {
    const raw = await rawServer((_request, connection) =>
      connection === 0
        ? "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"
        : "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\ncontent-length: 2\r\n\r\n{}",
    );
    const client = newClient({ idleSocketMs: 150 });
    const solver = solverAt(raw.url);
    await client.post(solver, "{}", never());
    await expect.poll(() => raw.state.closed, { timeout: 2000 }).toBe(1);
    // A hint of 1 s leaves no time to keep the connection: it is closed at once.
    const started = performance.now();
    await client.post(solver, "{}", never());
    await expect.poll(() => raw.state.closed).toBe(2);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("does not reuse a connection that sent bytes after its answer", async () => {
    const raw = await rawServer(() => "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\n");
    const client = newClient();
    const solver = solverAt(raw.url);
    await client.post(solver, "{}", never());
    await client.post(solver, "{}", never());
    expect(raw.state.connections).toBe(2);
  });

  it("closes an idle connection the solver sends unasked-for bytes on", async () => {
    const raw = await rawServer(() => "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}");
    const client = newClient();
    await client.post(solverAt(raw.url), "{}", never());
    for (const socket of raw.state.sockets) socket.write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
    await expect.poll(() => raw.state.closed).toBe(1);
  });

  it("fails a malformed answer as a network failure and closes its connection", async () => {
    const raw = await rawServer(() => "SSH-2.0-OpenSSH_9.2\r\n\r\n");
    const outcome = await requestSolverQuote(solverAt(raw.url), quoteRequest(), never(), newClient());
    expect(outcome).toMatchObject({
      kind: "rejected",
      reason: "network",
      detail: "malformed HTTP answer: invalid status line",
    });
    await expect.poll(() => raw.state.closed).toBe(1);
  });

  it("sends the body's UTF-8 bytes, counted in its length", async () => {
    const server = await startServer(echo);
    const body = JSON.stringify({ note: "déjà vu ✓" });
    await newClient().post(solverAt(server.url), body, never());
    expect(server.requests[0]?.body).toBe(body);
  });

  it("rejects, never throws, for a secret Node would refuse in a header or a scheme it does not speak", async () => {
    const server = await startServer(echo);
    const client = newClient();
    // Callers chain .catch() on post(): a synchronous throw would escape it.
    const bad = client.post({ endpoint: server.url, sharedSecret: "line\r\nbreak" }, "{}", never());
    await expect(bad).rejects.toThrow("Invalid character in header content");
    await expect(
      client.post({ endpoint: "ftp://127.0.0.1:21", sharedSecret: undefined }, "{}", never()),
    ).rejects.toThrow('Protocol "ftp:" not supported');
  });

  it("refuses a secret Node would refuse in a header", async () => {
    const server = await startServer(echo);
    const outcome = await requestSolverQuote(
      { ...solverAt(server.url), sharedSecret: "line\r\nbreak" },
      quoteRequest(),
      never(),
      newClient(),
    );
    expect(outcome).toMatchObject({ kind: "rejected", reason: "network" });
    expect(server.requests).toHaveLength(0);
  });

  it("speaks TLS to an https endpoint, checks its certificate, and keeps a trusted one's connection", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const secure = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (_req, res) => res.writeHead(200, { "content-length": 2 }).end("{}"),
    );
    let handshakes = 0;
    secure.on("secureConnection", () => handshakes++);
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = secure.address() as AddressInfo;
      const outcome = await requestSolverQuote(
        solverAt(`https://localhost:${port}`),
        quoteRequest(),
        never(),
        newClient(),
      );
      // A self-signed certificate: the handshake happened and the certificate was refused.
      expect(outcome).toMatchObject({ kind: "rejected", reason: "network" });
      if (outcome.kind === "rejected") expect(outcome.detail).toContain("self-signed certificate");

      // Trusted (NODE_EXTRA_CA_CERTS, read at a process's start, so in a child): two answers on one connection.
      const child = join(dir, "child.mts");
      writeFileSync(
        child,
        `import { SolverHttpClient } from ${JSON.stringify(fileURLToPath(new URL("../../src/solvers/http-client.ts", import.meta.url)))};
import { SolverDeadline } from ${JSON.stringify(fileURLToPath(new URL("../../src/solvers/deadline.ts", import.meta.url)))};
const client = new SolverHttpClient();
const solver = { endpoint: "https://localhost:${port}", sharedSecret: "s" };
const answers = [];
for (let i = 0; i < 2; i++) answers.push(await client.post(solver, "{}", new SolverDeadline()));
client.close();
console.log(JSON.stringify(answers));`,
      );
      const printed = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["--import", "tsx", child],
          { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "cert.pem") } },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      expect(JSON.parse(printed)).toEqual([
        { status: 200, body: "{}" },
        { status: 200, body: "{}" },
      ]);
      // Both trusted requests on one connection (the refused handshake never completes on the server's side).
      expect(handshakes).toBe(1);
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
