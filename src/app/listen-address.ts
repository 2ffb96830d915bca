// Where clients reach a listener: the URLs Sluice logs, writes to endpoints.json and hands the bundled solvers.
import type { Server } from "node:net";

/** Where a local client reaches a server bound to `host` (a wildcard address means loopback works). */
export function reachableHost(host: string): string {
  if (host === "" || host === "0.0.0.0" || host === "::" || host === "localhost") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/** The port `server` listens on (the OS's choice when it was asked for port 0); `requested` if it has none. */
export function listeningPort(server: Pick<Server, "address">, requested: number): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : requested;
}
