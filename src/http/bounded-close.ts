// Makes `app.close()` end within a bound. Node's `server.close()` closes the connections idle at that moment and then
// waits for every other one to end by itself: a kept-alive connection whose request was in flight stays open for the
// whole keep-alive timeout after its answer, and a long-lived response (a streamed list) for as long as it lasts.
import type { FastifyInstance } from "fastify";
import type { Logger } from "../logger.ts";

export function boundClose(app: FastifyInstance, shutdownMs: number, logger: Logger): void {
  let closing = false;

  // An answer written after close began tells the client not to reuse the connection, and Node closes it after.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
  // An answer whose headers had gone out before close began finishes on a connection that is now idle: close it.
  app.addHook("onResponse", (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
    done();
  });

  app.addHook("preClose", (done) => {
    closing = true;
    if (app.server.listening) {
      const force = setTimeout(() => {
        logger.warn({ shutdownMs }, "closing the connections still open at the shutdown timeout");
        app.server.closeAllConnections();
      }, shutdownMs);
      app.server.once("close", () => clearTimeout(force));
    }
    done();
  });
}
