// Hears of won orders at once: holds Sluice's solver stream (`GET {apiUrl}/orders/stream?solverId=<id>` with the
// solver's id and shared secret) and wakes the filler on each snapshot or order event, so a won order is acted on
// without waiting for the next poll. The poll stays the filler's source of truth: while the stream is down (refused,
// dropped, an older Sluice without it) the filler polls at its poll interval, and the stream reconnects (from the
// last event id it saw) after the delay the server's `retry:` names.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { readServerSentEvents } from "@sluice/client";
import type { Logger } from "../logger.ts";

export interface OrderStreamClientOptions {
  apiUrl: string;
  solverId: string;
  sharedSecret: string;
  logger: Logger;
  /** Called for every order the stream pushes (and its snapshot), and at each (re)connection. */
  onOrder(): void;
  /** Before the server has named one with `retry:` (default 2 s). */
  reconnectMs?: number;
}

export class OrderStreamClient {
  readonly #url: string;
  #connected = false;
  #lastEventId: string | undefined;
  #reconnectMs: number;

  constructor(private readonly options: OrderStreamClientOptions) {
    this.#url = `${options.apiUrl.replace(/\/+$/, "")}/orders/stream?${new URLSearchParams({ solverId: options.solverId })}`;
    this.#reconnectMs = options.reconnectMs ?? 2000;
  }

  /** Whether the stream is open now (the filler polls at its full rate while it is not). */
  get connected(): boolean {
    return this.#connected;
  }

  /** Holds the stream, reconnecting after each drop, until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.#follow(signal);
      } catch (error) {
        if (signal.aborted) break;
        this.options.logger.debug({ err: error }, "order stream dropped; polling until it is back");
      } finally {
        this.#connected = false;
      }
      await sleep(this.#reconnectMs, undefined, { signal }).catch(() => {});
    }
  }

  /**
   * One connection, until it ends. node:http rather than fetch: aborting it destroys the socket, which an aborted
   * fetch may keep open (and hold the server's shutdown).
   */
  async #follow(signal: AbortSignal): Promise<void> {
    const url = new URL(this.#url);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(url, {
        signal,
        headers: {
          accept: "text/event-stream",
          "x-solver-id": this.options.solverId,
          "x-rfq-shared-secret": this.options.sharedSecret,
          ...(this.#lastEventId ? { "last-event-id": this.#lastEventId } : {}),
        },
      });
      outgoing.on("response", resolve).on("error", reject).end();
    });
    if (response.statusCode !== 200) {
      response.destroy();
      throw new Error(`GET ${this.#url} answered ${response.statusCode}`);
    }
    this.#connected = true;
    this.options.logger.debug("order stream open");
    // A poll now covers whatever happened while it was down (or before it first opened).
    this.options.onOrder();
    const events = readServerSentEvents(Readable.toWeb(response) as ReadableStream<Uint8Array>, {
      onRetry: (ms) => {
        this.#reconnectMs = ms;
      },
    });
    for await (const event of events) {
      this.#lastEventId = event.id;
      if (event.event === "snapshot" || event.event === "order") this.options.onOrder();
    }
  }
}
