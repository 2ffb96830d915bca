// The one way the client talks to Sluice: `fetch`, injectable (a test's, a wallet's instrumented one, a runtime
// without a global fetch). Kept fetch-based on purpose: the order stream is Server-Sent Events read from a fetch body
// (sse.ts), since Node 20 has no EventSource.
import { apiErrorOf } from "./errors.ts";

export type Fetch = typeof globalThis.fetch;

export interface TransportOptions {
  /** The API base, e.g. `http://localhost:8080/api/v1` (a trailing slash is fine). */
  apiUrl: string;
  fetch?: Fetch;
  /** Sent with every request (an `X-Trace-Id`, an API gateway's key…). */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface StreamRequestOptions {
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

export interface Transport {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  /** A GET whose answer is read as it arrives (Server-Sent Events): the raw response, whatever its status. */
  openStream(path: string, options?: StreamRequestOptions): Promise<Response>;
}

export function createTransport(options: TransportOptions): Transport {
  const base = options.apiUrl.replace(/\/+$/, "");
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function send<T>(method: "GET" | "POST", path: string, request: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetcher(`${base}${path}${queryString(request.query)}`, {
      method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): the error keeps the text.
    }
    if (!response.ok) throw apiErrorOf(response.status, response.headers.get("x-request-id"), body);
    return body as T;
  }

  return {
    get: (path, request = {}) => send("GET", path, request),
    post: (path, body, request = {}) => send("POST", path, { ...request, body }),
    openStream: (path, request = {}) =>
      fetcher(`${base}${path}${queryString(request.query)}`, {
        method: "GET",
        headers: { accept: "text/event-stream", ...options.headers, ...request.headers },
        ...(request.signal ? { signal: request.signal } : {}),
      }),
  };
}

/** Lists are sent comma-separated, as Sluice's list parameters (`orderIds`, `orderHashes`) take them. */
function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
