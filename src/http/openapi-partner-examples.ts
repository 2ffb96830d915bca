// The OpenAPI document's examples for the partner API (registries and points). They name the deployment's own
// tokens where a field is one (a vault is a redeemable input token, its collateral the token it redeems for), so a
// mainnet document shows mainnet addresses and the devnet's shows the devnet's; the other addresses are plainly
// illustrative. Without a deployment (a partner-only server) every address is illustrative.
import type { Address } from "viem";
import type { Deployment } from "../deployment/schema.ts";
import type { OperationExamples } from "./openapi-examples.ts";

/** Illustrative addresses: recognisable as examples, never an account of any chain's deployment. */
const EXAMPLE = {
  network: "0x0000000000000000000000000000000000000e71",
  operator: "0x00000000000000000000000000000000000000a7",
  vault: "0x0000000000000000000000000000000000000fa1",
  collateral: "0x000000000000000000000000000000000000c011",
  receiver: "0x0000000000000000000000000000000000000bee",
} as const satisfies Record<string, Address>;

/** The points type Sluice itself serves (48 implied decimals), and a snapshot block. */
const POINTS_TYPE = "sluice";
const POINTS_BLOCK = 21_856_800;

export interface PartnerExampleFacts {
  deployment?: Pick<Deployment, "chainName" | "inputTokens" | "outputTokens">;
  /** A receiver to show (the devnet's demo swapper, when there is one). */
  receiver?: Address;
}

/** Examples keyed by the path under the API prefix (`GET /entities/vaults`). */
export function partnerExamples(facts: PartnerExampleFacts): Map<string, OperationExamples> {
  const token = facts.deployment?.inputTokens[0];
  const vault = token?.address ?? EXAMPLE.vault;
  const collateral =
    token?.liquidityOutputToken ?? facts.deployment?.outputTokens[0]?.address ?? EXAMPLE.collateral;
  const receiver = facts.receiver ?? EXAMPLE.receiver;
  const chain = facts.deployment?.chainName ?? "Ethereum";
  const ok = (summary: string, value: unknown): OperationExamples => ({
    responses: { 200: { summary, value } },
  });
  // One record per points type; this example has one type.
  const points = (items: unknown[]) => [
    {
      points_type: POINTS_TYPE,
      last_block: POINTS_BLOCK,
      total_points: "1875000000000000000000000000000000000000000000000000",
      items,
    },
  ];

  return new Map<string, OperationExamples>([
    [
      "GET /entities/networks",
      ok("One network", [
        {
          address: EXAMPLE.network,
          meta: {
            name: `${chain} restaking network`,
            description: "Secures the redemption lane's solvers",
            tags: ["network"],
            links: [{ name: "Website", type: "website", url: "https://example.org" }],
          },
        },
      ]),
    ],
    [
      "GET /entities/operators",
      ok("One operator", [
        { address: EXAMPLE.operator, meta: { name: "Example operator", tags: ["operator"] } },
      ]),
    ],
    [
      "GET /entities/vaults",
      ok(token ? `The vault behind ${token.symbol}` : "One approved vault", [
        {
          address: vault,
          vaultType: "v2",
          collateral,
          curatorId: "example-curator",
          totalSupply: "1250000000000000000000000",
          tvl: 1253412.5,
          meta: { name: token ? `${token.name} vault` : "Example vault", tags: ["rwa"] },
        },
      ]),
    ],
    [
      "GET /entities/curators",
      ok("One curator and its vaults", [
        { id: "example-curator", meta: { name: "Example Curator" }, vaults: [vault] },
      ]),
    ],
    [
      "GET /points/receiver/:address/current",
      ok(
        "A receiver's points per vault",
        points([{ vault_address: vault, points: "1875000000000000000000000000000000000000000000000000" }]),
      ),
    ],
    [
      "GET /points/vault/:address/current",
      ok(
        "A vault's points per receiver",
        points([
          { receiver_address: receiver, points: "1875000000000000000000000000000000000000000000000000" },
        ]),
      ),
    ],
    [
      "GET /points/vault/:address/:blockNumber",
      ok(
        "A vault's points per receiver type at a block",
        points([{ receiver_type: "staker", points: "1875000000000000000000000000000000000000000000000000" }]),
      ),
    ],
    [
      "GET /points/total/current",
      ok(
        "Every vault's points",
        points([{ vault_address: vault, points: "1875000000000000000000000000000000000000000000000000" }]),
      ),
    ],
    [
      "GET /points/total/:blockNumber",
      ok(
        "Every vault's points at a block",
        points([{ vault_address: vault, points: "1875000000000000000000000000000000000000000000000000" }]),
      ),
    ],
  ]);
}
