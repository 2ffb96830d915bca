// The reference solver's side of the solver protocol over real HTTP, priced against anvil with the project's
// contracts: the shared secret (401), schema violations (422), declines (204), the echoed quote with its own
// Executor as filler (200), the base path kept, and Sluice's own solver client accepting the answer.
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liquidLaneAdapterAbi } from "../../src/chain/abis.ts";
import { type ReferenceSolver, startReferenceSolver } from "../../src/reference-solver/main.ts";
import { requestSolverQuote } from "../../src/solvers/client.ts";
import { SolverDeadline } from "../../src/solvers/deadline.ts";
import { SolverQuoteRequestSchema } from "../../src/solvers/protocol.ts";
import { useTestChain } from "../support/anvil.ts";
import {
  type CapturedLogs,
  captureLogs,
  SOLVER_ID,
  SOLVER_SECRET,
  solverConfig,
  solverKey,
  solverQuoteRequest,
} from "./support.ts";

const RWA = 10n ** 18n;
const USD = 10n ** 6n;
const CHAIN_RATE = 9995n * 10n ** 14n; // oracle 1.0 less the 500 ppm min discount
const BASE_PATH = "/rfq/v1";

const chain = useTestChain();
let solver: ReferenceSolver;
let logs: CapturedLogs;

beforeAll(async () => {
  logs = captureLogs();
  solver = await startReferenceSolver(solverConfig(chain, { basePath: BASE_PATH, marginBps: 10 }), {
    sharedSecret: SOLVER_SECRET,
    privateKey: solverKey(),
    logger: logs.logger,
  });
});
afterAll(async () => {
  await solver?.stop();
});

function quoteRequest(overrides: Record<string, unknown> = {}) {
  const { core } = chain;
  return {
    ...solverQuoteRequest(chain, 1000n * RWA, [
      {
        adapter: core.adapters.usd,
        asset: core.tokens.usd,
        assetDecimals: 6,
        maxAssets: (1_000_000n * USD).toString(),
        maxRate: CHAIN_RATE.toString(),
      },
    ]),
    ...overrides,
  };
}

