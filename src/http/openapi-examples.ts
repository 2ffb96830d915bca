// The OpenAPI document's request and response examples, made from the deployment this Sluice serves: its chain id,
// its tokens, its Reactor, and (on the devnet) a funded demo swapper, so "Try it out" on the docs page works as is.
// A mainnet document never carries devnet addresses: nothing here is fixed but the example wallet used when the
// deployment names no demo swapper.

import { type Address, encodeFunctionData, erc20Abi, getAddress, maxUint256 } from "viem";
import { reactorAbi } from "../chain/abis.ts";
import { reactorDomain } from "../chain/eip712.ts";
import { publicDeployment } from "../deployment/public.ts";
import type { Deployment } from "../deployment/schema.ts";
import { faucetAssetsFor, NATIVE_TOKEN } from "../devnet/faucet.ts";
import { tokenInfo } from "../liquidity/service.ts";
import { priceImprovement } from "../orders/price-improvement.ts";
import { signatureDataFor } from "../swap/typed-data.ts";
import { partnerExamples } from "./openapi-partner-examples.ts";

/** Examples of one operation, keyed like the route table (`POST /api/v1/quote`). */
export interface OperationExamples {
  /** Query parameters' examples, by name. */
  query?: Record<string, string>;
  /** Path parameters' examples, by name. */
  params?: Record<string, string>;
  /** The request body's example. */
  body?: { summary: string; value: unknown };
  /** Response examples by status. */
  responses?: Partial<Record<number, { summary: string; value: unknown }>>;
}

export type DocumentExamples = ReadonlyMap<string, OperationExamples>;

/** A wallet for examples on a deployment without a demo swapper: any address works for a quote. */
const ANY_WALLET: Address = getAddress("0x000000000000000000000000000000000000dead");

/** A fixed example time: examples are illustrations, not live answers. */
export const EXAMPLE_TIMESTAMP = "2026-01-01T12:00:00.000Z";
/** Illustrative adapter and signer for a deployment without adapters: the discount example's shape, not a contract. */
const EXAMPLE_ADAPTER: Address = getAddress("0x00000000000000000000000000000000000ada97");
const EXAMPLE_MARKET_MAKER: Address = getAddress("0x000000000000000000000000000000000000face");
const EXAMPLE_REQUEST_ID = "6f1c2a54-3b9e-4d2f-9a61-0c8e5b7d4a10";

export function exampleKey(method: string, path: string): string {
  return `${method} ${path}`;
}

export interface ExampleFacts {
  /** The deployment served; without one, only the system routes have examples. */
  deployment?: Pick<
    Deployment,
    | "chainId"
    | "chainName"
    | "reactor"
    | "local"
    | "inputTokens"
    | "outputTokens"
    | "solvers"
    | "protocolSigner"
    | "adapters"
    | "name"
    | "quoteLifetimeSeconds"
    | "solverTimeoutMs"
  >;
  /** A funded wallet whose quotes the bundled solvers answer (the devnet's first demo account). */
  demoSwapper?: Address;
  /** The API prefix the keys use (`/api/v1`). */
  prefix: string;
}

