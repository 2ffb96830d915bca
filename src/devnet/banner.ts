// What a person who just ran `npm start` needs to know about the running devnet: where the API and the RPC are, what
// was deployed, the demo discount and the demo accounts with their keys (anvil's public dev keys: local only). On a
// terminal it is a human-readable banner; when the output goes to a file or a pipe, the same facts are one
// structured log line (`devnet ready`), so a log holds them in one place.
import type { DemoDiscount } from "../demo/discount.ts";
import type { BundledSolvers, DevnetChain } from "./devnet.ts";

/** What a devnet run is made of, as the facts need it. */
export interface DevnetRun {
  /** The API's base URL, e.g. `http://127.0.0.1:8080/api/v1`. */
  apiUrl: string;
  /** The internal API's base URL (internal listener), e.g. `http://127.0.0.1:8081/api-internal/v1`. */
  internalApiUrl: string;
  /** Prometheus metrics on the internal listener. */
  metricsUrl: string;
  chain: DevnetChain;
  bundled: BundledSolvers;
  demoDiscount: DemoDiscount | null;
}

export interface DevnetFacts {
  apiUrl: string;
  internalApiUrl: string;
  metricsUrl: string;
  docsUrl: string;
  faucetUrl: string;
  rpcUrl: string;
  chainId: number;
  contracts: {
    reactor: string;
    executors: string[];
    adapterFactory: string;
    adapters: Array<{ address: string; label?: string }>;
  };
  tokens: Array<{ symbol: string; address: string }>;
  solvers: Array<{ id: string; endpoint: string; filler: string; internal: boolean }>;
  /** The demo discount published at this start; null when POST /discount refused it (logged). */
  demoDiscount: {
    discountId: string;
    adapter: string;
    tokenToRedeem: string;
    discountPpm: number;
    signer: string;
    /** Chain time, seconds. */
    deadline: number;
  } | null;
  dataDir: string;
  deploymentFile: string;
  demoAccounts: Array<{ address: string; privateKey: string }>;
}

export function devnetFacts({
  apiUrl,
  internalApiUrl,
  metricsUrl,
  chain,
  bundled,
  demoDiscount,
}: DevnetRun): DevnetFacts {
  const { deployment } = bundled;
  return {
    apiUrl,
    internalApiUrl,
    metricsUrl,
    docsUrl: `${apiUrl}/docs`,
    faucetUrl: `${apiUrl}/dev/faucet`,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    contracts: {
      reactor: deployment.reactor,
      executors: deployment.executors,
      adapterFactory: deployment.adapterFactory,
      adapters: deployment.adapters.map((adapter) => ({ ...adapter })),
    },
    tokens: [...deployment.inputTokens, ...deployment.outputTokens].map((token) => ({
      symbol: token.symbol,
      address: token.address,
    })),
    solvers: deployment.solvers.map((solver) => ({
      id: solver.id,
      endpoint: solver.endpoint,
      filler: solver.filler,
      internal: solver.internal,
    })),
    demoDiscount: demoDiscount && {
      discountId: demoDiscount.discountId,
      adapter: demoDiscount.adapter,
      tokenToRedeem: demoDiscount.discount.tokenToRedeem,
      discountPpm: Number(demoDiscount.discount.discount),
      signer: demoDiscount.discount.signer,
      deadline: demoDiscount.discount.deadline,
    },
    dataDir: chain.files.dir,
    deploymentFile: chain.files.deployment,
    demoAccounts: chain.accounts.demo.map((demo) => ({
      address: demo.account.address,
      privateKey: demo.privateKey,
    })),
  };
}

export function devnetBanner(facts: DevnetFacts): string {
  const internal = facts.solvers.filter((solver) => solver.internal).map((solver) => solver.id);
  const discount = facts.demoDiscount;
  const lines = [
    "",
    "Sluice devnet",
    `  API       ${facts.apiUrl}   (docs: ${facts.docsUrl})`,
    `  Internal  ${facts.internalApiUrl}   (metrics: ${facts.metricsUrl})`,
    `  RPC       ${facts.rpcUrl}   (chain ${facts.chainId}, a block every second)`,
    `  Reactor   ${facts.contracts.reactor}`,
    ...facts.tokens.map((token) => `  ${token.symbol.padEnd(9)} ${token.address}`),
    ...facts.solvers.map(
      (solver) =>
        `  solver    ${solver.id} ${solver.endpoint} (filler ${solver.filler}, ${solver.internal ? "internal" : "external"})`,
    ),
    ...(discount
      ? [
          `  Discount  ${discount.discountPpm} ppm on tRWA → tUSD at ${discount.adapter} (id ${discount.discountId})`,
          `            signed by the demo curator ${discount.signer}, until ` +
            `${new Date(discount.deadline * 1000).toISOString()} (chain time); ` +
            `a discount leg for ${internal.join(", ") || "no solver"}`,
        ]
      : ["  Discount  none: the demo discount was not published (see the log)"]),
    `  Faucet    POST ${facts.faucetUrl} {"walletAddress":"0x…"}`,
    `  Data      ${facts.dataDir} (deployment.json: the deployment served)`,
    "  Demo accounts (anvil's well-known dev keys, funded with ETH and tRWA; never use them on a real network):",
    ...facts.demoAccounts.map((demo) => `    ${demo.address}  ${demo.privateKey}`),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
