// A wallet's swap against a running Sluice devnet, step by step as the spec's client sequence (4.12) describes:
// quote → approval → sign → order → poll until a terminal status. Run `npm start` first, then:
//
//   npx tsx examples/swap.ts                   # endpoints from ./data/devnet/endpoints.json
//   npx tsx examples/swap.ts --api http://127.0.0.1:8080/api/v1 --rpc http://127.0.0.1:PORT
//
// It uses @sluice/client (docs/wallets.md "Client") and a fresh wallet funded by the devnet faucet. Exit code 0 when the order is filled with settled amounts
// equal to its outputs and the balances moved by exactly those amounts; 1 otherwise. `--json` prints a summary line.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createSluiceClient } from "@sluice/client";
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

/** `npm start` writes this run's URLs to <DATA_DIR>/devnet/endpoints.json (the RPC port changes every run). */
function endpoints(): { apiUrl: string; rpcUrl: string } {
  if (args.api && args.rpc) return { apiUrl: args.api, rpcUrl: args.rpc };
  const file = join(args["data-dir"] ?? "./data", "devnet", "endpoints.json");
  const saved = JSON.parse(readFileSync(file, "utf8")) as { apiUrl: string; rpcUrl: string };
  return { apiUrl: args.api ?? saved.apiUrl, rpcUrl: args.rpc ?? saved.rpcUrl };
}

async function main(): Promise<boolean> {
  const { apiUrl, rpcUrl } = endpoints();
  const sluice = createSluiceClient({ apiUrl });
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
  const faucet = await sluice.dev.faucet();
  await sluice.dev.fundFromFaucet(account.address);
  const bySymbol = (symbol: string) => {
    const asset = faucet.assets.find((a) => a.symbol === symbol);
    if (!asset) throw new Error(`the faucet has no ${symbol}`);
    return { ...asset, token: asset.token as Address };
  };
  const tokenIn = bySymbol("tRWA");
  const tokenOut = bySymbol("tUSD");
  say("funded", faucet.assets.map((a) => a.symbol).join(", "));

  // 1. Quotes, best first.
  const amount = parseUnits(args.amount ?? "100", tokenIn.decimals);
  const quoted = await sluice.quote({
    tokenInChainId: rpcChainId,
    tokenOutChainId: rpcChainId,
    tokenIn: tokenIn.token,
    tokenOut: tokenOut.token,
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
  const approval = await sluice.checkApproval({
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
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: 0n });
    await publicClient.waitForTransactionReceipt({ hash });
    say(name, hash);
  }

  const balanceOf = (token: Address, who: Address) =>
    publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [who] });
  const recipients = [...new Set(best.quote.orderInfo.outputs.map((o) => o.recipient as Address))];
  const before = {
    in: await balanceOf(tokenIn.token, account.address),
    out: new Map(
      await Promise.all(recipients.map(async (r) => [r, await balanceOf(tokenOut.token, r)] as const)),
    ),
  };

  // 3–4. Sign the entry's typed data (primary type Request, `value` as the message) and submit the order.
  const submitted = await sluice.submitOrder(best, account);
  say("signed", `${submitted.signature.slice(0, 18)}…`);
  say("order", {
    requestId: submitted.requestId,
    orderId: submitted.orderId,
    orderStatus: submitted.orderStatus,
  });

  // 5. Follow the order on the stream (polling if the stream cannot be used) until it leaves `open`, printing each
  //    live event as it arrives.
  const order = await sluice.waitForOrder(submitted.orderId, {
    intervalMs: 1000,
    timeoutMs: 120_000,
    onEvent: (event) =>
      say(
        `event ${event.type}`,
        event.type === "resync"
          ? `from ${event.lastEventId}: taking the snapshot again`
          : `id ${event.id} ${event.order.orderStatus}${event.order.txHash ? ` ${event.order.txHash}` : ""}`,
      ),
    onFallback: (reason) => say("stream", `unavailable (${reason.message}): polling GET /orders`),
    onPoll: (seen) => say("poll", seen?.orderStatus ?? "not listed yet"),
  });
  say("status", order.orderStatus);
  if (order.orderStatus !== "filled") return false;
  say("txHash", order.txHash);
  say("settledAmounts", order.settledAmounts);

  // The settled amounts are the committed outputs, and the balances moved by exactly those amounts.
  const settledMatch =
    order.settledAmounts.length === order.outputs.length &&
    order.outputs.every((o, i) => {
      const s = order.settledAmounts[i]!;
      return (
        s.token === o.token &&
        s.recipient === o.recipient &&
        s.amount === o.amount &&
        s.txHash === order.txHash
      );
    });
  const received = new Map<Address, bigint>();
  for (const output of order.outputs) {
    const recipient = output.recipient as Address;
    received.set(recipient, (received.get(recipient) ?? 0n) + BigInt(output.amount));
  }
  const spent = before.in - (await balanceOf(tokenIn.token, account.address));
  let balancesMatch = spent === amount;
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
