// A scriptable solver HTTP server for tests: a real listener on 127.0.0.1 that answers /quote the way the test
// says (quote, decline, fail, garble, stall, drop the connection), recording every request it receives; a test can
// hold a request unanswered until it releases it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { gate, type HeldRequest } from "./gates.ts";
import { readBody } from "./request-body.ts";

export type SolverBehaviour =
  | {
      kind: "quote";
      amountOut: (request: SolverQuoteRequest) => bigint;
      filler: string;
      delayMs?: number;
      echo?: Partial<Record<string, unknown>>;
    }
  | { kind: "decline"; delayMs?: number }
  | { kind: "status"; status: number; delayMs?: number }
  | { kind: "garbage"; body: string; delayMs?: number }
  | { kind: "stall" }
  /** Drops the connection without an answer: the auction sees a network failure. */
  | { kind: "reset" };

export interface ScriptedSolver {
  url: string;
  requests: Array<{ body: SolverQuoteRequest; secret: string | undefined; path: string }>;
  setBehaviour(behaviour: SolverBehaviour): void;
  /** Holds the next request that arrives until the test releases it; it is then answered as the behaviour says. */
  holdNext(): HeldRequest;
  /** Ends every request a `stall` holds (its connection dropped: a network failure) and lets held ones go on. */
  releaseStalled(): void;
  close(): Promise<void>;
}

export async function startScriptedSolver(initial: SolverBehaviour, basePath = ""): Promise<ScriptedSolver> {
  let behaviour = initial;
  const requests: ScriptedSolver["requests"] = [];
  const stalled = new Set<() => void>();
  const holds: Array<{ reach: () => void; released: Promise<void> }> = [];
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as SolverQuoteRequest;
    requests.push({
      body,
      secret: req.headers["x-rfq-shared-secret"] as string | undefined,
      path: req.url ?? "",
    });
    const hold = holds.shift();
    if (hold) {
      hold.reach();
      await hold.released;
    }
    const current = behaviour;
    if (current.kind === "stall") {
      await new Promise<void>((resolve) => stalled.add(resolve));
      res.destroy();
      return;
    }
    if (current.kind === "reset") return void req.socket.destroy();
    if (current.delayMs) await new Promise((resolve) => setTimeout(resolve, current.delayMs));
    if (current.kind === "decline") return void res.writeHead(204).end();
    if (current.kind === "status") return void res.writeHead(current.status).end("{}");
    if (current.kind === "garbage")
      return void res.writeHead(200, { "content-type": "application/json" }).end(current.body);
    const answer = {
      chainId: body.tokenInChainId,
      amountIn: body.amount,
      amountOut: current.amountOut(body).toString(),
      filler: current.filler,
      requestId: body.requestId,
      swapper: body.swapper,
      tokenIn: body.tokenIn,
      tokenOut: body.tokenOut,
      quoteId: body.quoteId,
      ...current.echo,
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    setBehaviour(next) {
      behaviour = next;
    },
    holdNext() {
      const reached = gate();
      const released = gate();
      holds.push({ reach: reached.open, released: released.opened });
      stalled.add(released.open);
      return { reached: reached.opened, release: released.open };
    },
    releaseStalled() {
      for (const release of stalled) release();
      stalled.clear();
    },
    async close() {
      for (const release of stalled) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
