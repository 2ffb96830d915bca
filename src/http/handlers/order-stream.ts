// GET /orders/stream: an order stream (src/orders/order-stream.ts) written as Server-Sent Events, with a `retry:`
// (jittered, so clients dropped together do not come back together), a comment heartbeat every 15 s (proxies close
// silent connections), and the replica's stream limits (../stream-connections.ts). Each message is written once the
// client has taken what was written before (the response's buffer drained), so a client that reads slowly or not
// at all holds a bounded amount of the server's memory. A solver's stream (by `solverId` or `filler`) asks that
// solver's credentials, and counts against that solver's streams instead of its address's: the execution fields
// are public by design, but the credentials pick the solver and guard a long-lived resource.
import { PassThrough } from "node:stream";
import { z } from "zod";
import { HEARTBEAT_INTERVAL_MS } from "../../config/http-timeouts.ts";
import { SolverAuthenticationError } from "../../discounts/errors.ts";
import { authenticateSolver } from "../../discounts/solver-auth.ts";
import {
  InvalidLastEventIdError,
  MissingStreamFilterError,
  OtherSolverStreamError,
  StreamCapacityError,
  StreamClientLimitError,
} from "../../orders/errors.ts";
import type { OpenStream, OrderStreams, StreamMessage } from "../../orders/order-stream.ts";
import { EventIdSchema, OrderStreamQuerySchema, StreamFilter } from "../../orders/stream-filter.ts";
import type { SolverDirectory } from "../../solvers/directory.ts";
import { MEDIA_TYPE_KEY } from "../openapi.ts";
import { logAsRoutine } from "../request-log.ts";
import type { Handler } from "../route.ts";
import type { StreamClient, StreamConnections } from "../stream-connections.ts";

/** Clients wait this long before reconnecting, plus up to RETRY_JITTER_MS. */
export const RETRY_BASE_MS = 2000;
export const RETRY_JITTER_MS = 3000;

export const orderStreamSchema = {
  tags: ["orders"],
  summary: "A stream of order changes (Server-Sent Events)",
  description:
    "`text/event-stream`. Give at least one of orderId, orderIds, orderHash, orderHashes, swapper (a wallet's " +
    "stream), or solverId / filler with `x-solver-id` and `x-rfq-shared-secret` (a solver's stream: its open " +
    "orders with their execution fields). First one `snapshot` event per matching order (a solver's stream: its " +
    "open orders), each the record GET /orders returns, then an `order` event for each change of a matching " +
    "order (the record after the change); each event's `id:` increases across the deployment. Reconnect with " +
    "`Last-Event-ID` (or `lastEventId`) to get every change after it exactly once while it is within the " +
    "retention window; an older id gets `event: resync` and the snapshot again. A stream naming orders sends " +
    "`event: end` once each of them has an end status with `finalized: true`; reconnecting after that answers " +
    "204. Comment heartbeats every 15 s. 429/503 when the client's or the server's stream limit is reached.",
  querystring: OrderStreamQuerySchema,
  response: {
    200: z.string().meta({
      [MEDIA_TYPE_KEY]: "text/event-stream",
      description:
        "Server-Sent Events: `event: snapshot|order|resync|end`, `id:` (the log id), `data:` (an Order record; " +
        "resync: {lastEventId, oldestResumableId})",
    }),
    204: z.null().meta({ description: "Every named order was final before the client's last event" }),
  },
  errors: [
    MissingStreamFilterError,
    InvalidLastEventIdError,
    SolverAuthenticationError,
    OtherSolverStreamError,
    StreamClientLimitError,
    StreamCapacityError,
  ],
  database: true,
};

export interface OrderStreamServices {
  streams: OrderStreams;
  connections: StreamConnections;
  solvers: Pick<SolverDirectory, "byId">;
}

