// A JSON-RPC relay in front of a test chain's anvil that can hold one contract call unanswered until the test
// releases it, to see what the server does while it waits on the chain.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address, Hex } from "viem";
import { gate, type HeldRequest } from "./gates.ts";
import { readBody } from "./request-body.ts";

export interface RpcGate {
  url: string;
  /** Holds the next HTTP request carrying an `eth_call` to `to` whose calldata starts with `selector`. */
  holdCall(to: Address, selector: Hex): HeldRequest;
  close(): Promise<void>;
}

interface JsonRpcCall {
  method?: string;
  params?: Array<{ to?: string; data?: string; input?: string }>;
}

export async function startRpcGate(upstream: string): Promise<RpcGate> {
  const holds: Array<{
    matches: (call: JsonRpcCall) => boolean;
    reach: () => void;
    released: Promise<void>;
  }> = [];
  const pending = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const calls = [JSON.parse(body) as JsonRpcCall | JsonRpcCall[]].flat();
    const index = holds.findIndex((hold) => calls.some(hold.matches));
    if (index >= 0) {
      const [hold] = holds.splice(index, 1);
      hold!.reach();
      await hold!.released;
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holdCall(to, selector) {
      const reached = gate();
      const released = gate();
      const matches = (call: JsonRpcCall) => {
        const [transaction] = call.params ?? [];
        const data = transaction?.data ?? transaction?.input ?? "";
        return (
          call.method === "eth_call" &&
          transaction?.to?.toLowerCase() === to.toLowerCase() &&
          data.toLowerCase().startsWith(selector.toLowerCase())
        );
      };
      holds.push({ matches, reach: reached.open, released: released.opened });
      pending.add(released.open);
      return { reached: reached.opened, release: released.open };
    },
    async close() {
      for (const release of pending) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
