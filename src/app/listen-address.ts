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

/** A free port held until `release`: nothing else on the machine can take it meanwhile. */
export interface PortReservation {
  readonly port: number;
  /** Frees the port for the listener it was reserved for; idempotent. */
  release(): Promise<void>;
}

/**
 * A port the OS chose free on `host`, held by a listening socket until released. A port found free and let go at once
 * could be taken (by another server's port 0, an outgoing connection's ephemeral port) in the seconds before its
 * listener binds it; held, it can only be lost in the moment between `release` and that bind.
 */
export async function reservePort(host: string): Promise<PortReservation> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  let released: Promise<void> | undefined;
  const release = () => {
    released ??= new Promise<void>((resolve) => server.close(() => resolve()));
    return released;
  };
  if (typeof address !== "object" || !address) {
    await release();
    throw new Error(`could not find a free port on ${host}`);
  }
  return { port: address.port, release };
}

/**
 * A port the OS reports free on `host` right now, let go at once: for a port another process is to bind, which this
 * one cannot hold for it (a test's or a benchmark's child server). It can be taken meanwhile; in-process, reserve one.
 */
export async function freePort(host: string): Promise<number> {
  const reservation = await reservePort(host);
  await reservation.release();
  return reservation.port;
}
