// A wallet's swap against a running Sluice devnet, step by step as the spec's client sequence (4.12) describes:
// quote → approval → sign → order → poll until a terminal status. Run `npm start` first, then:
//
//   npx tsx examples/swap.ts                   # endpoints from ./data/devnet/endpoints.json
//   npx tsx examples/swap.ts --api http://127.0.0.1:8080/api/v1 --rpc http://127.0.0.1:PORT
//
// It uses a fresh wallet funded by the devnet faucet. Exit code 0 when the order is filled with settled amounts
// equal to its outputs and the balances moved by exactly those amounts; 1 otherwise. `--json` prints a summary line.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const { values: args } = parseArgs({
  options: {
    api: { type: "string" },
    rpc: { type: "string" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "./data" },
    amount: { type: "string", default: "100" },
    json: { type: "boolean", default: false },
  },
});

const say = (step: string, detail: unknown = "") =>
  process.stderr.write(
    `${step.padEnd(16)} ${typeof detail === "string" ? detail : JSON.stringify(detail)}\n`,
  );

function endpoints(): { apiUrl: string; rpcUrl: string } {
  if (args.api && args.rpc) return { apiUrl: args.api, rpcUrl: args.rpc };
  const file = join(args["data-dir"] ?? "./data", "devnet", "endpoints.json");
  const saved = JSON.parse(readFileSync(file, "utf8")) as { apiUrl: string; rpcUrl: string };
  return { apiUrl: args.api ?? saved.apiUrl, rpcUrl: args.rpc ?? saved.rpcUrl };
}

async function call<T>(apiUrl: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) {
    throw new Error(
      `${path} answered ${response.status} (X-Request-Id ${response.headers.get("x-request-id")}): ${JSON.stringify(json)}`,
    );
  }
  return json;
}

interface FaucetAsset {
  token: Address;
  symbol: string;
  decimals: number;
  kind: "erc20";
}
interface QuoteEntry {
  solver: { id: string; name: string };
  quote: {
    quoteId: string;
    aggregatedOutputs: Array<{ token: Address; amount: string }>;
    orderInfo: { outputs: Array<{ token: Address; recipient: Address; amount: string }> };
  };
  signatureData: {
    domain: { name: string; version: string; chainId: number; verifyingContract: Address };
    value: {
      tokenIn: Address;
      amountIn: string;
      outputs: Array<{ token: Address; amount: string; recipient: Address }>;
      deadline: string;
      nonce: string;
      protocol: Address;
    };
  };
}
interface OrderRecord {
  orderId: string;
  orderStatus: string;
  txHash: Hex | null;
  outputs: Array<{ token: Address; recipient: Address; amount: string }>;
  settledAmounts: Array<{ token: Address; recipient: Address; amount: string; txHash: Hex }>;
}

