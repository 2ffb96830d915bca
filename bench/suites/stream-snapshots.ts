// The stream suite's held snapshots (issue 26): a swapper with 30,000 orders (filled and final, stored before the
// devnet starts), 60 of its streams whose clients read nothing (server RSS before, peak, after), then 20 more such
// streams asked for every second for 5 s while /quote and /solvers are asked one after the other (their statuses and
// latencies), then one client that reads the whole snapshot (time, MB/s). What a stream holds must not depend on
// its snapshot's size nor on its client, and opening streams must not starve the request paths.
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "../../src/db/client.ts";
import { insertOrders } from "../../test/support/order-rows.ts";
import { sampleRss } from "../lib/processes.ts";
import { callApi, type DevnetEndpoints } from "./swap-fill-client.ts";

export const HELD_SNAPSHOTS = {
  orders: 30_000,
  held: 60,
  perSecond: 20,
  seconds: 5,
  /** The swapper whose history is stored: an address no devnet wallet has. */
  swapper: `0x${"5eed".repeat(10)}`,
  targets: { heldRssMb: 200 },
} as const;

export interface HeldSnapshotsRun {
  orders: number;
  held: number;
  rss: { beforeMb: number; peakMb: number; afterMb: number };
  opening: {
    asked: number;
    answered200: number;
    requests: number;
    non200: number;
    p50Ms: number;
    p99Ms: number;
  };
  reader: { snapshots: number; seconds: number; mb: number };
}

/** The swapper's history, into a migrated database the devnet has not opened yet (closed when done). */
export async function storeSwapperHistory(database: Database): Promise<void> {
  try {
    await insertOrders(database, {
      count: HELD_SNAPSHOTS.orders,
      swapper: HELD_SNAPSHOTS.swapper,
      solverId: "bench_history",
      from: new Date(Date.now() - 86_400_000),
      status: "filled",
    });
    // As PostgreSQL's autovacuum would after such a load (PGlite runs none).
    await database.query("analyze orders");
    await database.query("analyze order_events");
  } finally {
    await database.close();
  }
}

export async function measureHeldSnapshots(
  endpoints: DevnetEndpoints,
  serverPid: number,
  log: (message: string) => void,
): Promise<HeldSnapshotsRun> {
  const { origin } = new URL(endpoints.apiUrl);
  const path = `/api/v1/orders/stream?swapper=${HELD_SNAPSHOTS.swapper}`;
  const held: Socket[] = [];
  try {
    const rss = sampleRss(serverPid);
    log(
      `held snapshots: ${HELD_SNAPSHOTS.held} streams of a ${HELD_SNAPSHOTS.orders}-order swapper, never read`,
    );
    const first = await Promise.all(
      Array.from({ length: HELD_SNAPSHOTS.held }, () => holdStream(origin, path)),
    );
    held.push(...first.map((stream) => stream.socket));
    const refused = first.filter((stream) => stream.status !== 200).length;
    if (refused > 0) throw new Error(`${refused} of the held streams were refused`);
    await sleep(3000);
    const { startMb, peakMb } = rss.stop();
    const afterMb = sampleRss(serverPid).stop().startMb;

    log(
      `held snapshots: ${HELD_SNAPSHOTS.perSecond} more a second for ${HELD_SNAPSHOTS.seconds} s, with /quote`,
    );
    const quoteBody = await quoteRequest(endpoints);
    const latencies: number[] = [];
    let non200 = 0;
    let asking = true;
    const asked = (async () => {
      while (asking) {
        for (const call of [
          () => fetch(`${endpoints.apiUrl}/quote`, quoteBody),
          () => fetch(`${endpoints.apiUrl}/solvers`),
        ]) {
          const started = performance.now();
          const response = await call();
          await response.arrayBuffer();
          latencies.push(performance.now() - started);
          if (response.status !== 200) non200 += 1;
        }
      }
    })();
    const later: Array<Promise<{ socket: Socket; status: number }>> = [];
    for (let second = 0; second < HELD_SNAPSHOTS.seconds; second++) {
      for (let n = 0; n < HELD_SNAPSHOTS.perSecond; n++) {
        const stream = holdStream(origin, path);
        later.push(stream);
        stream.then(({ socket }) => held.push(socket)).catch(() => {});
      }
      await sleep(1000);
    }
    const opened = await Promise.all(later).finally(() => {
      asking = false;
    });
    await asked;
    for (const socket of held.splice(0)) socket.destroy();

    log("held snapshots: one client reading the whole snapshot");
    const reader = await readSnapshot(`${origin}${path}`, HELD_SNAPSHOTS.orders);
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
    return {
      orders: HELD_SNAPSHOTS.orders,
      held: HELD_SNAPSHOTS.held,
      rss: { beforeMb: startMb, peakMb, afterMb },
      opening: {
        asked: later.length,
        answered200: opened.filter((stream) => stream.status === 200).length,
        requests: latencies.length,
        non200,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
      },
      reader,
    };
  } finally {
    for (const socket of held) socket.destroy();
  }
}

/** A /quote for 1 tRWA of a wallet the faucet never funded (quoting asks nothing of the wallet). */
async function quoteRequest(endpoints: DevnetEndpoints): Promise<RequestInit> {
  const faucet = await callApi<{ assets: Array<{ token: string; symbol: string }> }>(
    endpoints.apiUrl,
    "/dev/faucet",
  );
  const token = (symbol: string) => faucet.assets.find((asset) => asset.symbol === symbol)?.token;
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      tokenInChainId: endpoints.chainId,
      tokenOutChainId: endpoints.chainId,
      tokenIn: token("tRWA"),
      tokenOut: token("tUSD"),
      type: "EXACT_INPUT",
      amount: "1000000000000000000",
      swapper: HELD_SNAPSHOTS.swapper,
      outputs: [{ token: token("tUSD") }],
    }),
  };
}

/** A stream request whose client reads the status line and then nothing more. */
function holdStream(origin: string, path: string): Promise<{ socket: Socket; status: number }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("the server closed a stream before answering")));
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1]) });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Reads a stream until `count` snapshot events came. */
async function readSnapshot(url: string, count: number): Promise<HeldSnapshotsRun["reader"]> {
  const started = performance.now();
  const response = await fetch(url, { headers: { accept: "text/event-stream" } });
  if (response.status !== 200 || !response.body) throw new Error(`the stream answered ${response.status}`);
  const decoder = new TextDecoder();
  let snapshots = 0;
  let bytes = 0;
  let tail = "";
  const reader = response.body.getReader();
  try {
    while (snapshots < count) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended after ${snapshots} snapshot events`);
      bytes += value.byteLength;
      const text = tail + decoder.decode(value, { stream: true });
      const events = text.split("event: snapshot\n");
      snapshots += events.length - 1;
      tail = events.at(-1)!.slice(-"event: snapshot\n".length);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { snapshots, seconds: (performance.now() - started) / 1000, mb: bytes / 2 ** 20 };
}
