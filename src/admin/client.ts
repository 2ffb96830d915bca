// The admin routes' client, for commands run beside a server (src/http/handlers/admin-solvers.ts): each call sends
// the admin token; a refusal throws AdminRequestError with the server's code and message.
import type { Address } from "viem";
import { ADMIN_AUTH_HEADER } from "./token.ts";

export interface AdminClientOptions {
  /** The internal API's base, e.g. `http://127.0.0.1:8081/api-internal/v1`. */
  internalApiUrl: string;
  token: string;
  /** Per call (default 30 s: adding a solver waits for nothing slow, but the server may be busy). */
  timeoutMs?: number;
}

export interface AdminListedSolver {
  id: string;
  name: string;
  endpoint: string;
  filler: Address;
  internal: boolean;
  enabled: boolean;
  added: boolean;
}

export interface AdminAddedSolver {
  id: string;
  name: string;
  endpoint: string;
  filler: Address;
  sharedSecret: string;
  addedAt: string;
}

/** An API key as the admin routes list it (never the key itself). */
export interface AdminListedKey {
  name: string;
  keyPrefix: string;
  quotesPerMinute: number | null;
  readsPerSecond: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** The server refused an admin call (or answered something that is not one of its answers). */
export class AdminRequestError extends Error {
  override name = "AdminRequestError";
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export class AdminClient {
  constructor(private readonly options: AdminClientOptions) {}

  async solvers(): Promise<AdminListedSolver[]> {
    const answer = await this.#call<{ solvers: AdminListedSolver[] }>("GET", "/admin/solvers");
    return answer.solvers;
  }

  addSolver(registration: { id: string; name: string; endpoint: string; filler: Address }) {
    return this.#call<AdminAddedSolver>("POST", "/admin/solvers", registration);
  }

  removeSolver(id: string) {
    return this.#call<{ id: string; name: string; endpoint: string; filler: Address }>(
      "POST",
      `/admin/solvers/${encodeURIComponent(id)}/remove`,
    );
  }

  async keys(): Promise<AdminListedKey[]> {
    return (await this.#call<{ keys: AdminListedKey[] }>("GET", "/admin/keys")).keys;
  }

  createKey(key: { name: string; quotesPerMinute?: number; readsPerSecond?: number }) {
    return this.#call<{ key: string; record: AdminListedKey }>("POST", "/admin/keys", key);
  }

  revokeKey(name: string) {
    return this.#call<AdminListedKey>("POST", `/admin/keys/${encodeURIComponent(name)}/revoke`);
  }

  async #call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const url = `${this.options.internalApiUrl.replace(/\/+$/, "")}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        [ADMIN_AUTH_HEADER]: `Bearer ${this.options.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AdminRequestError(
        response.status,
        undefined,
        `${method} ${url}: HTTP ${response.status} ${text}`,
      );
    }
    if (!response.ok) {
      const error = (json as { error?: { code?: string; message?: string } }).error;
      throw new AdminRequestError(
        response.status,
        error?.code,
        error?.message
          ? `the server refused: ${error.message} (${response.status}${error.code ? ` ${error.code}` : ""})`
          : `${method} ${url}: HTTP ${response.status} ${text}`,
      );
    }
    return json as T;
  }
}