async function post(body: unknown, options: { secret?: string | null; url?: string } = {}) {
  const secret = options.secret === undefined ? SOLVER_SECRET : options.secret;
  const response = await fetch(options.url ?? `${solver.url}/quote`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret === null ? {} : { "x-rfq-shared-secret": secret }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

describe("POST {basePath}/quote", () => {
  it("answers 200 with the request echoed, its Executor as filler and the priced amount", async () => {
    const body = quoteRequest({ swapper: chain.accounts.swapper.address.toUpperCase().replace("0X", "0x") });
    const response = await post(body);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      chainId: chain.chainId,
      amountIn: body.amount,
      // 1000 tRWA × 0.9995 = 999.5 tUSD, less one unit (one leg), less 10 bps, rounded down.
      amountOut: "998500499",
      filler: chain.core.executors[0]!.toLowerCase(),
      requestId: body.requestId,
      swapper: chain.accounts.swapper.address.toLowerCase(),
      tokenIn: chain.core.tokens.rwa.toLowerCase(),
      tokenOut: chain.core.tokens.usd.toLowerCase(),
      quoteId: body.quoteId,
    });
    const line = await logs.waitFor((e) => e.msg === "quote request" && e.quoteId === body.quoteId);
    expect(line).toMatchObject({
      status: 200,
      amountOut: "998500499",
      solver: SOLVER_ID,
      component: "quotes",
    });
    expect(line.legs).toEqual([
      { adapter: chain.core.adapters.usd, amountIn: body.amount, amountOut: "999499999" },
    ]);
  });

  it("is judged a valid quote by Sluice's own solver client", async () => {
    // As Sluice sends it: addresses lowercased by the shared schema.
    const request = SolverQuoteRequestSchema.parse(quoteRequest());
    const outcome = await requestSolverQuote(
      {
        id: SOLVER_ID,
        name: SOLVER_ID,
        endpoint: solver.url,
        filler: chain.core.executors[0]!.toLowerCase() as Address,
        internal: false,
        enabled: true,
        sharedSecret: SOLVER_SECRET,
      },
      request,
      SolverDeadline.after(10_000),
    );
    expect(outcome).toMatchObject({ kind: "quoted", amountOut: 998_500_499n });
  });

  it("keeps its base path: the endpoint is {url}/quote and nothing answers outside it", async () => {
    expect(solver.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${BASE_PATH}$`));
    const origin = new URL(solver.url).origin;
    expect((await post(quoteRequest(), { url: `${origin}/quote` })).status).toBe(404);
    const get = await fetch(`${solver.url}/quote`);
    expect(get.status).toBe(405);
  });

  it("prices at the lower of the sent and the on-chain rate", async () => {
    const generous = quoteRequest();
    generous.adapters[0]!.maxRate = (11n * 10n ** 17n).toString();
    expect((await post(generous)).json.amountOut).toBe("998500499");
    const stingy = quoteRequest();
    stingy.adapters[0]!.maxRate = (99n * 10n ** 16n).toString();
    // 990 tUSD less one unit, less 10 bps.
    expect((await post(stingy)).json.amountOut).toBe("989009999");
  });

  it.each([
    ["no secret", null],
    ["a wrong secret", "not-the-secret"],
    ["the secret with a different case", SOLVER_SECRET.toUpperCase()],
  ])("answers 401 to %s, before looking at the body", async (_label, secret) => {
    expect((await post(quoteRequest(), { secret })).status).toBe(401);
    expect((await post("{not json", { secret })).status).toBe(401);
  });

  it.each([
    ["a body that is not JSON", () => "{not json", undefined],
    ["a missing quoteId", () => ({ ...quoteRequest(), quoteId: undefined }), "quoteId"],
    ["an EXACT_OUTPUT type", () => quoteRequest({ type: "EXACT_OUTPUT" }), "type"],
    ["a fractional amount", () => quoteRequest({ amount: "1.5" }), "amount"],
    ["a bad swapper address", () => quoteRequest({ swapper: "0x1234" }), "swapper"],
    ["no adapters", () => quoteRequest({ adapters: [] }), "adapters"],
    [
      "a leg without maxRate",
      () => quoteRequest({ adapters: [{ ...quoteRequest().adapters[0], maxRate: undefined }] }),
      "adapters.0.maxRate",
    ],
  ])("answers 422 to %s", async (_label, build, path) => {
    const response = await post(build());
    expect(response.status, response.text).toBe(422);
    if (path) expect(response.json.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it.each([
    ["another chain", () => quoteRequest({ tokenInChainId: 1, tokenOutChainId: 1 }), "other_chain"],
    ["a leg paying another token", () => quoteRequest({ tokenOut: chain.core.tokens.usdt }), "no_legs"],
    [
      "only a discount leg",
      () => {
        const request = quoteRequest();
        Object.assign(request.adapters[0]!, { discountId: `0x${"ab".repeat(32)}` });
        return request;
      },
      "no_legs",
    ],
    [
      "an adapter it does not fill through",
      () => {
        const request = quoteRequest();
        request.adapters[0]!.adapter = `0x${"5".repeat(40)}` as Address;
        return request;
      },
      "no_legs",
    ],
    [
      "wrong asset decimals",
      () => {
        const request = quoteRequest();
        request.adapters[0]!.assetDecimals = 18;
        return request;
      },
      "no_legs",
    ],
    [
      "more input than the sent capacity takes",
      () => {
        const request = quoteRequest();
        request.adapters[0]!.maxAssets = (100n * USD).toString();
        return request;
      },
      "insufficient_capacity",
    ],
    ["an amount too small to pay anything", () => quoteRequest({ amount: "1000" }), "zero_output"],
    [
      "an input token that is no token",
      () => quoteRequest({ tokenIn: `0x${"6".repeat(40)}` }),
      "unknown_token",
    ],
  ])("answers 204 to %s", async (_label, build, reason) => {
    const body = build();
    const response = await post(body);
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe("");
    const line = await logs.waitFor((e) => e.msg === "quote request" && e.quoteId === body.quoteId);
    expect(line).toMatchObject({ status: 204, declined: reason });
  });

  it("declines a leg the chain no longer offers (the adapter was paused after Sluice read it)", async () => {
    const wallet = chain.wallet(chain.accounts.deployer);
    const hash = await wallet.writeContract({
      address: chain.core.adapters.usd,
      abi: liquidLaneAdapterAbi,
      functionName: "pause",
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const body = quoteRequest();
    expect((await post(body)).status).toBe(204);
    const line = await logs.waitFor((e) => e.msg === "quote request" && e.quoteId === body.quoteId);
    expect(line.declined).toBe("no_legs");
  });
});
