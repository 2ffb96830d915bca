// Where clients reach a listener: the URLs Sluice logs, writes to endpoints.json and hands the bundled solvers.
import { createServer, type Server } from "node:net";

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

/** A port the OS reports free on `host` right now. */
export async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error(`could not find a free port on ${host}`);
  return address.port;
}
