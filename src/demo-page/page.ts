/// <reference lib="dom" />
// The swap demo page (/demo on the devnet): a wallet's swap through @sluice/client, step by step as a wallet app
// does it (the spec's client sequence, 4.12) — fund a throwaway wallet, quote (refreshed while you review, expiry
// counting down), approve, check the balance and allowance, sign and submit, watch the order until it settles — and
// again, as often as you like, without a reload. Every error shows the server's message and details.
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
  erc20Abi,
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
/** How often the quotes are asked again while the user reviews them (they are valid for longer). */
const REFRESH_MS = 15_000;

type Token = { address: Address; symbol: string; decimals: number };
interface Quoted {
  entries: QuoteEntry[];
  /** What was asked: a quote is only good for these. */
  amount: bigint;
  tokenOut: Token;
  at: number;
}
const state: {
  tokenIn?: Token;
  tokens: Token[];
  quoted?: Quoted;
  /** The order being watched; no new one is submitted until it has ended. */
  orderInFlight?: string;
} = { tokens: [] };
/** A step is running (a quote refresh then would change what is being approved or signed). */
let busy = false;

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
  text("token-in", state.tokenIn!.symbol);
  const select = element<HTMLSelectElement>("token-out");
  select.replaceChildren(
    ...state.tokens
      .filter((token) => token !== state.tokenIn)
      .map((token) => new Option(token.symbol, token.address)),
  );
  await showBalances();
  enable("quote");
  enable("fund"); // Funding again is allowed: the devnet's faucet sends another bundle.
});

// 2. Every solver's quote, best first. Changing the amount or the output token asks again at once, and the quotes
// are asked again every REFRESH_MS while they are shown (spec 4.12 step 1), with the best one's expiry counting down.
step("quote", () => requote());
for (const id of ["amount", "token-out"]) {
  element(id).addEventListener(
    "input",
    debounce(() => void requote().catch(showError), 400),
  );
}
setInterval(() => {
  showExpiry();
  const quoted = state.quoted;
  if (quoted && !busy && Date.now() - quoted.at >= REFRESH_MS) void requote().catch(showError);
}, 1000);