export function orderStream(services: OrderStreamServices): Handler<typeof orderStreamSchema> {
  return async (request, reply) => {
    const filter = StreamFilter.of(request.query);
    // An integrator's streams count against its key (request-limits.ts found it), an anonymous client's its address.
    let client: StreamClient =
      request.caller?.kind === "key" ? { integrator: request.caller.integrator } : { ip: request.ip };
    if (filter.solverView) {
      client = { solverId: authorizeSolverStream(services.solvers, request.headers, filter) };
      // A solver's stream stands in for its polls, and is reopened as they were: at debug like them.
      logAsRoutine(request);
    }
    const lastEventId = resumeId(request.headers["last-event-id"]) ?? request.query.lastEventId;

    const body = new PassThrough();
    let stream: OpenStream | undefined;
    const release = services.connections.acquire(client, {
      end: () => {
        stream?.cancel();
        if (!body.writableEnded) body.end();
      },
    });
    let opened: Awaited<ReturnType<OrderStreams["open"]>>;
    try {
      opened = await services.streams.open(filter, lastEventId);
    } catch (error) {
      release();
      throw error;
    }
    if (opened.kind === "over") {
      release();
      return reply.code(204).send(null);
    }
    stream = opened;
    const open = opened;
    // Only into an empty buffer: a client that takes nothing is not sent more.
    const heartbeat = setInterval(() => {
      if (body.writableLength === 0 && body.readableLength === 0 && !body.writableEnded)
        body.write(": heartbeat\n\n");
    }, HEARTBEAT_INTERVAL_MS);
    body.on("close", () => {
      clearInterval(heartbeat);
      open.cancel();
      release();
    });
    body.write(`retry: ${RETRY_BASE_MS + Math.floor(Math.random() * RETRY_JITTER_MS)}\n\n`);
    writeMessages(open, body).catch(() => body.destroy());
    return (
      reply
        .header("content-type", "text/event-stream; charset=utf-8")
        .header("cache-control", "no-cache, no-transform")
        // nginx buffers responses unless told not to.
        .header("x-accel-buffering", "no")
        // A stream of text: the 200 schema documents it, no serializer sees it.
        .send(body as never)
    );
  };
}

/** Writes each message once the body has room for it; ends the body when the messages end. */
async function writeMessages(stream: OpenStream, body: PassThrough): Promise<void> {
  for await (const message of stream.messages) {
    if (body.writableEnded || body.destroyed) break;
    if (!body.write(frame(message))) await drained(body);
  }
  if (!body.writableEnded && !body.destroyed) body.end();
}

/** Resolves once `body` has room again, or is gone. */
function drained(body: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      body.off("drain", done);
      body.off("close", done);
      resolve();
    };
    body.on("drain", done);
    body.on("close", done);
  });
}

function resumeId(header: string | string[] | undefined): bigint | undefined {
  if (header === undefined) return undefined;
  const parsed = EventIdSchema.safeParse(Array.isArray(header) ? header[0] : header);
  if (!parsed.success) throw new InvalidLastEventIdError();
  return parsed.data;
}

/** A solver's stream: its credentials, and only its own orders (its id, its Executor). Returns the solver's id. */
function authorizeSolverStream(
  solvers: OrderStreamServices["solvers"],
  headers: Record<string, string | string[] | undefined>,
  filter: StreamFilter,
): string {
  const solver = authenticateSolver(solvers, headers);
  const { solverId, filler } = filter.query;
  if (
    (solverId !== undefined && solverId !== solver.id) ||
    (filler !== undefined && filler !== solver.filler.toLowerCase())
  )
    throw new OtherSolverStreamError(solver.id, { solverId, filler });
  return solver.id;
}

/** One message as an SSE event. Its data is one line: JSON has no raw newlines. */
export function frame(message: StreamMessage): string {
  switch (message.kind) {
    case "snapshot":
    case "order":
      return `event: ${message.kind}\nid: ${message.id}\ndata: ${message.order}\n\n`;
    case "resync":
      return `event: resync\ndata: {"lastEventId":"${message.lastEventId}","oldestResumableId":"${message.oldestResumableId}"}\n\n`;
    case "end":
      // An event without data is never dispatched by EventSource.
      return `event: end\nid: ${message.id}\ndata: {}\n\n`;
  }
}
