// The floor under any `/quote` served by Node: a bare Fastify route that does only the I/O an auction cannot
// skip — read the wallet's JSON body, ask every solver over a kept-alive `node:http` connection (the request
// JSON with fresh ids, the shared secret), parse each answer and answer the wallet with every quote, best
// first. No validation beyond what Fastify does, no database, no signature data, no logging, no metrics.
// Its CPU per request, in the same run as a build's, says how much of that build's CPU is its own work and
// how much any Node server spends on the same sockets (bench/ab/quote-cpu.ts `--bare`).
//
// Config (env BARE_AUCTION_SOLVERS): [{ url, secret }], each solver's base URL. Prints
// {"msg":"bare listening","url":…}.
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import Fastify from "fastify";
import { SHARED_SECRET_HEADER } from "../../src/solvers/protocol.ts";

interface SolverTarget {
  url: string;
  secret: string;
}

interface WalletQuoteBody {
  tokenInChainId: number;
  tokenOutChainId: number;
  tokenIn: string;
  tokenOut: string;
  amount: string;
  swapper: string;
  type: string;
}

const targets = JSON.parse(process.env.BARE_AUCTION_SOLVERS ?? "[]") as SolverTarget[];
if (targets.length === 0) throw new Error("BARE_AUCTION_SOLVERS names no solver");
const solvers = targets.map(({ url, secret }) => {
  const parsed = new URL(`${url.replace(/\/+$/, "")}/quote`);
  return {
    hostname: parsed.hostname,
    port: parsed.port,
    path: parsed.pathname,
    secret,
    agent: new Agent({ keepAlive: true, scheduling: "lifo" }),
  };
});
type BareSolver = (typeof solvers)[number];

function ask(solver: BareSolver, body: string): Promise<{ amountOut: string; filler: string } | undefined> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        method: "POST",
        hostname: solver.hostname,
        port: solver.port,
        path: solver.path,
        agent: solver.agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          [SHARED_SECRET_HEADER]: solver.secret,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode !== 200) return resolve(undefined);
          const answer = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve({ amountOut: answer.amountOut, filler: answer.filler });
        });
      },
    );
    outgoing.on("error", () => resolve(undefined));
    outgoing.end(body);
  });
}

const app = Fastify({ logger: false });
app.post("/quote", async (incoming) => {
  const wallet = incoming.body as WalletQuoteBody;
  const requestId = randomUUID();
  const answers = await Promise.all(
    solvers.map((solver) =>
      ask(
        solver,
        JSON.stringify({
          requestId,
          quoteId: randomUUID(),
          tokenInChainId: wallet.tokenInChainId,
          tokenOutChainId: wallet.tokenOutChainId,
          swapper: wallet.swapper,
          tokenIn: wallet.tokenIn,
          tokenOut: wallet.tokenOut,
          amount: wallet.amount,
          type: wallet.type,
          protocol: "v1",
          numOutputs: 1,
          adapters: [{ address: wallet.tokenOut }],
        }),
      ),
    ),
  );
  const quotes = answers.filter((answer) => answer !== undefined);
  quotes.sort((a, b) => (BigInt(b.amountOut) > BigInt(a.amountOut) ? 1 : -1));
  return { requestId, quotes };
});

await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ msg: "bare listening", url: `http://127.0.0.1:${port}` })}\n`);
process.once("SIGTERM", () => app.close().then(() => process.exit(0)));
