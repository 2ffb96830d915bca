// Where the devnet's heads come from: its anvil's WebSocket by default, another endpoint when RPC_WS_URL names one,
// and none with RPC_WS_URL=off (polled every BLOCK_POLL_MS, as a deployment without a WebSocket endpoint is).
import { describe, expect, it } from "vitest";
import { devnetHeads } from "../../src/app/devnet.ts";
import { readEnv } from "../../src/config/env.ts";

describe("the devnet's heads", () => {
  const rpcUrl = "http://127.0.0.1:8545";

  it("come over its anvil's WebSocket unless RPC_WS_URL says otherwise", () => {
    expect(devnetHeads(readEnv({}), rpcUrl)).toEqual({ webSocketUrl: "ws://127.0.0.1:8545" });
    expect(devnetHeads(readEnv({ RPC_WS_URL: "wss://example.org/ws" }), rpcUrl)).toEqual({
      webSocketUrl: "wss://example.org/ws",
    });
  });

  it("are polled with RPC_WS_URL=off", () => {
    const env = readEnv({ RPC_WS_URL: "off", BLOCK_POLL_MS: "250" });
    expect(devnetHeads(env, rpcUrl)).toEqual({});
    expect(env.BLOCK_POLL_MS).toBe(250);
  });

  it("refuses an RPC_WS_URL that is neither a WebSocket URL nor off", () => {
    expect(() => readEnv({ RPC_WS_URL: "http://127.0.0.1:8545" })).toThrow(/RPC_WS_URL/);
  });
});
