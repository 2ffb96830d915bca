// The devnet hands out its listeners' URLs (to the bundled solvers, endpoints.json) seconds before the listeners
// bind: the ports are held until then, so nothing else on the machine can take them meanwhile (a CI run lost one to
// another process's port 0 while the devnet's database and chain started).
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, reservePort } from "../../src/app/listen-address.ts";

/** Listens on `port` and closes again: the error code if it could not. */
function tryListen(port: number): Promise<string | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(undefined)));
  });
}

describe("port reservations", () => {
  it("hold a port nobody else can bind until released, then free it for its listener", async () => {
    const reservation = await reservePort("127.0.0.1");
    expect(reservation.port).toBeGreaterThan(0);
    expect(await tryListen(reservation.port)).toBe("EADDRINUSE");
    await reservation.release();
    await reservation.release();
    expect(await tryListen(reservation.port)).toBeUndefined();
  });

  it("a port only found free is not held", async () => {
    expect(await tryListen(await freePort("127.0.0.1"))).toBeUndefined();
  });
});
