// Order streams of a swapper with 30,000 orders, against `sluice serve` in a child process (its RSS read from /proc,
// apart from this process's): 60 streams whose clients never read add less than 200 MB to the server's RSS (the
// snapshot is read a page at a time, only as fast as the client takes it); /quote and /solvers keep answering 200
// while 20 more such streams are asked for every second (the streams read through their own share of the database's
// connections); and a client that reads gets the whole snapshot, every order once.
//
// On PGlite the same at a smaller scale: a stream whose client reads nothing still has the server fill the socket's
// kernel buffers (a few MB of records), and PGlite does that reading on the server's own thread, so 60 of them keep
// the process busy for minutes on two shared cores. 10 held streams, 2 more a second, show the same bound there (the
// stream read whole before the fix: each of those 10 held tens of MB).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/app/listen-address.ts";
import { type Database, type DatabaseKind, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { devAccount } from "../../src/devnet/accounts.ts";
import { useTestChain } from "../support/anvil.ts";
import { REPO_ROOT, SLUICE_BIN } from "../support/cli.ts";
import { createEmptyPostgresDatabase, databaseKinds } from "../support/db.ts";
import { TEST_LIMITS_ENV } from "../support/limits.ts";
import { hex, insertOrders } from "../support/order-rows.ts";
import { quoteRequestBody } from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { testDeployment } from "../support/swap.ts";

const ORDERS = 30_000;
const SCALE: Record<DatabaseKind, { held: number; perSecond: number }> = {
  postgres: { held: 60, perSecond: 20 },
  pglite: { held: 10, perSecond: 2 },
};
const OPENING_SECONDS = 5;
const RSS_BOUND_MB = 200;
/** The server's old-space limit (see its start below). */
const SERVER_HEAP_MB = 192;
/** The server is stopped beyond this (the bound is broken already), so a regression cannot exhaust the machine. */
const RSS_GIVE_UP_MB = 1000;

const chain = useTestChain();

/** The child's resident set in MB (`sluice serve` runs its bundle in the process it starts); 0 once it is gone. */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** A stream request whose client reads the answer's first bytes (its status line) and then nothing more. */
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

/** Reads a stream until `count` snapshot events came; their order ids. */
function readSnapshot(url: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ids: string[] = [];
    let buffer = "";
    const outgoing = request(url, { headers: { accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`the stream answered ${response.statusCode}`));
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^event: snapshot\n[\s\S]*"orderId":"([^"]+)"/.exec(block)?.[1];
          if (id) ids.push(id);
        }
        if (ids.length >= count) {
          outgoing.destroy();
          resolve(ids);
        }
      });
      response.on("end", () => reject(new Error(`the stream ended after ${ids.length} snapshot events`)));
    });
    outgoing.on("error", (error) => {
      if (ids.length < count) reject(error);
    });
    outgoing.end();
  });
}

/**
 * A migrated database holding the swapper's history: filled and final, as most of a busy wallet's orders are (no
 * worker reads them again), with the planner's statistics taken as PostgreSQL's autovacuum would after such a load
 * (PGlite runs none). Closed when done: the server opens it next.
 */
async function seed(database: Database, swapper: string): Promise<void> {
  try {
    await migrate(database);
    await insertOrders(database, {
      count: ORDERS,
      swapper,
      solverId: "ext_alpha",
      from: new Date(),
      status: "filled",
    });
    await database.query("analyze orders");
    await database.query("analyze order_events");
  } finally {
    await database.close();
  }
}

