// A TCP proxy a test puts between a client and a server (PostgreSQL) to play network faults on demand:
//
//   cut()     every open connection is dropped; new ones are accepted and then hear nothing (a partition: the
//             client's connect timeout has to notice)
//   freeze()  open connections stay open but carry nothing either way (a partition the TCP stacks have not noticed);
//             new ones wait as well
//   refuse()  every open connection is dropped; new ones are reset at once (the server is down)
//   restore() frozen connections carry again what they held; waiting ones are connected; new ones pass
//   restore({ leaveFrozen: true })
//             new connections pass, but those frozen stay silent for good (a middlebox that forgot them): their
//             ends learn nothing until they try to use them
import { createServer, type Server, Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** `url` (e.g. a postgres:// URL) with its host and port replaced by the proxy's. */
  proxiedUrl(url: string): string;
  cut(): void;
  freeze(): void;
  refuse(): void;
  restore(options?: { leaveFrozen?: boolean }): void;
  close(): Promise<void>;
}

type Mode = "open" | "cut" | "frozen" | "refusing";

interface Pair {
  client: Socket;
  server: Socket | undefined;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = "open";
  const pairs = new Set<Pair>();
  /** Accepted while frozen: connected to the server at restore. */
  const waiting = new Set<Pair>();
  /** Left frozen by a restore: silent until the proxy closes. */
  const stuck = new Set<Pair>();

  const forget = (pair: Pair) => {
    pairs.delete(pair);
    waiting.delete(pair);
    stuck.delete(pair);
  };

  const connect = (pair: Pair) => {
    const server = new Socket();
    pair.server = server;
    // One side closing closes the other after what it was sent (a FATAL before the close, say) is delivered.
    server.on("error", () => pair.client.destroy());
    server.on("close", () => {
      forget(pair);
      pair.client.end();
    });
    server.on("data", (chunk) => pair.client.write(chunk));
    pair.client.on("data", (chunk) => server.write(chunk));
    server.connect(target.port, target.host);
    if (mode === "frozen") pause(pair);
  };

  const pause = (pair: Pair) => {
    pair.client.pause();
    pair.server?.pause();
  };

  const listener: Server = createServer((client) => {
    const pair: Pair = { client, server: undefined };
    client.on("error", () => pair.server?.destroy());
    client.on("close", () => {
      forget(pair);
      pair.server?.end();
    });
    if (mode === "refusing") {
      client.resetAndDestroy();
      return;
    }
    pairs.add(pair);
    if (mode === "cut") {
      // Accepted, and then silence: a SYN lost in the partition, as the client sees it.
      client.pause();
      return;
    }
    if (mode === "frozen") {
      client.pause();
      waiting.add(pair);
      return;
    }
    connect(pair);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  if (!address || typeof address === "string") throw new Error("proxy has no port");

  const dropAll = () => {
    for (const pair of [...pairs, ...stuck]) {
      forget(pair);
      pair.client.resetAndDestroy();
      pair.server?.destroy();
    }
  };

  return {
    port: address.port,
    proxiedUrl(url) {
      const proxied = new URL(url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(address.port);
      return proxied.toString();
    },
    cut() {
      mode = "cut";
      dropAll();
    },
    freeze() {
      mode = "frozen";
      for (const pair of pairs) pause(pair);
    },
    refuse() {
      mode = "refusing";
      dropAll();
    },
    restore(options = {}) {
      const previous = mode;
      mode = "open";
      if (previous === "cut") {
        // Connections accepted during the cut were never answered: their clients have given up on them.
        dropAll();
        return;
      }
      if (previous !== "frozen") return;
      if (options.leaveFrozen) {
        for (const pair of pairs) stuck.add(pair);
        pairs.clear();
        waiting.clear();
        return;
      }
      for (const pair of waiting) connect(pair);
      waiting.clear();
      for (const pair of pairs) {
        pair.client.resume();
        pair.server?.resume();
      }
    },
    async close() {
      dropAll();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
