// A human-readable summary of a running devnet for the terminal: where the API and the RPC are, what was
// deployed, and the demo accounts with their keys (anvil's public dev keys: local only). The same facts are in
// the JSON log lines; this is for a person who just ran `npm start`.
import type { DevnetService } from "./service.ts";

export function devnetBanner({ service, chain, bundled, demoDiscount }: DevnetService): string {
  const { deployment } = bundled;
  const internal = deployment.solvers.filter((solver) => solver.internal).map((solver) => solver.id);
  const tokens = [...deployment.inputTokens, ...deployment.outputTokens];
  const lines = [
    "",
    "Sluice devnet",
    `  API       ${service.apiUrl}   (docs: ${service.apiUrl}/docs)`,
    `  RPC       ${chain.rpcUrl}   (chain ${chain.chainId}, a block every second)`,
    `  Reactor   ${deployment.reactor}`,
    ...tokens.map((token) => `  ${token.symbol.padEnd(9)} ${token.address}`),
    ...deployment.solvers.map(
      (solver) =>
        `  solver    ${solver.id} ${solver.endpoint} (filler ${solver.filler}, ${solver.internal ? "internal" : "external"})`,
    ),
    ...(demoDiscount
      ? [
          `  Discount  ${demoDiscount.discount.discount} ppm on tRWA → tUSD at ${demoDiscount.adapter} (id ${demoDiscount.discountId})`,
          `            signed by the demo curator ${demoDiscount.discount.signer}, until ` +
            `${new Date(demoDiscount.discount.deadline * 1000).toISOString()} (chain time); ` +
            `a discount leg for ${internal.join(", ") || "no solver"}`,
        ]
      : ["  Discount  none: the demo discount was not published (see the log)"]),
    `  Faucet    POST ${service.apiUrl}/dev/faucet {"walletAddress":"0x…"}`,
    `  Data      ${chain.files.dir} (deployment.json: the deployment served)`,
    "  Demo accounts (anvil's well-known dev keys, funded with ETH and tRWA; never use them on a real network):",
    ...chain.accounts.demo.map((demo) => `    ${demo.account.address}  ${demo.privateKey}`),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
