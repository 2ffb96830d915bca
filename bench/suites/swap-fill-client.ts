// A wallet's swap against a running devnet, the spec's client sequence as examples/swap.ts runs it (faucet →
// quote → approval → sign → order), stopping once the order is submitted: the fill-latency suite then watches
// for the fill itself, far more closely than the example's once-a-second poll.
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseUnits,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { requestTypes } from "../../src/chain/eip712.ts";

export interface DevnetEndpoints {
  apiUrl: string;
  rpcUrl: string;
  chainId: number;
}

export interface SubmittedSwap {
  wallet: Address;
  orderId: string;
  solverId: string;
  /** Epoch milliseconds when POST /order answered. */
  submittedAt: number;
}

interface QuoteEntry {
  solver: { id: string };
  quote: unknown;
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

export async function callApi<T>(apiUrl: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

export function devnetChain(endpoints: DevnetEndpoints): Chain {
  return defineChain({
    id: endpoints.chainId,
    name: "sluice-devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [endpoints.rpcUrl] } },
  });
}

/**
 * A fresh wallet (or `account`, when the caller must know the swapper beforehand), funded by the faucet, swaps
 * `amount` tRWA for tUSD up to the order's submission.
 */
export async function submitSwap(
  endpoints: DevnetEndpoints,
  amount: string,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
): Promise<SubmittedSwap> {
  return submitOrder(endpoints, await fundWallet(endpoints, account), amount);
}

/** A wallet the faucet funded (10,000 of each test token) and the Reactor may spend tRWA from. */
export interface FundedWallet {
  account: PrivateKeyAccount;
  tokenIn: { token: Address; decimals: number };
  tokenOut: { token: Address; decimals: number };
}

/** Funds `account` from the faucet and approves the Reactor for its tRWA (max allowance: one approval for many swaps). */
export async function fundWallet(
  endpoints: DevnetEndpoints,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
): Promise<FundedWallet> {
  const { apiUrl } = endpoints;
  const chain = devnetChain(endpoints);
  const publicClient = createPublicClient({ chain, transport: http(endpoints.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(endpoints.rpcUrl) });

  const faucet = await callApi<{ assets: Array<{ token: Address; symbol: string; decimals: number }> }>(
    apiUrl,
    "/dev/faucet",
  );
  await callApi(apiUrl, "/dev/faucet", { walletAddress: account.address });
  const asset = (symbol: string) => {
    const found = faucet.assets.find((a) => a.symbol === symbol);
    if (!found) throw new Error(`the faucet has no ${symbol}`);
    return found;
  };
  const tokenIn = asset("tRWA");
  const tokenOut = asset("tUSD");
  const approval = await callApi<{
    cancel: { to: Address; data: Hex } | null;
    approval: { to: Address; data: Hex } | null;
  }>(apiUrl, "/check_approval", {
    walletAddress: account.address,
    chainId: endpoints.chainId,
    token: tokenIn.token,
    amount: parseUnits("1", tokenIn.decimals).toString(),
  });
  for (const tx of [approval.cancel, approval.approval]) {
    if (!tx) continue;
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: 0n });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  }
  return { account, tokenIn, tokenOut };
}

/** A funded wallet's swap of `amount` tRWA for tUSD: quote, EIP-712 signature, order. */
export async function submitOrder(
  endpoints: DevnetEndpoints,
  funded: FundedWallet,
  amount: string,
): Promise<SubmittedSwap> {
  const { apiUrl } = endpoints;
  const { account, tokenIn, tokenOut } = funded;
  const amountIn = parseUnits(amount, tokenIn.decimals).toString();

  const quoted = await callApi<{ quotes: QuoteEntry[] }>(apiUrl, "/quote", {
    tokenInChainId: endpoints.chainId,
    tokenOutChainId: endpoints.chainId,
    tokenIn: tokenIn.token,
    tokenOut: tokenOut.token,
    type: "EXACT_INPUT",
    amount: amountIn,
    swapper: account.address,
    outputs: [{ token: tokenOut.token }],
  });
  const best = quoted.quotes[0];
  if (!best) throw new Error("no quote");

  const { domain, value } = best.signatureData;
  const signature = await account.signTypedData({
    domain: { ...domain, chainId: BigInt(domain.chainId) },
    types: requestTypes,
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
  const submitted = await callApi<{ orderId: string }>(apiUrl, "/order", { quote: best.quote, signature });
  return {
    wallet: account.address,
    orderId: submitted.orderId,
    solverId: best.solver.id,
    submittedAt: Date.now(),
  };
}