export function documentExamples(facts: ExampleFacts): DocumentExamples {
  const examples = new Map<string, OperationExamples>();
  const at = (method: string, path: string, operation: OperationExamples) =>
    examples.set(exampleKey(method, `${facts.prefix}${path}`), operation);

  for (const [key, operation] of partnerExamples({
    ...(facts.deployment ? { deployment: facts.deployment } : {}),
    ...(facts.demoSwapper ? { receiver: facts.demoSwapper } : {}),
  }))
    examples.set(`${key.replace(" ", ` ${facts.prefix}`)}`, operation);

  at("GET", "/health", {
    responses: {
      200: { summary: "Running", value: { status: "ok", timestamp: EXAMPLE_TIMESTAMP } },
      503: { summary: "Draining", value: { status: "draining", timestamp: EXAMPLE_TIMESTAMP } },
    },
  });

  const passing = (name: string, message: string, durationMs: number) => ({
    name,
    status: "pass",
    message,
    durationMs,
  });
  at("GET", "/ready", {
    responses: {
      200: {
        summary: "Ready",
        value: {
          status: "ready",
          timestamp: EXAMPLE_TIMESTAMP,
          failing: [],
          checks: [
            passing("serving", "serving", 0),
            passing("database", "postgres answers", 2),
            passing("migrations", "all 13 applied", 2),
            {
              ...passing("chain-head", "block 21000000", 0),
              details: { block: "21000000", blockAgeSeconds: 4, receivedMsAgo: 310 },
            },
            {
              ...passing("indexer", "at block 20999988, caught up with block 20999988", 3),
              details: { position: "20999988", target: "20999988", lagBlocks: 0, maxLagBlocks: 10 },
            },
          ],
        },
      },
      503: {
        summary: "Not ready: the indexer is behind",
        value: {
          status: "not-ready",
          timestamp: EXAMPLE_TIMESTAMP,
          failing: ["indexer"],
          checks: [
            passing("serving", "serving", 0),
            passing("database", "postgres answers", 2),
            passing("migrations", "all 13 applied", 2),
            passing("chain-head", "block 21000000", 0),
            {
              name: "indexer",
              status: "fail",
              message: "at block 20999950, 38 blocks behind block 20999988 (at most 10)",
              durationMs: 3,
              details: { position: "20999950", target: "20999988", lagBlocks: 38, maxLagBlocks: 10 },
            },
          ],
        },
      },
    },
  });

  const deployment = facts.deployment;
  const tokenIn = deployment?.inputTokens[0];
  if (!deployment || !tokenIn) return examples;
  const tokenOut =
    deployment.outputTokens.find((token) => token.address === tokenIn.liquidityOutputToken) ??
    deployment.outputTokens[0];
  if (!tokenOut) return examples;
  const swapper = facts.demoSwapper ?? ANY_WALLET;
  const whole = 10n ** BigInt(tokenIn.decimals);
  // 100 whole tokens (the example script's default), or the token's minimum when that is more.
  const amount = [100n * whole, BigInt(tokenIn.minQuoteAmount)].reduce((a, b) => (a > b ? a : b)).toString();
  const who = facts.demoSwapper ? "the devnet's funded demo swapper" : "any wallet";

  // One quote entry as the first solver would answer it: 0.3 % under par, converted to tokenOut's decimals.
  const solver = deployment.solvers[0];
  const amountOut =
    (BigInt(amount) * 10n ** BigInt(tokenOut.decimals) * 9970n) / 10n ** BigInt(tokenIn.decimals) / 10000n;
  const deadline = Math.floor(Date.parse(EXAMPLE_TIMESTAMP) / 1000) + 60;
  const nonce = "48107613589417593126342758216427469713120694287316843061539785912283046523457";
  const quote = {
    quoteId: "0b9f6f3e-2a4c-4d1e-8b7a-5c3d2e1f0a9b",
    aggregatedOutputs: [{ token: tokenOut.address, amount: amountOut.toString() }],
    orderInfo: {
      tokenIn: tokenIn.address,
      amountIn: amount,
      outputs: [{ token: tokenOut.address, recipient: swapper, amount: amountOut.toString() }],
      deadline,
      nonce,
    },
  };
  const quoted = solver && {
    requestId: EXAMPLE_REQUEST_ID,
    routing: "Priority",
    quotes: [
      {
        solver: { id: solver.id, name: solver.name, filler: solver.filler, metadata: {} },
        quote,
        signatureData: signatureDataFor(reactorDomain(deployment.chainId, deployment.reactor), {
          tokenIn: tokenIn.address,
          amountIn: BigInt(amount),
          outputs: [{ token: tokenOut.address, amount: amountOut, recipient: swapper }],
          deadline: BigInt(deadline),
          nonce: BigInt(nonce),
          protocol: deployment.protocolSigner,
        }),
      },
    ],
  };

  at("POST", "/quote", {
    ...(quoted ? { responses: { 200: { summary: `${solver?.name}'s quote`, value: quoted } } } : {}),
    body: {
      summary: `${amount} base units of ${tokenIn.symbol} for ${tokenOut.symbol}, from ${who}`,
      value: {
        tokenInChainId: deployment.chainId,
        tokenOutChainId: deployment.chainId,
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        type: "EXACT_INPUT",
        amount,
        swapper,
        outputs: [{ token: tokenOut.address }],
      },
    },
  });

  at("POST", "/check_approval", {
    body: {
      summary: `May the Reactor pull ${amount} base units of ${tokenIn.symbol} from ${who}?`,
      value: { walletAddress: swapper, chainId: deployment.chainId, token: tokenIn.address, amount },
    },
    responses: {
      200: {
        summary: "No allowance yet: one approval to send",
        value: {
          requestId: EXAMPLE_REQUEST_ID,
          cancel: null,
          approval: {
            to: tokenIn.address,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: "approve",
              args: [deployment.reactor, maxUint256],
            }),
            value: "0",
          },
        },
      },
    },
  });

  const orderId = "3d6e1c2b-7f4a-4b8e-9c1d-2e3f4a5b6c7d";
  at("POST", "/order", {
    body: {
      summary: "A quote entry's `quote` and the swapper's signature of its `signatureData` (sign your own)",
      value: { quote, signature: `0x${"ab".repeat(65)}` },
    },
    responses: {
      200: {
        summary: "Placed: open until a solver fills it",
        value: {
          requestId: EXAMPLE_REQUEST_ID,
          orderId,
          orderStatus: "open",
        },
      },
    },
  });

  at("GET", "/auctions/:requestId", {
    params: { requestId: EXAMPLE_REQUEST_ID },
    ...(solver ? { responses: { 200: { summary: "A /quote round, public", value: auctionExample() } } } : {}),
  });

  at("POST", "/cancel", {
    body: { summary: "The order to cancel (its `orderId` from POST /order)", value: { orderId } },
    responses: {
      200: {
        summary: "Reactor.invalidateNonce(the order's nonce), for the swapper to send",
        value: {
          requestId: EXAMPLE_REQUEST_ID,
          orderId,
          swapper,
          transaction: {
            to: deployment.reactor,
            data: encodeFunctionData({
              abi: reactorAbi,
              functionName: "invalidateNonce",
              args: [BigInt(nonce)],
            }),
            value: "0",
          },
        },
      },
    },
  });

  /** The /quote example's round once public: the first solver quoted it, a second one (if any) timed out. */
  function auctionExample() {
    const adapter = deployment!.adapters[0]?.address;
    const legs = adapter
      ? [{ adapter, maxAssets: (amountOut * 1000n).toString(), maxRate: "997000000000000000" }]
      : [];
    const other = deployment!.solvers[1];
    return {
      requestId: EXAMPLE_REQUEST_ID,
      round: "quote",
      quoteRequestId: EXAMPLE_REQUEST_ID,
      tokenIn: tokenIn!.address,
      tokenOut: tokenOut!.address,
      amountIn: amount,
      createdAt: EXAMPLE_TIMESTAMP,
      availableAt: new Date((deadline + 10) * 1000).toISOString(),
      quotedAmountOut: null,
      winner: null,
      orderId: null,
      solvers: [
        {
          solverId: solver!.id,
          outcome: "quoted",
          reason: null,
          amountOut: amountOut.toString(),
          latencyMs: 41.27,
          rank: 1,
          legs,
          orderId: "3d6e1c2b-7f4a-4b8e-9c1d-2e3f4a5b6c7d",
        },
        ...(other
          ? [
              {
                solverId: other.id,
                outcome: "rejected",
                reason: "timeout",
                amountOut: null,
                latencyMs: 1000.4,
                rank: null,
                legs,
                orderId: null,
              },
            ]
          : []),
      ],
    };
  }

  // The order that quote became, filled: what GET /orders and the order stream show.
  const txHash = `0x${"7c".repeat(32)}`;
  // The hard round committed 5 bps more than quoted; the fill paid exactly the committed outputs.
  const committed = amountOut + (amountOut * 5n) / 10000n;
  const committedOutputs = [{ token: tokenOut.address, recipient: swapper, amount: committed.toString() }];
  const filledOrder = {
    type: "Priority",
    orderId: "3d6e1c2b-7f4a-4b8e-9c1d-2e3f4a5b6c7d",
    orderHash: `0x${"5e".repeat(32)}`,
    orderStatus: "filled",
    quoteId: quote.quoteId,
    swapper,
    txHash,
    nonce,
    input: { token: tokenIn.address, amount },
    outputs: committedOutputs,
    settledAmounts: committedOutputs.map((output) => ({ ...output, txHash })),
    fillBlockNumber: 21_856_812,
    finalized: false,
    createdAt: EXAMPLE_TIMESTAMP,
    updatedAt: "2026-01-01T12:00:14.000Z",
    quoteRequestId: EXAMPLE_REQUEST_ID,
    orderRequestId: "9a4e7b21-5c3d-4f8e-b1a2-7d6c5e4f3a2b",
    quotedAmountOut: amountOut.toString(),
    committedAmountOut: committed.toString(),
    settledAmountOut: committed.toString(),
    priceImprovement: priceImprovement(amountOut, committed),
  };
  at("GET", "/orders", {
    query: { swapper, orderStatus: "filled", limit: "10" },
    responses: {
      200: {
        summary: "One filled order, and no further page",
        value: { requestId: EXAMPLE_REQUEST_ID, orders: [filledOrder], cursor: null },
      },
    },
  });
  const openOrder = {
    ...filledOrder,
    orderStatus: "open",
    txHash: null,
    settledAmounts: [],
    fillBlockNumber: null,
    settledAmountOut: null,
    updatedAt: EXAMPLE_TIMESTAMP,
  };
  at("GET", "/orders/stream", {
    query: { orderId: filledOrder.orderId },
    responses: {
      200: {
        summary: "An order's snapshot, its fill, and (once the fill is final) the end of the stream",
        value: [
          "retry: 2731",
          "",
          "event: snapshot",
          "id: 1041",
          `data: ${JSON.stringify(openOrder)}`,
          "",
          "event: order",
          "id: 1042",
          `data: ${JSON.stringify(filledOrder)}`,
          "",
          "event: order",
          "id: 1107",
          `data: ${JSON.stringify({ ...filledOrder, finalized: true })}`,
          "",
          "event: end",
          "id: 1107",
          "data: {}",
          "",
          "",
        ].join("\n"),
      },
    },
  });

  const snapshotOf = (token: (typeof deployment.inputTokens)[number]) => {
    const out = deployment.outputTokens.find((t) => t.address === token.liquidityOutputToken) ?? tokenOut;
    const whole = 10n ** BigInt(out.decimals);
    const solvers = deployment.solvers.slice(0, 2).map((s, index) => ({
      solverId: s.id,
      liquidity: ((250_000n - BigInt(index) * 100_000n) * whole).toString(),
    }));
    return {
      tokenIn: token.address,
      tokenOut: out.address,
      tokenInInfo: tokenInfo(token),
      tokenOutInfo: tokenInfo(out),
      totalLiquidity: solvers.reduce((sum, s) => sum + BigInt(s.liquidity), 0n).toString(),
      solvers,
    };
  };
  const liquidTokens = deployment.inputTokens.filter((token) => token.liquidityOutputToken);
  at("POST", "/liquidity", {
    body: { summary: `The solvers' inventory for ${tokenIn.symbol}`, value: { tokenIn: tokenIn.address } },
    responses: {
      200: { summary: `What the solvers can pay out for ${tokenIn.symbol}`, value: snapshotOf(tokenIn) },
    },
  });
  at("POST", "/liquidity-batch", {
    body: {
      summary: "Every input token's inventory",
      value: { tokensIn: (liquidTokens.length ? liquidTokens : [tokenIn]).map((token) => token.address) },
    },
    responses: {
      200: {
        summary: "One snapshot per token, in request order",
        value: { tokensIn: (liquidTokens.length ? liquidTokens : [tokenIn]).map(snapshotOf) },
      },
    },
  });

  // A discount of 0.25 % on the first adapter, signed by its market maker (sign your own).
  const adapter = deployment.adapters[0]?.address ?? EXAMPLE_ADAPTER;
  at("POST", "/discount", {
    body: {
      summary: `Publish a 0.25 % discount on ${tokenIn.symbol} (sign your own; deadline 0 cancels)`,
      value: {
        discount: {
          adapter,
          tokenToRedeem: tokenIn.address,
          discount: "2500",
          signer: EXAMPLE_MARKET_MAKER,
          protocol: deployment.protocolSigner,
          nonce: "0",
          deadline: Math.floor(Date.parse(EXAMPLE_TIMESTAMP) / 1000) + 3600,
        },
        signature: `0x${"cd".repeat(65)}`,
      },
    },
    responses: {
      200: { summary: "Published: served from now on", value: { discountId: `0x${"d1".repeat(32)}` } },
    },
  });

  const scorecard = (solverId: string, name: string, enabled: boolean) => ({
    id: solverId,
    name,
    metadata: {},
    enabled,
    cooldownUntil: null,
    cooldownReason: null,
    scorecard: {
      hour: exampleWindow("2026-01-01T11:01:00.000Z", 1),
      day: exampleWindow("2026-01-01T12:00:00.000Z", 24),
      week: exampleWindow("2025-12-26T13:00:00.000Z", 168),
    },
  });
  const solverCards = deployment.solvers.map((s) => scorecard(s.id, s.name, s.enabled));
  at("GET", "/solvers", {
    responses: {
      200: { summary: "The deployment's solvers and their scorecards", value: { solvers: solverCards } },
    },
  });
  at("GET", "/deployment", {
    responses: {
      200: {
        summary: "This deployment's public facts",
        value: publicDeployment(deployment, deployment.solvers),
      },
    },
  });
  if (solverCards[0]) {
    at("GET", "/solvers/:id", {
      responses: { 200: { summary: `${solverCards[0].name}'s scorecard`, value: solverCards[0] } },
    });
  }

  if (deployment.local) {
    const funded = { summary: `Fund ${who}`, value: { walletAddress: swapper } };
    // The devnet's faucet bundle itself: its ERC-20s (the ETH it also sends is not an asset of the answer).
    const bundle = faucetAssetsFor(deployment);
    const assets = bundle
      .filter((asset) => asset.kind === "erc20")
      .map((asset) => ({ ...asset, amount: asset.amount.toString() }));
    const eth = bundle.find((asset) => asset.token === NATIVE_TOKEN);
    at("GET", "/dev/faucet", {
      responses: {
        200: { summary: "What POST /dev/faucet sends", value: { requestId: EXAMPLE_REQUEST_ID, assets } },
      },
    });
    at("POST", "/dev/faucet", {
      body: funded,
      responses: {
        200: {
          summary: "Funded with each asset (and some ETH for gas)",
          value: { requestId: EXAMPLE_REQUEST_ID, walletAddress: swapper, fundedAssets: assets },
        },
      },
    });
    at("POST", "/dev/fund", {
      body: funded,
      responses: {
        200: {
          summary: `Funded with ETH for gas and ${tokenIn.symbol} to swap`,
          value: {
            requestId: EXAMPLE_REQUEST_ID,
            walletAddress: swapper,
            fundedEth: (eth?.amount ?? 0n).toString(),
            fundedToken: assets[0]?.amount ?? "0",
            token: tokenIn.address,
          },
        },
      },
    });
  }
  return examples;
}

/** An illustrative scorecard window: `scale` hours' worth of a steady solver's activity. */
function exampleWindow(from: string, scale: number) {
  return {
    from,
    auctions: {
      offered: 1200 * scale,
      quoted: 1130 * scale,
      declined: 52 * scale,
      rejected: {
        timeout: 12 * scale,
        http_status: 3 * scale,
        invalid_body: 0,
        echo_mismatch: 0,
        wrong_filler: 0,
        zero_amount: 1 * scale,
        network: 2 * scale,
      },
    },
    answerLatencyMs: { p50: 41.499, p99: 295.989 },
    wins: { soft: 610 * scale, hard: 95 * scale },
    orders: { assigned: 95 * scale, filled: 93 * scale, expired: 2 * scale },
    fillLatencyMs: { p50: 3319.245, p99: 12286.508 },
    priceImprovement: { averageBps: 1.25, filledOrders: 93 * scale },
  };
}
