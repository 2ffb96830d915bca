// Polls Sluice for the solver's own open orders: `GET {apiUrl}/orders?solverId=<id>&orderStatus=open`, oldest first
// (their deadlines come first). Only the fields the filler uses are read, with the API's own field schemas; the
// rest of each record is left alone, so an added field never stops the solver.
import { z } from "zod";
import { OrderRecordSchema } from "../orders/schemas.ts";

const OpenOrderSchema = OrderRecordSchema.pick({
  orderId: true,
  orderHash: true,
  orderStatus: true,
  encodedOrder: true,
  protocolSignature: true,
  deadline: true,
  filler: true,
});
export type OpenOrder = z.output<typeof OpenOrderSchema>;

const OpenOrdersResponseSchema = z.object({ orders: z.array(OpenOrderSchema) });

export class OrdersApiError extends Error {
  override name = "OrdersApiError";
}

export interface OrdersClientOptions {
  apiUrl: string;
  solverId: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

export class OrdersClient {
  readonly #url: string;
  readonly #timeoutMs: number;

  constructor(options: OrdersClientOptions) {
    const query = new URLSearchParams({ solverId: options.solverId, orderStatus: "open", sort: "asc" });
    this.#url = `${options.apiUrl.replace(/\/+$/, "")}/orders?${query}`;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async openOrders(signal: AbortSignal): Promise<OpenOrder[]> {
    let response: Response;
    try {
      response = await fetch(this.#url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.#timeoutMs)]),
      });
    } catch (error) {
      signal.throwIfAborted();
      throw new OrdersApiError(`GET ${this.#url} failed: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    if (!response.ok)
      throw new OrdersApiError(`GET ${this.#url} answered ${response.status}: ${text.slice(0, 200)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new OrdersApiError(`GET ${this.#url} answered a body that is not JSON`);
    }
    const parsed = OpenOrdersResponseSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new OrdersApiError(
        `GET ${this.#url}: unexpected body at ${issue?.path.join(".")}: ${issue?.message}`,
      );
    }
    return parsed.data.orders;
  }
}
