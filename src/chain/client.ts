// viem clients for one deployment's chain: HTTP JSON-RPC with batching, failing over across several RPC URLs in
// order, and a chain definition built from the chain id and the RPC URLs (no hard-coded chain table). A request no
// URL answered fails with an RpcUnreachableError (unavailable.ts), and the chain's OutageLog hears of every failure
// and every answer.
import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createTransport,
  createWalletClient,
  defineChain,
  type EIP1193RequestFn,
  type HttpTransportConfig,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import type { OutageLog } from "../outages.ts";
import type { ChainName } from "./errors.ts";
import { isTransportFailure, RpcUnreachableError } from "./unavailable.ts";

export interface ChainOptions {
  chainId: number;
  /** One URL or several: requests go to the first that answers (see `failover`). */
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
  /** How long one URL gets to answer one request (viem's default: 10 s). */
  timeoutMs?: number;
  /** How many times a request that no URL answered is tried again, after 150 ms, then 300 ms… (viem's: 3). */
  retryCount?: number;
  /** With several URLs: how long one that failed is tried after the others (default FAILOVER_BENCH_MS). */
  failoverBenchMs?: number;
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
    /** Told of every request no URL answered and of every answer: logs each outage's start and end once. */
    outage?: OutageLog;
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

/** How long one RPC URL gets to answer one request of a deployment's client (RPC_TIMEOUT_MS). */
export const DEFAULT_RPC_TIMEOUT_MS = 3000;

/**
 * A URL that failed is tried last for this long: with one URL of several cut, requests go to the others at once
 * rather than each waiting for the cut one's timeout; after it, the URL is first again (RPC_URLS' order).
 */
export const FAILOVER_BENCH_MS = 30_000;

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
      : failover(
          urls.map((url) => http(url, { ...config, retryCount: 0 })),
          options.retryCount,
          options.failoverBenchMs ?? FAILOVER_BENCH_MS,
        );
  return options.onRequestError ? reportingErrors(transport, options.onRequestError) : transport;
}

/**
 * Several transports tried in order for each request, the next one when one does not answer (a transport failure:
 * a revert or any other answer of the chain is the answer). One that failed goes to the back for `benchMs`, so a
 * dead URL costs one request its timeout, not every request. The whole list is retried `retryCount` times.
 */
function failover(
  transports: readonly Transport[],
  retryCount: number | undefined,
  benchMs: number,
): Transport {
  return (params) => {
    const built = transports.map((transport) => transport({ ...params, retryCount: 0 }));
    const benchedUntil = built.map(() => 0);
    return createTransport({
      key: "failover",
      name: "Failover",
      type: "failover",
      ...(retryCount !== undefined ? { retryCount } : {}),
      request: (async (args: Parameters<EIP1193RequestFn>[0]) => {
        const now = Date.now();
        const order = built.map((_, index) => index);
        const ready = order.filter((index) => benchedUntil[index]! <= now);
        let failure: unknown;
        for (const index of [...ready, ...order.filter((i) => !ready.includes(i))]) {
          try {
            const answer = await built[index]!.request(args);
            benchedUntil[index] = 0;
            return answer;
          } catch (error) {
            if (!isTransportFailure(error)) throw error;
            benchedUntil[index] = Date.now() + benchMs;
            failure = error;
          }
        }
        throw failure;
      }) as EIP1193RequestFn,
    });
  };
}

/**
 * `transport`, its failures to answer marked as RpcUnreachableError (naming `chain`), and `outage` told of each
 * failure and each answer.
 */
export function chainTransport(transport: Transport, chain: ChainName, outage?: OutageLog): Transport {
  return (params) => {
    const built = transport(params);
    const request = (async (args: { method: string }, options?: unknown) => {
      try {
        const answer = await (built.request as (a: unknown, o?: unknown) => Promise<unknown>)(args, options);
        outage?.succeeded();
        return answer;
      } catch (error) {
        if (!isTransportFailure(error)) {
          outage?.succeeded();
          throw error;
        }
        const unreachable =
          error instanceof RpcUnreachableError
            ? error
            : new RpcUnreachableError(chain, args.method, error as Error);
        outage?.failed(unreachable);
        throw unreachable;
      }
    }) as EIP1193RequestFn;
    return { ...built, request };
  };
}

function chainClientTransport(options: ChainClientOptions, chain: Chain): Transport {
  return chainTransport(
    createRpcTransport(options.rpcUrls, options),
    { chainId: chain.id, name: chain.name },
    options.outage,
  );
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
  const chain = defineSluiceChain(options);
  return createPublicClient({
    chain,
    transport: chainClientTransport(options, chain),
    ...(options.pollingIntervalMs !== undefined ? { pollingInterval: options.pollingIntervalMs } : {}),
    ...(options.cacheTimeMs !== undefined ? { cacheTime: options.cacheTimeMs } : {}),
  });
}

export function createChainWalletClient(
  options: ChainClientOptions & { account: Account },
): ChainWalletClient {
  const chain = defineSluiceChain(options);
  return createWalletClient({
    account: options.account,
    chain,
    transport: chainClientTransport(options, chain),
    ...(options.pollingIntervalMs !== undefined ? { pollingInterval: options.pollingIntervalMs } : {}),
  });
}
