// The dev helpers, as the real backend has them: GET /dev/faucet (the bundle), POST /dev/faucet (send the whole
// bundle to a wallet) and POST /dev/fund (ETH and the input token). Only a local deployment with a faucet serves
// them; anywhere else every one of them answers 403 DEV_ONLY, so a production client learns it is on the wrong
// deployment instead of meeting a 404.
import type { DemoPage } from "../../demo-page/assets.ts";
import type { Deployment } from "../../deployment/schema.ts";
import { DevOnlyError, FaucetBundleIncompleteError, FaucetError } from "../../devnet/errors.ts";
import { type DevFaucet, type FaucetAsset, NATIVE_TOKEN } from "../../devnet/faucet.ts";
import type { DevRpcRelay } from "../../devnet/rpc-relay.ts";
import {
  DevFaucetFundResponseSchema,
  DevFaucetResponseSchema,
  DevFundRequestSchema,
  DevFundResponseSchema,
} from "../../devnet/schemas.ts";
import type { Handler } from "../route.ts";

/** What the helpers work on: the deployment, and the devnet's faucet (none on any other deployment). */
export interface DevHelpers {
  deployment: Pick<Deployment, "local" | "inputTokens">;
  faucet?: DevFaucet;
  /** The devnet's chain relayed to the demo page, and the page (./demo-page.ts; the devnet has all three). */
  rpc?: DevRpcRelay;
  demoPage?: DemoPage;
}

const DEV_ONLY_ERRORS = [DevOnlyError, FaucetError, FaucetBundleIncompleteError];

function available({ deployment, faucet }: DevHelpers): DevFaucet {
  if (!deployment.local) throw new DevOnlyError("not_local");
  if (!faucet) throw new DevOnlyError("no_faucet");
  return faucet;
}

/** Refused before the body is even validated: on the wrong deployment the answer is always 403. */
export function devOnly(helpers: DevHelpers) {
  return async () => {
    available(helpers);
  };
}

/**
 * The bundle's ERC-20s on the wire: the real document's faucet assets are ERC-20s only (`kind: "erc20"`), so the
 * native coin the faucet also sends is left out of the list (clients typed from that document would refuse it).
 */
function wireAssets(assets: readonly FaucetAsset[]) {
  return assets.flatMap((asset) =>
    asset.kind === "erc20" ? [{ ...asset, kind: asset.kind, amount: asset.amount.toString() }] : [],
  );
}

export const faucetBundleSchema = {
  tags: ["dev"],
  summary: "The faucet bundle (local devnet only)",
  description:
    "The ERC-20s POST /dev/faucet sends (it also sends ETH for gas, not listed). 403 `DEV_ONLY` on any " +
    "deployment but a local devnet.",
  response: { 200: DevFaucetResponseSchema },
  errors: DEV_ONLY_ERRORS,
  descriptions: { 200: "The ERC-20s the faucet sends" },
};

export function faucetBundle(helpers: DevHelpers): Handler<typeof faucetBundleSchema> {
  return async (request) => ({ requestId: request.id, assets: wireAssets(available(helpers).assets) });
}

export const faucetSchema = {
  tags: ["dev"],
  summary: "Send the faucet bundle to a wallet (local devnet only)",
  description:
    "Sends every asset of the bundle (the ERC-20s GET /dev/faucet lists, and ETH for gas) and answers once " +
    "the transfers are mined; `fundedAssets` lists the ERC-20s. 403 `DEV_ONLY` on any deployment but a local " +
    "devnet.",
  body: DevFundRequestSchema,
  response: { 200: DevFaucetFundResponseSchema },
  errors: DEV_ONLY_ERRORS,
  descriptions: { 200: "The wallet is funded; `fundedAssets` lists the ERC-20s sent" },
};

export function faucet(helpers: DevHelpers): Handler<typeof faucetSchema> {
  return async (request) => {
    const funded = await available(helpers).fund(request.body.walletAddress);
    return {
      requestId: request.id,
      walletAddress: request.body.walletAddress,
      fundedAssets: wireAssets(funded),
    };
  };
}

export const fundSchema = {
  tags: ["dev"],
  summary: "Top a wallet up with ETH and the input token (local devnet only)",
  description:
    "Sends the bundle's ETH and input token and answers once the transfers are mined. 403 `DEV_ONLY` on any " +
    "deployment but a local devnet.",
  body: DevFundRequestSchema,
  response: { 200: DevFundResponseSchema },
  errors: DEV_ONLY_ERRORS,
  descriptions: { 200: "The wallet is funded with ETH and the input token" },
};

export function fundWallet(helpers: DevHelpers): Handler<typeof fundSchema> {
  return async (request) => {
    const target = available(helpers);
    const eth = target.asset(NATIVE_TOKEN);
    const inputToken = helpers.deployment.inputTokens[0];
    const token = inputToken ? target.asset(inputToken.address) : undefined;
    if (!eth || !token) throw new FaucetBundleIncompleteError();
    await target.fund(request.body.walletAddress, [eth, token]);
    return {
      requestId: request.id,
      walletAddress: request.body.walletAddress,
      fundedEth: eth.amount.toString(),
      fundedToken: token.amount.toString(),
      token: token.token,
    };
  };
}
