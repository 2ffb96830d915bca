/// <reference lib="dom" />
// The swap demo page (/demo on the devnet): a wallet's swap through @sluice/client, step by step as a wallet app
// does it — fund a throwaway wallet, quote, approve, sign and submit, watch the order until it settles.
// Served by the devnet only; bundled with viem for the browser by ./assets.ts.

import {
  createSluiceClient,
  type DevFaucetAsset,
  type QuoteEntry,
  SluiceApiError,
  sendTransactionRequest,
} from "@sluice/client";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  formatUnits,
  http,
  parseUnits,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const API_URL = `${location.origin}/api/v1`;
const sluice = createSluiceClient({ apiUrl: API_URL });
// The chain through the devnet's relay on this same origin: it passes reads and signed transactions only.
const rpc = http(`${API_URL}/dev/rpc`);
// A throwaway key, made here and never sent anywhere: the devnet funds its address (POST /dev/fund).
const account = privateKeyToAccount(generatePrivateKey());

type Token = { address: Address; symbol: string; decimals: number };
const state: { tokenIn?: Token; tokens: Token[]; best?: QuoteEntry; amount?: bigint; orderId?: string } = {
  tokens: [],
};

const chainId = await createPublicClient({ transport: rpc }).getChainId();
const chain = defineChain({
  id: chainId,
  name: "Sluice devnet",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [`${API_URL}/dev/rpc`] } },
});
const publicClient = createPublicClient({ chain, transport: rpc, pollingInterval: 250 });
const wallet = createWalletClient({ account, chain, transport: rpc });

// 1. Fund the wallet: ETH for gas and the deployment's input token.
step("fund", async () => {
  const funded = await sluice.dev.fund(account.address);
  const { assets } = await sluice.dev.faucet();
  state.tokens = assets.map(tokenOf);
  state.tokenIn = state.tokens.find((token) => token.address === funded.token);
  const tokenIn = state.tokenIn!;
  text(
    "balances",
    `${formatUnits(BigInt(funded.fundedEth), 18)} ETH and ${amountText(funded.fundedToken, tokenIn)}`,
  );
  text("token-in", tokenIn.symbol);
  const select = element<HTMLSelectElement>("token-out");
  select.replaceChildren(
    ...state.tokens
      .filter((token) => token !== tokenIn)
      .map((token) => new Option(token.symbol, token.address)),
  );
  enable("quote");
});

// 2. Every solver's quote, best first.
step("quote", async () => {
  const tokenIn = state.tokenIn!;
  const tokenOut = selectedTokenOut();
  state.amount = parseUnits(element<HTMLInputElement>("amount").value || "0", tokenIn.decimals);
  const { quotes } = await sluice.quote({
    tokenInChainId: chainId,
    tokenOutChainId: chainId,
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    amount: state.amount,
    swapper: account.address,
    outputs: [{ token: tokenOut.address }],
  });
  state.best = quotes[0];
  const rows = quotes.map((entry, index) => {
    const row = document.createElement("tr");
    row.className = "quote";
    const logo = Object.assign(document.createElement("img"), { className: "logo", alt: "" });
    if (entry.solver.metadata.logoUrl) logo.src = entry.solver.metadata.logoUrl;
    const output = entry.quote.aggregatedOutputs[0]!;
    row.append(
      cell(logo),
      cell(entry.solver.name),
      cell(amountText(output.amount, tokenOut)),
      cell(index === 0 ? "best" : ""),
    );
    return row;
  });
  element("quotes")
    .querySelector("tbody")!
    .replaceChildren(...rows);
  element("quotes").hidden = false;
  enable("approve");
});

// 3. Let the Reactor pull the input: `cancel` (approve 0) first when Sluice returns one, then `approval`.
step("approve", async () => {
  const approval = await sluice.checkApproval({
    walletAddress: account.address,
    chainId,
    token: state.tokenIn!.address,
    amount: state.amount!,
  });
  const sent: string[] = [];
  for (const tx of [approval.cancel, approval.approval]) {
    if (!tx) continue;
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as `0x${string}` });
    await publicClient.waitForTransactionReceipt({ hash });
    sent.push(hash);
  }
  text("approval", sent.length > 0 ? `approved in ${sent.join(", ")}` : "already approved");
  enable("submit");
});

