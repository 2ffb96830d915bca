// The demo page's chain relay without a chain: refusals never reach the node, and a node that is gone or answers
// something other than JSON-RPC is the named error the error table maps (500 INTERNAL), not a crash.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DevRpcUnavailableError } from "../../src/devnet/errors.ts";
import { DevRpcRelay } from "../../src/devnet/rpc-relay.ts";

describe("DevRpcRelay", () => {
  let notJsonRpc: Server;
  let calls = 0;
  let url: string;
  beforeAll(async () => {
    notJsonRpc = createServer((_request, response) => {
      calls++;
      response.writeHead(200, { "content-type": "application/json" }).end('{"hello":"world"}');
    }).listen(0, "127.0.0.1");
    await once(notJsonRpc, "listening");
    url = `http://127.0.0.1:${(notJsonRpc.address() as AddressInfo).port}`;
  });
  afterAll(() => notJsonRpc?.close());

  it("answers a refused method itself, with JSON-RPC's method-not-found, without calling the node", async () => {
    const answer = await new DevRpcRelay(url).relay({
      jsonrpc: "2.0",
      id: "a",
      method: "eth_sendTransaction",
    });
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: "a", error: { code: -32601 } });
    expect(calls).toBe(0);
  });

  it("turns a node that answers something other than JSON-RPC into DevRpcUnavailableError", async () => {
    const relayed = new DevRpcRelay(url).relay({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
    await expect(relayed).rejects.toBeInstanceOf(DevRpcUnavailableError);
    expect(calls).toBe(1);
  });

  it("turns a node that is gone into DevRpcUnavailableError", async () => {
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const relayed = new DevRpcRelay(`http://127.0.0.1:${port}`).relay({
      jsonrpc: "2.0",
      method: "eth_chainId",
    });
    await expect(relayed).rejects.toBeInstanceOf(DevRpcUnavailableError);
  });
});
