// The devnet chain for a browser page (the demo page at /demo): JSON-RPC relayed from Sluice's own origin to anvil,
// so the page needs neither anvil's port (new at every start, bound to 127.0.0.1) nor a second origin. Only reads and
// already signed transactions pass: anvil's dev accounts are unlocked, so `eth_sendTransaction`, `eth_sign*` and the
// `anvil_*`/`evm_*` methods would let a page spend from the devnet's deployer or rewrite the chain.
import { z } from "zod";
import { DevRpcUnavailableError } from "./errors.ts";

export const RELAYED_METHODS = [
  "eth_chainId",
  "net_version",
  "eth_blockNumber",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBalance",
  "eth_getCode",
  "eth_getTransactionCount",
  "eth_call",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_sendRawTransaction",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_getLogs",
] as const;

const RELAYED = new Set<string>(RELAYED_METHODS);

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.number().int(), z.string().max(100), z.null()]).optional(),
  method: z.string().min(1).max(100),
  params: z.array(z.unknown()).max(100).optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcResponseSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.number(), z.string(), z.null()]),
  result: z.unknown().optional(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
});
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

/** JSON-RPC's "method not found": what a refused method gets, as a node without it would answer. */
const METHOD_NOT_RELAYED = -32601;

export class DevRpcRelay {
  constructor(private readonly rpcUrl: string) {}

  async relay(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    const id = request.id ?? null;
    if (!RELAYED.has(request.method)) {
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code: METHOD_NOT_RELAYED,
          message: `${request.method} is not relayed: the devnet relay passes reads and signed transactions only`,
        },
      };
    }
    let answer: unknown;
    try {
      const response = await fetch(this.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: request.method, params: request.params ?? [] }),
        signal: AbortSignal.timeout(30_000),
      });
      answer = await response.json();
    } catch (error) {
      throw new DevRpcUnavailableError(error);
    }
    const parsed = JsonRpcResponseSchema.safeParse(answer);
    if (!parsed.success) throw new DevRpcUnavailableError(new Error("the node's answer is not JSON-RPC"));
    return parsed.data;
  }
}