describe.each(databaseKinds)(
  "order streams of a swapper with 30,000 orders, served by `sluice serve` (%s)",
  (kind: DatabaseKind) => {
    const { held: HELD_STREAMS, perSecond: OPENED_PER_SECOND } = SCALE[kind];
    const swapper = hex(40, 0x5eed);
    let workDir: string;
    let solver: ScriptedSolver;
    let child: ChildProcess;
    let origin: string;
    let stderr = "";
    let dropDatabase: (() => Promise<void>) | undefined;
    const held: Socket[] = [];

    beforeAll(async () => {
      workDir = mkdtempSync(join(tmpdir(), "sluice-stream-memory-"));
      solver = await startScriptedSolver({
        kind: "quote",
        filler: chain.core.executors[0]!,
        amountOut: (quote) => (BigInt(quote.amount) * 98n) / 100n / 10n ** 12n,
      });
      const deploymentFile = join(workDir, "deployment.json");
      writeFileSync(
        deploymentFile,
        JSON.stringify(
          testDeployment(chain, [{ id: "ext_alpha", endpoint: solver.url }], {
            // The test is about the server's own resources: a solver answering late on a loaded machine is not.
            solverTimeoutMs: 5000,
          }),
        ),
      );

      // Stored before the server starts: an embedded database has one process at a time.
      let databaseEnv: Record<string, string | undefined>;
      if (kind === "pglite") {
        const dataDir = join(workDir, "data");
        await seed(await openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") }), swapper);
        databaseEnv = { DATA_DIR: dataDir, DATABASE_URL: undefined };
      } else {
        const empty = await createEmptyPostgresDatabase();
        dropDatabase = empty.drop;
        await seed(await openDatabase({ kind: "postgres", url: empty.url, poolSize: 1 }), swapper);
        databaseEnv = { DATABASE_URL: empty.url };
      }

      const port = await freePort("127.0.0.1");
      origin = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        // The test's /quote load comes from one address far faster than a client may: not what it is about.
        ...TEST_LIMITS_ENV,
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
        PORT: String(port),
        INTERNAL_PORT: String(await freePort("127.0.0.1")),
        DEPLOYMENT: undefined,
        DEPLOYMENT_FILE: deploymentFile,
        RPC_URLS: chain.rpcUrl,
        PUBLIC_URL: origin,
        PROTOCOL_SIGNER_KEY: devAccount(1).privateKey,
        SOLVER_EXT_ALPHA_SECRET: "secret-ext_alpha",
        SLUICE_DEMO_DATA: "0",
        // A heap limit, as a server in a container of bounded memory runs with (docs/operators.md): without one V8
        // lets the heap grow with the garbage of what the streams wrote (each socket's kernel buffer takes a few MB
        // of records before the client's silence stops the server) and collects it lazily, so the peak RSS would
        // say more about V8's pace than about what the server keeps. With it, the server must keep little per
        // stream: one that read a snapshot whole (30,000 orders, tens of MB per stream) would run out of heap.
        NODE_OPTIONS: `--max-old-space-size=${SERVER_HEAP_MB}`,
        STREAM_MAX_PER_IP: "1000",
        // The held streams stay held for the whole test: no idle timeout ends them meanwhile.
        HTTP_IDLE_TIMEOUT_MS: "600000",
        ...databaseEnv,
      };
      child = spawn(process.execPath, [SLUICE_BIN, "serve"], {
        cwd: REPO_ROOT,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      child.stderr!.on("data", (chunk) => {
        stderr += chunk;
      });
      for (let tries = 0; ; tries++) {
        if (child.exitCode !== null) throw new Error(`sluice serve exited: ${stderr}`);
        const healthy = await fetch(`${origin}/api/v1/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (healthy) break;
        if (tries > 600) throw new Error(`sluice serve did not answer within 60 s: ${stderr}`);
        await sleep(100);
      }
    }, 180_000);

    afterAll(async () => {
      for (const socket of held) socket.destroy();
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killing = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await once(child, "exit");
        clearTimeout(killing);
      }
      await solver?.close();
      await dropDatabase?.();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    }, 60_000);

    /** 200, or what came instead. */
    const status = async (response: Promise<Response>): Promise<number | string> => {
      const answer = await response;
      return answer.status === 200 ? 200 : `${answer.status} ${await answer.text()}`;
    };
    const quote = () =>
      status(
        fetch(`${origin}/api/v1/quote`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(
            quoteRequestBody(chain, { amount: 10n ** 18n, swapper: chain.accounts.swapper.address }),
          ),
        }),
      );
    const solvers = () => status(fetch(`${origin}/api/v1/solvers`));
    const streamPath = `/api/v1/orders/stream?swapper=${swapper}`;

    it(`holds ${HELD_STREAMS} streams that are never read within ${RSS_BOUND_MB} MB, answers /quote while ${OPENED_PER_SECOND} more open a second, and sends a reader every order`, async () => {
      const pid = child.pid!;
      expect([await quote(), await solvers()]).toEqual([200, 200]);
      // The server's own figure once it has served each route once.
      await sleep(1000);
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
        if (peak - before > RSS_GIVE_UP_MB) child.kill("SIGKILL");
      }, 100);
      let opened: Array<{ socket: Socket; status: number }> | Error;
      try {
        opened = await Promise.all(
          Array.from({ length: HELD_STREAMS }, () => holdStream(origin, streamPath)),
        ).catch((error: Error) => error);
        // What they hold once the server has written what their clients' sockets take.
        await sleep(3000);
      } finally {
        clearInterval(sampler);
      }
      const grown = `RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (the server is stopped beyond +${RSS_GIVE_UP_MB} MB)`;
      process.stdout.write(`[stream memory] ${HELD_STREAMS} held streams: ${grown}\n`);
      expect(peak - before, grown).toBeLessThan(RSS_BOUND_MB);
      if (opened instanceof Error) throw opened;
      held.push(...opened.map((stream) => stream.socket));
      expect(opened.map((stream) => stream.status)).toEqual(Array(HELD_STREAMS).fill(200));

      // More such streams asked for every second, whatever the server makes of them, while /quote and /solvers are
      // asked one after the other.
      const answers: Array<number | string> = [];
      let asking = true;
      const asked = (async () => {
        while (asking) answers.push(await quote(), await solvers());
      })();
      const later: Array<Promise<{ socket: Socket; status: number }>> = [];
      for (let second = 0; second < OPENING_SECONDS; second++) {
        for (let n = 0; n < OPENED_PER_SECOND; n++) {
          const stream = holdStream(origin, streamPath);
          later.push(stream);
          stream.then(({ socket }) => held.push(socket)).catch(() => {});
        }
        await sleep(1000);
      }
      const openedLater = await Promise.all(later).finally(() => {
        asking = false;
      });
      await asked;
      expect(openedLater.map((stream) => stream.status)).toEqual(
        Array(OPENED_PER_SECOND * OPENING_SECONDS).fill(200),
      );
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.filter((answer) => answer !== 200)).toEqual([]);
      expect(child.exitCode, stderr).toBe(null);

      for (const socket of held.splice(0)) socket.destroy();
      const ids = await readSnapshot(`${origin}${streamPath}`, ORDERS);
      expect(new Set(ids).size).toBe(ORDERS);
    }, 240_000);
  },
);
