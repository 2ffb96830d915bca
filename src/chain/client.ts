// viem clients for one deployment's chain: HTTP JSON-RPC with batching, falling back over several RPC URLs in
// order, and a chain definition built from the chain id and the RPC URLs (no hard-coded chain table).
import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  fallback,
  type HttpTransportConfig,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";

export interface ChainOptions {
  chainId: number;
  /** One URL or several: requests go to the first that answers (viem `fallback`). */
  rpcUrls: string | readonly string[];
  name?: string;
  /**
   * A Multicall3 deployed on the chain (every public network has one at 0xcA11…CA11). Leave it out on a devnet:
   * the adapter reader then uses viem's deployless multicall, which needs no contract on the chain.
   */
  multicall3?: Address;
}

export interface TransportOptions {
  /**
   * JSON-RPC batching: by default the requests made in the same tick go out together, at most
   * DEFAULT_RPC_BATCH_SIZE per HTTP request (RPC servers cap request bodies: anvil refuses about 2 MB).
   */
  batch?: boolean | { batchSize?: number; wait?: number };
  timeoutMs?: number;
  retryCount?: number;
  /** Extra viem http transport options (e.g. `onFetchRequest` in tests). */
  http?: Omit<HttpTransportConfig, "batch" | "timeout" | "retryCount">;
  /** Told of every JSON-RPC call that failed (the RPC error counter), before the error goes on. */
  onRequestError?: (method: string, kind: RpcErrorKind) => void;
}

/** How a JSON-RPC call failed: no answer in time, the transport (HTTP status, connection), or an error answer. */
export type RpcErrorKind = "timeout" | "http" | "rpc" | "other";

export type ChainClientOptions = ChainOptions &
  TransportOptions & {
    pollingIntervalMs?: number;
    /** How long viem reuses a fetched block number (default: the polling interval); 0 = always fetch. */
    cacheTimeMs?: number;
  };

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, Account>;

function urlList(rpcUrls: string | readonly string[]): string[] {
  const urls = (typeof rpcUrls === "string" ? [rpcUrls] : [...rpcUrls]).map((u) => u.trim()).filter(Boolean);
  if (urls.length === 0) throw new Error("at least one RPC URL is required");
  return urls;
}

export function defineSluiceChain(options: ChainOptions): Chain {
  const urls = urlList(options.rpcUrls);
  return defineChain({
    id: options.chainId,
    name: options.name ?? `chain-${options.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: urls } },
    ...(options.multicall3 ? { contracts: { multicall3: { address: options.multicall3 } } } : {}),
  });
}

export const DEFAULT_RPC_BATCH_SIZE = 32;

export function createRpcTransport(
  rpcUrls: string | readonly string[],
  options: TransportOptions = {},
): Transport {
  const config: HttpTransportConfig = {
    ...options.http,
    batch: options.batch ?? { batchSize: DEFAULT_RPC_BATCH_SIZE },
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.retryCount !== undefined ? { retryCount: options.retryCount } : {}),
  };
  const urls = urlList(rpcUrls);
  const transport =
    urls.length === 1
      ? http(urls[0], config)
      : fallback(
          urls.map((url) => http(url, config)),
          { rank: false, ...(options.retryCount !== undefined ? { retryCount: options.retryCount } : {}) },
        );
  return options.onRequestError ? reportingErrors(transport, options.onRequestError) : transport;
}

/** `transport`, telling `onError` the method of each call that fails (after viem's retries and fallbacks). */
function reportingErrors(
  transport: Transport,
  onError: (method: string, kind: RpcErrorKind) => void,
): Transport {
  return (parameters) => {
    const inner = transport(parameters);
    const request: typeof inner.request = async (args, options) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        onError(args.method, rpcErrorKind(error));
        throw error;
      }
    };
    return { ...inner, request };
  };
}

function rpcErrorKind(error: unknown): RpcErrorKind {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError") return "timeout";
  if (name === "HttpRequestError") return "http";
  if (name === "RpcRequestError" || error instanceof BaseError) return "rpc";
  return "other";
}

export function createChainPublicClient(options: ChainClientOptions): ChainPublicClient {
  return createPublicClient({
    chain: defineSluiceChain(options),
    transport: createRpcTransport(options.rpcUrls, options),
    ...(options.pollingIntervalMs !== undefined ? { pollingInterval: options.pollingIntervalMs } : {}),
    ...(options.cacheTimeMs !== undefined ? { cacheTime: options.cacheTimeMs } : {}),
  });
}

export function createChainWalletClient(
  options: ChainClientOptions & { account: Account },
): ChainWalletClient {
  return createWalletClient({
    account: options.account,
    chain: defineSluiceChain(options),
    transport: createRpcTransport(options.rpcUrls, options),
    ...(options.pollingIntervalMs !== undefined ? { pollingInterval: options.pollingIntervalMs } : {}),
  });
}