async function requote(): Promise<void> {
  if (!state.tokenIn) return;
  const tokenIn = state.tokenIn;
  const tokenOut = selectedTokenOut();
  let amount: bigint;
  try {
    amount = parseUnits(element<HTMLInputElement>("amount").value || "0", tokenIn.decimals);
  } catch {
    throw new Error(`"${element<HTMLInputElement>("amount").value}" is not an amount of ${tokenIn.symbol}`);
  }
  text("error", "");
  try {
    const { quotes } = await sluice.quote({
      tokenInChainId: chainId,
      tokenOutChainId: chainId,
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      amount,
      swapper: account.address,
      outputs: [{ token: tokenOut.address }],
    });
    state.quoted = { entries: quotes, amount, tokenOut, at: Date.now() };
  } catch (error) {
    // What was shown was for other terms (or has expired): it must not be signed.
    clearQuotes();
    throw error;
  }
  const rows = state.quoted.entries.map((entry, index) => {
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
  // What the quotes on screen are for (a test, or a curious reader, can tell a fresh quote from the last one).
  element("quotes").dataset.amount = formatUnits(amount, tokenIn.decimals);
  element("quotes").hidden = false;
  showExpiry();
  enable("quote");
  enable("approve");
  if (!state.orderInFlight) enable("submit");
}

// 3. Let the Reactor pull the input: `cancel` (approve 0) first when Sluice returns one, then `approval`.
step("approve", async () => {
  text("approval", "");
  const { amount } = currentQuote();
  const approval = await sluice.checkApproval({
    walletAddress: account.address,
    chainId,
    token: state.tokenIn!.address,
    amount,
  });
  const sent: string[] = [];
  for (const tx of [approval.cancel, approval.approval]) {
    if (!tx) continue;
    const hash = await sendTransactionRequest(wallet, tx);
    await publicClient.waitForTransactionReceipt({ hash });
    sent.push(hash);
  }
  text("approval", sent.length > 0 ? `approved in ${sent.join(", ")}` : "already approved");
  enable("approve");
  if (!state.orderInFlight) enable("submit");
});

// 4. Check what the Reactor will pull, sign the best entry's typed data and submit it; then follow the order until it
// leaves `open`. The form stays usable meanwhile: the next swap can be quoted while this one settles.
step("submit", async () => {
  const quoted = currentQuote();
  await checkFunds(quoted.amount);
  const submitted = await sluice.submitOrder(quoted.entries[0]!, account);
  state.orderInFlight = submitted.orderId;
  text("order-note", "");
  element("events").replaceChildren();
  element("settled").replaceChildren();
  for (const id of ["tx-hash", "improvement", "cancel-tx", "events-note"]) text(id, "");
  text("order-id", submitted.orderId);
  text("status", submitted.orderStatus);
  // While it is open it can be cancelled (step 5); the solvers usually fill it within seconds.
  if (submitted.orderStatus === "open") enable("cancel");
  // The signed quote is used: the next swap gets a quote of its own.
  clearQuotes();
  void requote().catch(showError);
  void watch(submitted.orderId).catch(showError);
});

/** Follows the order on the order stream (polling if it cannot be used) until it leaves `open`, listing each event. */
async function watch(orderId: string): Promise<void> {
  try {
    const order = await sluice.waitForOrder(orderId, {
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
    text(
      "order-note",
      order.orderStatus === "filled"
        ? "Filled. Change the amount or the token for another swap."
        : `The order ended ${order.orderStatus}: get a new quote to try again.`,
    );
  } finally {
    state.orderInFlight = undefined;
    await showBalances();
    if (state.quoted) enable("submit");
  }
}

// 5. Cancel the open order: POST /cancel answers Reactor.invalidateNonce(nonce), which this wallet (the swapper) sends;
// the indexer then marks the order `cancelled`. Step 4's watch ends at the first status other than `open`, so the
// order is followed here until the invalidation (or a fill that landed first) shows.
step("cancel", async () => {
  const orderId = element("order-id").textContent!;
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

/**
 * Before signing: the wallet must hold the input and the Reactor be allowed to pull it, or the order could only end
 * `insufficient-funds`. Read from the chain, as the Reactor will.
 */
async function checkFunds(amount: bigint): Promise<void> {
  const tokenIn = state.tokenIn!;
  const balance = await publicClient.readContract({
    address: tokenIn.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [account.address],
  });
  if (balance < amount) {
    throw new Error(
      `Not enough ${tokenIn.symbol}: this wallet holds ${formatUnits(balance, tokenIn.decimals)}, the swap needs ` +
        `${formatUnits(amount, tokenIn.decimals)}. Fund it again (step 1) or lower the amount. Nothing was signed.`,
    );
  }
  const approval = await sluice.checkApproval({
    walletAddress: account.address,
    chainId,
    token: tokenIn.address,
    amount,
  });
  if (approval.approval || approval.cancel) {
    throw new Error(
      `The Reactor may not pull ${formatUnits(amount, tokenIn.decimals)} ${tokenIn.symbol} from this wallet yet: ` +
        "approve it first (step 3). Nothing was signed.",
    );
  }
}

/** The quote on screen, if it is still good for the terms on screen. */
function currentQuote(): Quoted {
  const quoted = state.quoted;
  if (!quoted) throw new Error("No quote to use: get quotes first (step 2).");
  const deadline = quoted.entries[0]!.quote.orderInfo.deadline;
  if (deadline * 1000 <= Date.now()) throw new Error("The quotes have expired: get quotes again (step 2).");
  return quoted;
}

function clearQuotes(): void {
  state.quoted = undefined;
  element("quotes").querySelector("tbody")!.replaceChildren();
  element("quotes").hidden = true;
  text("quote-expiry", "");
  element<HTMLButtonElement>("submit").disabled = true;
}

function showExpiry(): void {
  const quoted = state.quoted;
  if (!quoted) return;
  const seconds = Math.floor(quoted.entries[0]!.quote.orderInfo.deadline - Date.now() / 1000);
  text(
    "quote-expiry",
    seconds > 0
      ? `The best quote is good for ${seconds} s more; the quotes are asked again every ${REFRESH_MS / 1000} s.`
      : "The quotes have expired.",
  );
}

async function showBalances(): Promise<void> {
  const [eth, ...tokens] = await Promise.all([
    publicClient.getBalance({ address: account.address }),
    ...state.tokens.map((token) =>
      publicClient.readContract({
        address: token.address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [account.address],
      }),
    ),
  ]);
  text(
    "balances",
    [
      `${formatUnits(eth!, 18)} ETH`,
      ...state.tokens.map((token, index) => `${formatUnits(tokens[index]!, token.decimals)} ${token.symbol}`),
    ].join(", "),
  );
}

/** Runs `action` when button `id` is clicked; the button stays disabled while it runs (and after, unless it re-enables
 * itself). A failure shows the server's message and details, and the button can be tried again. */
function step(id: string, action: () => Promise<void>): void {
  element<HTMLButtonElement>(id).addEventListener("click", async () => {
    const button = element<HTMLButtonElement>(id);
    button.disabled = true;
    text("error", "");
    busy = true;
    try {
      await action();
    } catch (error) {
      button.disabled = false;
      showError(error);
    } finally {
      busy = false;
    }
  });
}

function showError(error: unknown): void {
  text("error", describe(error));
}

/** What went wrong: the server's code, message and details, with the request id an operator finds in Sluice's log. */
function describe(error: unknown): string {
  if (!(error instanceof SluiceApiError)) return error instanceof Error ? error.message : String(error);
  const details = error.details ?? {};
  const facts: string[] = [];
  if (typeof details.reason === "string") facts.push(details.reason);
  if (typeof details.minimumAmount === "string" && typeof details.decimals === "number")
    facts.push(
      `the minimum is ${formatUnits(BigInt(details.minimumAmount), details.decimals)} ${details.symbol}`,
    );
  if (Array.isArray(details.issues))
    for (const issue of details.issues as Array<{ path: string; message: string }>)
      facts.push(`${issue.path}: ${issue.message}`);
  const shown = new Set(["reason", "minimumAmount", "decimals", "symbol", "tokenIn", "issues"]);
  const rest = Object.entries(details).filter(([key]) => !shown.has(key));
  if (rest.length > 0) facts.push(JSON.stringify(Object.fromEntries(rest)));
  return (
    `${error.status} ${error.code}: ${error.message}${facts.length > 0 ? ` (${facts.join("; ")})` : ""}` +
    ` [X-Request-Id ${error.requestId}]`
  );
}

function debounce(action: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(action, ms);
  };
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
