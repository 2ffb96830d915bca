// A solver that behaves like Symbiotic's vault-solver, written from the real system's documents only — the public
// and internal OpenAPI documents (fixtures/reference/rfq-backend*.openapi.json, the public one through the types
// openapi-typescript generated from it), the ABIs beside them and the solver protocol of DESIGN.md §4 — and nothing
// of Sluice's code. It:
// - quotes: `POST {url}/quote` with `x-rfq-shared-secret`, priced from the legs it is sent; the one leg that pays the
//   most for the whole input (a direct leg at its `maxRate`, a discount leg at the adapter's `getAmountOut` less the
//   discount the internal API lists), less its margin; 204 when no single leg can take the input. The plan is kept
//   by quote id (the hard round at POST /order asks again with the same id, and its answer replaces the plan);
// - polls `GET /api/v1/orders?filler=<its Executor>&orderStatus=open` as vault-solver does, and is strict about the
//   execution fields: an open order without `encodedOrder`, `protocolSignature`, `deadline` or `filler` gets
//   vault-solver's log line "executable order payload incomplete" and is not filled; and it decodes records the way a
//   strict decoder does (serde's deny_unknown_fields): a key the document's order item does not list is refused;
// - fills through its Executor: `fill(order, protocolSignature, swapInputs, executorData)` for a direct leg, and for
//   a discount leg resolves the discount at the internal API — `POST /api-internal/v1/discounts` with the batch
//   shape and one entry, without credentials, as vault-solver does in `network` mode — and sends
//   `fill(order, protocolSignature, [], discountSwapInputs, executorData)`.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import createClient from "openapi-fetch";
import {
  type Abi,
  type AbiParameter,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  isAddressEqual,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { REFERENCE_DIR } from "./reference-documents.ts";
import type { paths } from "./rfq-backend.generated.ts";

const readAbi = (name: string) => JSON.parse(readFileSync(`${REFERENCE_DIR}abi-${name}.json`, "utf8")) as Abi;
const executorAbi = readAbi("Executor");
const adapterAbi = readAbi("LiquidLaneAdapter");

/** The Executor's `fill` Order parameter, from the reference ABI: what `encodedOrder` is the ABI encoding of. */
const orderParameter = (() => {
  const fill = executorAbi.find((item) => item.type === "function" && item.name === "fill");
  if (fill?.type !== "function") throw new Error("the reference Executor ABI has no fill");
  return fill.inputs[0] as AbiParameter;
})();

/** vault-solver's warning for an open order without the fields a fill needs. */
export const INCOMPLETE_PAYLOAD = "executable order payload incomplete";
const EXECUTION_FIELDS = ["encodedOrder", "protocolSignature", "deadline", "filler"] as const;
/** A strict decoder's refusal of a record with keys its type does not have. */
export const UNKNOWN_ORDER_FIELDS = "order record has unknown fields";
/** The keys of an order in the reference document's OrdersResponse: all a strict decoder accepts. */
const ORDER_KEYS: ReadonlySet<string> = new Set(
  Object.keys(
    JSON.parse(readFileSync(`${REFERENCE_DIR}rfq-backend.openapi.json`, "utf8")).components.schemas
      .OrdersResponse.properties.orders.items.properties,
  ),
);

export interface PollerOptions {
  /** Sluice's public origin (`http://host:port`): the reference document's paths start with /api/v1. */
  apiOrigin: string;
  /** Sluice's internal API base, e.g. `http://127.0.0.1:8081/api-internal/v1`. */
  internalApiUrl: string;
  rpcUrl: string;
  chainId: number;
  executor: Address;
  /** The key of a caller of the Executor. */
  privateKey: Hex;
  sharedSecret: string;
  marginBps: bigint;
  pollIntervalMs: number;
}

export interface PollerLogLine {
  msg: string;
  [key: string]: unknown;
}

/** How the poller fills one quote: one leg takes the whole input. */
interface Plan {
  adapter: Address;
  discountId?: Hex;
  amountIn: bigint;
  /** What the leg pays the Executor. */
  legOut: bigint;
}

export interface PollerFill {
  orderId: string;
  txHash: Hex;
  status: "success" | "reverted";
  leg: "direct" | "discount";
}

/** The solver protocol's quote request (DESIGN.md §4). */
interface QuoteRequest {
  requestId: string;
  quoteId: string;
  tokenInChainId: number;
  tokenOutChainId: number;
  swapper: Address;
  tokenIn: Address;
  tokenOut: Address;
  amount: string;
  type: string;
  protocol: string;
  numOutputs: number;
  adapters: Array<{
    adapter: Address;
    asset: Address;
    assetDecimals: number;
    maxAssets: string;
    maxRate: string;
    discountId?: Hex;
  }>;
}

/** A live discount as rfq-backend-internal.openapi.json's DiscountsResponse lists it. */
interface ListedDiscount {
  discountId: Hex;
  adapter: Address;
  tokenToRedeem: Address;
  discount: string;
}

/** One entry of rfq-backend-internal.openapi.json's ResolveDiscountResponse (batch shape). */
interface ResolvedDiscount {
  discountId: Hex;
  discount: {
    adapter: Address;
    tokenToRedeem: Address;
    discount: string;
    signer: Address;
    protocol: Address;
    nonce: string;
    deadline: number;
  };
  signerSignature: Hex;
  protocolDeadline: number;
  protocolSignature: Hex;
}

type OpenOrder =
  paths["/api/v1/orders"]["get"]["responses"][200]["content"]["application/json"]["orders"][number];

interface DecodedOrder {
  request: { tokenIn: Address; amountIn: bigint; outputs: Array<{ token: Address; amount: bigint }> };
  filler: Address;
  outputs: Array<{ token: Address; amount: bigint; recipient: Address }>;
}

export class VaultSolverPoller {
  readonly logs: PollerLogLine[] = [];
  readonly fills: PollerFill[] = [];
  /** Bodies the poller sent to the internal resolve endpoint. */
  readonly resolveBodies: unknown[] = [];
  readonly #options: PollerOptions;
  readonly #server: Server;
  readonly #plans = new Map<string, Plan>();
  readonly #handled = new Set<string>();
  readonly #api: ReturnType<typeof createClient<paths>>;
  readonly #publicClient;
  readonly #wallet;
  readonly #stopping = new AbortController();
  #loop: Promise<void> | undefined;
  url = "";

  private constructor(options: PollerOptions) {
    this.#options = options;
    this.#api = createClient<paths>({ baseUrl: options.apiOrigin });
    const chain = {
      id: options.chainId,
      name: "devnet",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [options.rpcUrl] } },
    } as const;
    this.#publicClient = createPublicClient({ chain, transport: http(options.rpcUrl), pollingInterval: 100 });
    this.#wallet = createWalletClient({
      chain,
      transport: http(options.rpcUrl),
      account: privateKeyToAccount(options.privateKey),
    });
    this.#server = createServer((req, res) => {
      this.#serveQuote(req, res).catch((error: unknown) => {
        this.#log("quote failed", { err: String(error) });
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  }

  /** Starts the quote server (port 0); the polling starts with `startPolling` once Sluice knows the URL. */
  static async start(options: PollerOptions): Promise<VaultSolverPoller> {
    const poller = new VaultSolverPoller(options);
    await new Promise<void>((resolve) => poller.#server.listen(0, "127.0.0.1", resolve));
    poller.url = `http://127.0.0.1:${(poller.#server.address() as AddressInfo).port}`;
    return poller;
  }

  startPolling(): void {
    this.#loop ??= this.#poll();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  #log(msg: string, fields: Record<string, unknown> = {}): void {
    this.logs.push({ msg, ...fields });
  }

  async #serveQuote(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST" || !req.url?.endsWith("/quote")) return void res.writeHead(404).end();
    if (req.headers["x-rfq-shared-secret"] !== this.#options.sharedSecret)
      return void res.writeHead(401).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as QuoteRequest;
    if (request.protocol !== "v1" || request.type !== "EXACT_INPUT") return void res.writeHead(422).end();
    const plan = await this.#bestLeg(request);
    if (!plan) return void res.writeHead(204).end();
    this.#plans.set(request.quoteId, plan);
    const amountOut = (plan.legOut * (10_000n - this.#options.marginBps)) / 10_000n;
    this.#log("quoted", { quoteId: request.quoteId, adapter: plan.adapter, discountId: plan.discountId });
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        chainId: request.tokenInChainId,
        amountIn: request.amount,
        amountOut: amountOut.toString(),
        filler: this.#options.executor,
        requestId: request.requestId,
        swapper: request.swapper,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        quoteId: request.quoteId,
      }),
    );
  }

  /** The single leg that pays the most for the whole input, within its capacity; none when no leg can take it. */
  async #bestLeg(request: QuoteRequest): Promise<Plan | undefined> {
    const amountIn = BigInt(request.amount);
    const inDecimals = await this.#publicClient.readContract({
      address: request.tokenIn,
      abi: erc20Abi,
      functionName: "decimals",
    });
    const candidates: Plan[] = [];
    for (const leg of request.adapters) {
      const legOut = leg.discountId
        ? await this.#discountOutput(leg.adapter, request.tokenIn, leg.discountId, amountIn)
        : // The adapter releases up to amountIn at its rate; one unit less keeps clear of its own rounding.
          (amountIn * BigInt(leg.maxRate) * 10n ** BigInt(leg.assetDecimals)) /
            (10n ** 18n * 10n ** BigInt(inDecimals)) -
          1n;
      if (legOut === undefined || legOut <= 0n || legOut > BigInt(leg.maxAssets)) continue;
      candidates.push({
        adapter: leg.adapter,
        ...(leg.discountId ? { discountId: leg.discountId } : {}),
        amountIn,
        legOut,
      });
    }
    return candidates.sort((a, b) => (a.legOut === b.legOut ? 0 : a.legOut > b.legOut ? -1 : 1))[0];
  }

  /** What the adapter's discount swap pays: its gross oracle output less the listed discount (ppm). */
  async #discountOutput(
    adapter: Address,
    tokenIn: Address,
    discountId: Hex,
    amountIn: bigint,
  ): Promise<bigint | undefined> {
    const response = await fetch(`${this.#options.internalApiUrl}/discounts?discountId=${discountId}`);
    if (response.status !== 200) return undefined;
    const listed = ((await response.json()) as { discounts: ListedDiscount[] }).discounts.find(
      (discount) => discount.discountId.toLowerCase() === discountId.toLowerCase(),
    );
    if (!listed || !isAddressEqual(listed.adapter, adapter)) return undefined;
    const gross = (await this.#publicClient.readContract({
      address: adapter,
      abi: adapterAbi,
      functionName: "getAmountOut",
      args: [tokenIn, amountIn],
    })) as bigint;
    return (gross * (1_000_000n - BigInt(listed.discount))) / 1_000_000n;
  }

  async #poll(): Promise<void> {
    const signal = this.#stopping.signal;
    while (!signal.aborted) {
      try {
        const listed = await this.#api.GET("/api/v1/orders", {
          params: { query: { filler: this.#options.executor, orderStatus: "open" } },
          signal,
        });
        if (listed.data) {
          for (const order of listed.data.orders) await this.handle(order);
        } else {
          this.#log("orders poll failed", { status: listed.response.status });
        }
      } catch (error) {
        if (signal.aborted) break;
        this.#log("orders poll failed", { err: String(error) });
      }
      await sleep(this.#options.pollIntervalMs, undefined, { signal }).catch(() => {});
    }
  }

  /** One open order of the poll: checked, planned and filled once. */
  async handle(order: OpenOrder): Promise<void> {
    if (this.#handled.has(order.orderId)) return;
    const unknown = Object.keys(order).filter((key) => !ORDER_KEYS.has(key));
    if (unknown.length > 0) {
      this.#log(UNKNOWN_ORDER_FIELDS, { orderId: order.orderId, unknown });
      return;
    }
    const missing = EXECUTION_FIELDS.filter((field) => order[field] === undefined || order[field] === null);
    if (missing.length > 0) {
      this.#log(INCOMPLETE_PAYLOAD, { orderId: order.orderId, missing });
      return;
    }
    if (!isAddressEqual(order.filler as Address, this.#options.executor)) {
      this.#log("order for another filler", { orderId: order.orderId, filler: order.filler });
      return;
    }
    const plan = this.#plans.get(order.quoteId);
    if (!plan) {
      this.#log("no plan for the order's quote", { orderId: order.orderId, quoteId: order.quoteId });
      return;
    }
    const [decoded] = decodeAbiParameters([orderParameter], order.encodedOrder as Hex) as unknown as [
      DecodedOrder,
    ];
    const owed = decoded.outputs.reduce((sum, output) => sum + output.amount, 0n);
    if (
      !isAddressEqual(decoded.filler, this.#options.executor) ||
      decoded.request.amountIn !== plan.amountIn
    ) {
      this.#log("order does not match its plan", { orderId: order.orderId });
      return;
    }
    if (owed > plan.legOut) {
      this.#log("the plan does not cover the committed outputs", { orderId: order.orderId, owed, plan });
      return;
    }
    this.#handled.add(order.orderId);
    const data = plan.discountId
      ? await this.#discountFill(decoded, order.protocolSignature as Hex, plan)
      : encodeFunctionData({
          abi: executorAbi,
          functionName: "fill",
          args: [
            decoded,
            order.protocolSignature as Hex,
            [
              {
                adapter: plan.adapter,
                swap: {
                  recipient: this.#options.executor,
                  tokenIn: decoded.request.tokenIn,
                  amountIn: plan.amountIn,
                  amountOut: plan.legOut,
                },
              },
            ],
            "0x",
          ],
        });
    if (!data) {
      this.#handled.delete(order.orderId);
      return;
    }
    let txHash: Hex;
    try {
      txHash = await this.#wallet.sendTransaction({ to: this.#options.executor, data });
    } catch (error) {
      // Not sent: planned again at the next poll.
      this.#handled.delete(order.orderId);
      this.#log("fill not sent", { orderId: order.orderId, err: String(error) });
      return;
    }
    const receipt = await this.#publicClient.waitForTransactionReceipt({ hash: txHash });
    const fill: PollerFill = {
      orderId: order.orderId,
      txHash,
      status: receipt.status,
      leg: plan.discountId ? "discount" : "direct",
    };
    this.fills.push(fill);
    this.#log(receipt.status === "success" ? "order filled" : "fill reverted", { ...fill });
  }

  /** Resolves the plan's discount (batch shape, one entry, no credentials) into the Executor's discount fill. */
  async #discountFill(order: DecodedOrder, protocolSignature: Hex, plan: Plan): Promise<Hex | undefined> {
    const body = { discountIds: [plan.discountId] };
    this.resolveBodies.push(body);
    const response = await fetch(`${this.#options.internalApiUrl}/discounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) {
      this.#log("discount not resolved", { discountId: plan.discountId, status: response.status });
      return undefined;
    }
    const { discounts } = (await response.json()) as { discounts: ResolvedDiscount[] };
    const resolved = discounts.find(
      (entry) => entry.discountId.toLowerCase() === plan.discountId!.toLowerCase(),
    );
    if (!resolved || !isAddressEqual(resolved.discount.adapter, plan.adapter)) {
      this.#log("discount resolved to something else", { discountId: plan.discountId });
      return undefined;
    }
    const terms = resolved.discount;
    return encodeFunctionData({
      abi: executorAbi,
      functionName: "fill",
      args: [
        order,
        protocolSignature,
        [],
        [
          {
            adapter: plan.adapter,
            discountSwap: {
              discount: {
                tokenToRedeem: terms.tokenToRedeem,
                discount: BigInt(terms.discount),
                signer: terms.signer,
                protocol: terms.protocol,
                nonce: BigInt(terms.nonce),
                deadline: terms.deadline,
              },
              signerSignature: resolved.signerSignature,
              protocolDeadline: resolved.protocolDeadline,
            },
            protocolSignature: resolved.protocolSignature,
            recipient: this.#options.executor,
            amountIn: plan.amountIn,
          },
        ],
        "0x",
      ],
    });
  }
}
