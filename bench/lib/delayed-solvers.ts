// The swap suite's solvers: one HTTP solver server per configured solver, all in this process (apart from the
// server under test and the load generator), each answering POST /quote with a valid quote after the delay
// solver-delays.ts assigns it for that request. Like test/support/solver-server.ts, minus the scripting.
//
// Config (env BENCH_SOLVERS): [{ id, filler, secret }]. Prints {"msg":"solvers listening","solvers":[{id,url}]}.
// Every server also answers GET /stats (each answer's injected delay and how long it really took, from the
// request's arrival to the answer written: a timer fires late under load, and that lateness is the solver
// process's, not Sluice's) and POST /stats/reset (after the warm-up).
//
// With BENCH_SOLVERS_LEAN=1 the servers speak HTTP/1.1 over `node:net` by hand (one request at a time per
// connection, bodies framed by Content-Length, always kept alive) instead of `node:http`: solvers that take a third of
// the CPU per request, for runs where their share of the machine's cores is what is in the way.
import { createServer, type IncomingMessage } from "node:http";
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { SHARED_SECRET_HEADER, type SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { injectedDelayMs } from "./solver-delays.ts";

interface SolverSpec {
  id: string;
  filler: string;
  secret: string;
}

export interface AnswerRecord {
  requestId: string;
  solverIndex: number;
  injectedMs: number;
  /** From the request's arrival to the answer written. */
  answeredMs: number;
}

export interface SolversReady {
  msg: "solvers listening";
  solvers: Array<{ id: string; url: string }>;
}

const specs = JSON.parse(process.env.BENCH_SOLVERS ?? "[]") as SolverSpec[];
if (specs.length === 0) throw new Error("BENCH_SOLVERS names no solver");

const answers: AnswerRecord[] = [];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      data += chunk;
    });
    request.on("end", () => resolve(data));
    request.on("error", reject);
  });
}

interface Answer {
  status: number;
  body: unknown;
  /** A quote's record, kept (with its time) once its answer is written. */
  record?: Omit<AnswerRecord, "answeredMs">;
}

/** Writes an answer through `write`, then keeps its record, timed from the request's arrival. */
function written(reply: Answer, arrived: number, write: (status: number, text: string) => void): void {
  write(reply.status, JSON.stringify(reply.body));
  if (reply.record) answers.push({ ...reply.record, answeredMs: performance.now() - arrived });
}

/** What one solver answers a request, whichever transport carried it. */
async function answer(
  spec: SolverSpec,
  index: number,
  request: { method: string; url: string; secret: string | undefined; body: string },
): Promise<Answer> {
  if (request.method === "GET" && request.url === "/stats") return { status: 200, body: { answers } };
  if (request.method === "POST" && request.url === "/stats/reset") {
    answers.length = 0;
    return { status: 200, body: {} };
  }
  if (request.method !== "POST" || request.url !== "/quote") return { status: 404, body: {} };
  // A misconfigured secret must show up as a missing quote, not pass silently.
  if (request.secret !== spec.secret) return { status: 401, body: {} };
  const quote = JSON.parse(request.body) as SolverQuoteRequest;
  const injectedMs = injectedDelayMs(quote.requestId, index);
  await sleep(injectedMs);
  // 18-decimal input to 6-decimal output at 0.99, a little less for each later solver: distinct amounts rank.
  const amountOut = (BigInt(quote.amount) / 10n ** 12n) * BigInt(9900 - index);
  return {
    record: { requestId: quote.requestId, solverIndex: index, injectedMs },
    status: 200,
    body: {
      chainId: quote.tokenInChainId,
      amountIn: quote.amount,
      amountOut: (amountOut / 10_000n).toString(),
      filler: spec.filler,
      requestId: quote.requestId,
      swapper: quote.swapper,
      tokenIn: quote.tokenIn,
      tokenOut: quote.tokenOut,
      quoteId: quote.quoteId,
    },
  };
}

function nodeHttpServer(spec: SolverSpec, index: number) {
  const server = createServer((request, response) => {
    const arrived = performance.now();
    readBody(request)
      .then((body) =>
        answer(spec, index, {
          method: request.method ?? "",
          url: request.url ?? "",
          secret: request.headers[SHARED_SECRET_HEADER] as string | undefined,
          body,
        }),
      )
      .then((reply) =>
        written(reply, arrived, (status, text) =>
          response.writeHead(status, { "content-type": "application/json" }).end(text),
        ),
      )
      .catch((error: unknown) => {
        if (!response.headersSent)
          response
            .writeHead(500, { "content-type": "application/json" })
            .end(JSON.stringify({ error: String(error) }));
      });
  });
  // Sluice keeps connections alive across auctions; so must the solver.
  server.keepAliveTimeout = 60_000;
  return { server, closeAll: () => server.closeAllConnections() };
}

const HEAD_END = "\r\n\r\n";

/** The lean transport: requests read by hand, one at a time per connection, framed by Content-Length. */
function leanServer(spec: SolverSpec, index: number) {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffered = "";
    let busy = false;
    const next = (): void => {
      if (busy) return;
      const headEnd = buffered.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const arrived = performance.now();
      const lines = buffered.slice(0, headEnd).split("\r\n");
      const [method = "", url = ""] = lines[0]!.split(" ");
      let length = 0;
      let secret: string | undefined;
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "content-length") length = Number(value);
        else if (name === SHARED_SECRET_HEADER) secret = value;
        else if (name === "transfer-encoding") {
          socket.end("HTTP/1.1 411 Length Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
          return;
        }
      }
      // Read as Latin-1, one character per byte, so Content-Length counts characters (the bodies are ASCII JSON).
      const start = headEnd + HEAD_END.length;
      if (buffered.length < start + length) return;
      const body = buffered.slice(start, start + length);
      buffered = buffered.slice(start + length);
      busy = true;
      answer(spec, index, { method, url, secret, body })
        .catch((error: unknown): Answer => ({ status: 500, body: { error: String(error) } }))
        .then((reply) => {
          written(reply, arrived, (status, text) =>
            socket.write(
              `HTTP/1.1 ${status} OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
            ),
          );
          busy = false;
          next();
        });
    };
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      next();
    });
  });
  return {
    server,
    closeAll: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

const lean = process.env.BENCH_SOLVERS_LEAN === "1";

const listening = await Promise.all(
  specs.map(async (spec, index) => {
    const { server, closeAll } = lean ? leanServer(spec, index) : nodeHttpServer(spec, index);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { id: spec.id, url: `http://127.0.0.1:${port}`, closeAll };
  }),
);

const ready: SolversReady = {
  msg: "solvers listening",
  solvers: listening.map(({ id, url }) => ({ id, url })),
};
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.once("SIGTERM", () => {
  for (const { closeAll } of listening) closeAll();
  process.exit(0);
});