async function main(): Promise<boolean> {
  const { apiUrl, rpcUrl } = endpoints();
  const rpcChainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  const chain = defineChain({
    id: rpcChainId,
    name: "sluice-devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const account = privateKeyToAccount(generatePrivateKey());
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  say("wallet", account.address);

  // 0. A fresh wallet gets ETH and tokens from the devnet faucet.
  const faucet = await call<{ assets: FaucetAsset[] }>(apiUrl, "/dev/faucet");
  await call(apiUrl, "/dev/faucet", { walletAddress: account.address });
  const bySymbol = (symbol: string) => {
    const asset = faucet.assets.find((a) => a.symbol === symbol);
    if (!asset) throw new Error(`the faucet has no ${symbol}`);
    return asset;
  };
  const tokenIn = bySymbol("tRWA");
  const tokenOut = bySymbol("tUSD");
  say("funded", faucet.assets.map((a) => a.symbol).join(", "));

  // 1. Quotes, best first.
  const amount = parseUnits(args.amount ?? "100", tokenIn.decimals).toString();
  const quoted = await call<{ requestId: string; quotes: QuoteEntry[] }>(apiUrl, "/quote", {
    tokenInChainId: rpcChainId,
    tokenOutChainId: rpcChainId,
    tokenIn: tokenIn.token,
    tokenOut: tokenOut.token,
    type: "EXACT_INPUT",
    amount,
    swapper: account.address,
    outputs: [{ token: tokenOut.token }],
  });
  const best = quoted.quotes[0]!;
  say("quote", {
    requestId: quoted.requestId,
    quotes: quoted.quotes.map((q) => `${q.solver.id}: ${q.quote.aggregatedOutputs[0]!.amount}`),
  });

  // 2. Approvals: `cancel` (reset to zero) first when present, each confirmed before the next.
  const approval = await call<{
    cancel: { to: Address; data: Hex } | null;
    approval: { to: Address; data: Hex } | null;
  }>(apiUrl, "/check_approval", {
    walletAddress: account.address,
    chainId: rpcChainId,
    token: tokenIn.token,
    amount,
  });
  for (const [name, tx] of [
    ["cancel", approval.cancel],
    ["approval", approval.approval],
  ] as const) {
    if (!tx) continue;
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: 0n });
    await publicClient.waitForTransactionReceipt({ hash });
    say(name, hash);
  }

  // 3. Sign the entry's typed data (primary type Request, `value` as the message).
  const { domain, value } = best.signatureData;
  const signature = await account.signTypedData({
    domain: { ...domain, chainId: BigInt(domain.chainId) },
    types: {
      Request: [
        { name: "tokenIn", type: "address" },
        { name: "amountIn", type: "uint256" },
        { name: "outputs", type: "Output[]" },
        { name: "deadline", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "protocol", type: "address" },
      ],
      Output: [
        { name: "token", type: "address" },
        { name: "amount", type: "uint256" },
        { name: "recipient", type: "address" },
      ],
    },
    primaryType: "Request",
    message: {
      tokenIn: value.tokenIn,
      amountIn: BigInt(value.amountIn),
      outputs: value.outputs.map((o) => ({
        token: o.token,
        amount: BigInt(o.amount),
        recipient: o.recipient,
      })),
      deadline: BigInt(value.deadline),
      nonce: BigInt(value.nonce),
      protocol: value.protocol,
    },
  });
  say("signed", `${signature.slice(0, 18)}…`);

  const balanceOf = (token: Address, who: Address) =>
    publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [who] });
  const recipients = [...new Set(best.quote.orderInfo.outputs.map((o) => o.recipient))];
  const before = {
    in: await balanceOf(tokenIn.token, account.address),
    out: new Map(
      await Promise.all(recipients.map(async (r) => [r, await balanceOf(tokenOut.token, r)] as const)),
    ),
  };

  // 4. Submit the order; keep its id.
  const submitted = await call<{ requestId: string; orderId: string; orderStatus: string }>(
    apiUrl,
    "/order",
    {
      quote: best.quote,
      signature,
    },
  );
  say("order", submitted);

  // 5. Poll until the order leaves `open`.
  let order: OrderRecord | undefined;
  for (let attempt = 0; attempt < 120; attempt++) {
    const listed = await call<{ orders: OrderRecord[] }>(apiUrl, `/orders?orderId=${submitted.orderId}`);
    order = listed.orders[0];
    if (order && order.orderStatus !== "open") break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  say("status", order?.orderStatus ?? "unknown");
  if (order?.orderStatus !== "filled") return false;
  say("txHash", order.txHash);
  say("settledAmounts", order.settledAmounts);

  // The settled amounts are the committed outputs, and the balances moved by exactly those amounts.
  const settledMatch =
    order.settledAmounts.length === order.outputs.length &&
    order.outputs.every((o, i) => {
      const s = order!.settledAmounts[i]!;
      return (
        s.token === o.token &&
        s.recipient === o.recipient &&
        s.amount === o.amount &&
        s.txHash === order!.txHash
      );
    });
  const received = new Map<Address, bigint>();
  for (const output of order.outputs)
    received.set(output.recipient, (received.get(output.recipient) ?? 0n) + BigInt(output.amount));
  const spent = before.in - (await balanceOf(tokenIn.token, account.address));
  let balancesMatch = spent === BigInt(amount);
  for (const [recipient, amountOut] of received) {
    balancesMatch &&=
      (await balanceOf(tokenOut.token, recipient)) - (before.out.get(recipient) ?? 0n) === amountOut;
  }
  say(
    "balances",
    balancesMatch ? "moved by exactly the settled amounts" : "DO NOT match the settled amounts",
  );
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ orderId: order.orderId, orderStatus: order.orderStatus, txHash: order.txHash, settledAmounts: order.settledAmounts, outputs: order.outputs, settledMatch, balancesMatch })}\n`,
    );
  }
  return settledMatch && balancesMatch;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(`swap failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
