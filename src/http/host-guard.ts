// The internal listener answers only requests addressed to it by a name it is known by. It asks no credentials in
// `network` mode, so its network is its guard, and a browser inside that network is in it: DNS rebinding (a page of
// another site whose name is made to resolve to the listener's address) reaches it as the page's own origin, CORS or
// not, but the request then carries that site's name as its Host. So a Host must name the listener: `localhost`, a
// loopback address, INTERNAL_HOST, the address the connection arrived on (an address literal is no name anyone can
// point elsewhere), or one of INTERNAL_ALLOWED_HOSTS (the names a proxy or a scraper uses for it). Any other Host
// is answered 421 before a route sees the request. A request without a Host comes from no browser: it passes.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../clock.ts";
import { swapBody } from "./errors.ts";

/** The Host values a listener answers to: each name port-less (any port) or with the one port it was given. */
export class AllowedHosts {
  readonly #names: ReadonlySet<string>;
  readonly #withPort: ReadonlySet<string>;

  /** `entries`: names (`sluice-internal`) or `name:port`, IPv6 in brackets; `localhost` and loopback are always in. */
  constructor(entries: readonly string[]) {
    const names = new Set(["localhost", "127.0.0.1", "::1"]);
    const withPort = new Set<string>();
    for (const entry of entries) {
      const host = parseHost(entry);
      if (!host) throw new RangeError(`not a host name or address: ${JSON.stringify(entry)}`);
      if (host.port === undefined) names.add(host.name);
      else withPort.add(`${host.name}:${host.port}`);
    }
    this.#names = names;
    this.#withPort = withPort;
  }

  /** Whether `host` (a Host header) addresses the listener, reached on `localAddress`. */
  allows(host: string | undefined, localAddress: string | undefined): boolean {
    if (host === undefined) return true;
    const parsed = parseHost(host);
    if (!parsed) return false;
    if (this.#names.has(parsed.name) || (localAddress && parsed.name === bare(localAddress))) return true;
    return parsed.port !== undefined && this.#withPort.has(`${parsed.name}:${parsed.port}`);
  }
}

/** The internal listener's names: INTERNAL_HOST and INTERNAL_ALLOWED_HOSTS (comma-separated). */
export function internalAllowedHosts(internalHost: string, allowed: string | undefined): AllowedHosts {
  const listed = (allowed ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // INTERNAL_HOST is an address as `listen` takes it: an IPv6 one without brackets.
  const own =
    internalHost.includes(":") && !internalHost.startsWith("[") ? `[${internalHost}]` : internalHost;
  return new AllowedHosts([own, ...listed]);
}

/** An onRequest hook answering 421 in the swap envelope to a Host the listener does not answer to. */
export function guardHost(allowed: AllowedHosts, clock: Clock) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { host } = request.headers;
    if (allowed.allows(host, request.socket.localAddress)) return;
    return reply
      .code(421)
      .send(
        swapBody(
          421,
          "MISDIRECTED_REQUEST",
          "This listener does not answer to that Host",
          { host },
          clock.now(),
        ),
      );
  };
}

/** A Host value's name (lower case, IPv6 without brackets, IPv4-mapped as IPv4) and port; undefined if malformed. */
function parseHost(value: string): { name: string; port: string | undefined } | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::(\d{1,5}))?$/i.exec(value);
  return match ? { name: bare(match[1] ?? match[2]!), port: match[3] } : undefined;
}

/** An address as a Host names it: lower case, an IPv4-mapped IPv6 address as the IPv4 one. */
function bare(address: string): string {
  return address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
}