// 4. Sign the best entry's typed data, submit it, and follow the order until it leaves `open`.
step("submit", async () => {
  const submitted = await sluice.submitOrder(state.best!, account);
  state.orderId = submitted.orderId;
  text("order-id", submitted.orderId);
  text("status", submitted.orderStatus);
  // While it is open it can be cancelled (step 5); the solvers usually fill it within seconds.
  if (submitted.orderStatus === "open") enable("cancel");
  // On the order stream (polling if it cannot be used); each live event is listed as it arrives.
  const order = await sluice.waitForOrder(submitted.orderId, {
    intervalMs: 500,
    onEvent: (event) => {
      const item = document.createElement("li");
      item.className = `event ${event.type}`;
      item.textContent =
        event.type === "resync"
          ? `resync from ${event.lastEventId}: the snapshot again`
          : `${event.type} #${event.id} ${event.order.orderStatus}`;
      element("events").append(item);
    },
    onUpdate: (seen) => text("status", seen.orderStatus),
    onFallback: () => text("events-note", "the stream is unavailable: polling GET /orders"),
  });
  // An order waiting for funds can still be filled, so it can still be cancelled.
  element<HTMLButtonElement>("cancel").disabled = order.orderStatus !== "insufficient-funds";
  text("status", order.orderStatus);
  text("tx-hash", order.txHash ?? "");
  text(
    "improvement",
    `quoted ${order.quotedAmountOut}, committed ${order.committedAmountOut} (+${order.priceImprovement.amount}, ` +
      `${order.priceImprovement.bps} bps), settled ${order.settledAmountOut ?? "nothing"} (base units)`,
  );
  element("settled").replaceChildren(
    ...order.settledAmounts.map((settled) => {
      const token = state.tokens.find((t) => t.address === settled.token);
      const item = document.createElement("li");
      item.textContent = `${token ? amountText(settled.amount, token) : settled.amount} to ${settled.recipient}`;
      return item;
    }),
  );
});

// 5. Cancel the open order: POST /cancel answers Reactor.invalidateNonce(nonce), which this wallet (the swapper) sends;
// the indexer then marks the order `cancelled`. Step 4's watch ends at the first status other than `open`, so the
// order is followed here until the invalidation (or a fill that landed first) shows.
step("cancel", async () => {
  const orderId = state.orderId!;
  const { transaction } = await sluice.cancelOrder(orderId);
  const hash = await sendTransactionRequest(wallet, transaction);
  // Shown once sent: the indexer may report the order cancelled (step 4's watch) before the receipt poll returns.
  text("cancel-tx", `nonce invalidation sent in ${hash}`);
  await publicClient.waitForTransactionReceipt({ hash });
  text("cancel-tx", `nonce invalidated in ${hash}`);
  for await (const event of sluice.streamOrders({ orderId })) {
    if (event.type === "resync") continue;
    text("status", event.order.orderStatus);
    if (!["open", "insufficient-funds"].includes(event.order.orderStatus)) break;
  }
});

text("wallet", account.address);
enable("fund");

/** Runs `action` when button `id` is clicked; the button stays disabled while it runs and after it succeeded. */
function step(id: string, action: () => Promise<void>): void {
  element<HTMLButtonElement>(id).addEventListener("click", async () => {
    const button = element<HTMLButtonElement>(id);
    button.disabled = true;
    text("error", "");
    try {
      await action();
    } catch (error) {
      button.disabled = false;
      text("error", describe(error));
    }
  });
}

/** What went wrong, with the request id an operator finds in Sluice's log. */
function describe(error: unknown): string {
  if (error instanceof SluiceApiError) {
    return `${error.status} ${error.code}: ${error.message} (X-Request-Id ${error.requestId})`;
  }
  return error instanceof Error ? error.message : String(error);
}

function tokenOf(asset: DevFaucetAsset): Token {
  return { address: asset.token as Address, symbol: asset.symbol, decimals: asset.decimals };
}

function selectedTokenOut(): Token {
  const address = element<HTMLSelectElement>("token-out").value;
  return state.tokens.find((token) => token.address === address)!;
}

function amountText(amount: string, token: Token): string {
  return `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`;
}

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function text(id: string, value: string): void {
  element(id).textContent = value;
}

function enable(id: string): void {
  element<HTMLButtonElement>(id).disabled = false;
}

function cell(content: Node | string): HTMLTableCellElement {
  const td = document.createElement("td");
  td.append(content);
  return td;
}
