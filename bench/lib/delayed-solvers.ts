// The swap suite's solvers: one HTTP solver server per configured solver, all in this process (apart from the
// server under test and the load generator), each answering POST /quote with a valid quote after the delay
// solver-delays.ts assigns it for that request. Like test/support/solver-server.ts, minus the scripting.
//
// Config (env BENCH_SOLVERS): [{ id, filler, secret }]. Prints {"msg":"solvers listening","solvers":[{id,url}]}.
// Every server also answers GET /stats (each answer's injected delay and how long it really took, from the
// request's arrival to the answer written: a timer fires late under load, and that lateness is the solver
// process's, not Sluice's) and POST /stats/reset (after the warm-up).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function handle(
  spec: SolverSpec,
  index: number,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const arrived = performance.now();
  if (request.method === "GET" && request.url === "/stats") return json(response, 200, { answers });
  if (request.method === "POST" && request.url === "/stats/reset") {
    answers.length = 0;
    return json(response, 200, {});
  }
  const body = await readBody(request);
  if (request.method !== "POST" || request.url !== "/quote") return json(response, 404, {});
  // A misconfigured secret must show up as a missing quote, not pass silently.
  if (request.headers[SHARED_SECRET_HEADER] !== spec.secret) return json(response, 401, {});
  const quote = JSON.parse(body) as SolverQuoteRequest;
  const injectedMs = injectedDelayMs(quote.requestId, index);
  await sleep(injectedMs);
  // 18-decimal input to 6-decimal output at 0.99, a little less for each later solver: distinct amounts rank.
  const amountOut = (BigInt(quote.amount) / 10n ** 12n) * BigInt(9900 - index);
  json(response, 200, {
    chainId: quote.tokenInChainId,
    amountIn: quote.amount,
    amountOut: (amountOut / 10_000n).toString(),
    filler: spec.filler,
    requestId: quote.requestId,
    swapper: quote.swapper,
    tokenIn: quote.tokenIn,
    tokenOut: quote.tokenOut,
    quoteId: quote.quoteId,
  });
  answers.push({
    requestId: quote.requestId,
    solverIndex: index,
    injectedMs,
    answeredMs: performance.now() - arrived,
  });
}

const listening = await Promise.all(
  specs.map(async (spec, index) => {
    const server = createServer((request, response) => {
      handle(spec, index, request, response).catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, { error: String(error) });
      });
    });
    // Sluice keeps connections alive across auctions; so must the solver.
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { id: spec.id, url: `http://127.0.0.1:${port}`, server };
  }),
);

const ready: SolversReady = {
  msg: "solvers listening",
  solvers: listening.map(({ id, url }) => ({ id, url })),
};
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.once("SIGTERM", () => {
  for (const { server } of listening) server.closeAllConnections();
  process.exit(0);
});
