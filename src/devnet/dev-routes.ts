// The dev helpers, as the real backend has them: GET /dev/faucet (the bundle), POST /dev/faucet (send the whole
// bundle to a wallet) and POST /dev/fund (ETH and the input token). Only a local deployment with a faucet serves
// them; anywhere else every one of them answers 403 DEV_ONLY, so a production client learns it is on the wrong
// deployment instead of meeting a 404.

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { zeroAddress } from "viem";
import { z } from "zod";
import type { Deployment } from "../deployment/schema.ts";
import { errorResponses, SwapErrorSchema } from "../http/errors.ts";
import { AddressSchema, DigitStringSchema, RequestIdSchema } from "../shared/wire.ts";
import { DevOnlyError, FaucetBundleIncompleteError, FaucetError } from "./errors.ts";
import { type DevFaucet, type FaucetAsset, NATIVE_TOKEN } from "./faucet.ts";

export const DevFaucetAssetSchema = z
  .object({
    token: AddressSchema.meta({ description: "Token address; the zero address for the native coin" }),
    symbol: z.string().min(1),
    name: z.string().min(1),
    decimals: z.number().int().min(0),
    amount: DigitStringSchema.meta({ description: "Amount sent per request, in base units" }),
    kind: z.enum(["native", "erc20"]),
  })
  .meta({ id: "DevFaucetAsset" });

export const DevFaucetResponseSchema = z
  .object({ requestId: RequestIdSchema, assets: z.array(DevFaucetAssetSchema) })
  .meta({ id: "DevFaucetResponse" });

export const DevFundRequestSchema = z
  .object({
    // Tokens refuse to mint to the zero address; saying so here keeps that a 400, not a failed transaction.
    walletAddress: AddressSchema.refine((address) => address !== zeroAddress, "must not be the zero address"),
  })
  .meta({ id: "DevFundRequest" });

export const DevFaucetFundResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    walletAddress: AddressSchema,
    fundedAssets: z.array(DevFaucetAssetSchema),
  })
  .meta({ id: "DevFaucetFundResponse" });

export const DevFundResponseSchema = z
  .object({
    requestId: RequestIdSchema,
    walletAddress: AddressSchema,
    fundedEth: DigitStringSchema.meta({ description: "Wei sent" }),
    fundedToken: DigitStringSchema.meta({ description: "Base units of `token` sent" }),
    token: AddressSchema.meta({ description: "The deployment's input token" }),
  })
  .meta({ id: "DevFundResponse" });

export interface DevRoutesOptions {
  deployment: Pick<Deployment, "local" | "inputTokens">;
  /** The devnet's faucet; without one (any deployment but the devnet) the helpers are refused. */
  faucet?: DevFaucet;
}

const DEV_ONLY_RESPONSES = errorResponses(DevOnlyError, FaucetError, FaucetBundleIncompleteError);

export const devRoutes: FastifyPluginAsyncZod<DevRoutesOptions> = async (app, { deployment, faucet }) => {
  const available = (): DevFaucet => {
    if (!deployment.local) throw new DevOnlyError("not_local");
    if (!faucet) throw new DevOnlyError("no_faucet");
    return faucet;
  };
  // Refused before the body is even validated: on the wrong deployment the answer is always 403.
  app.addHook("onRequest", async () => {
    available();
  });

  app.get(
    "/dev/faucet",
    {
      schema: {
        tags: ["dev"],
        summary: "The faucet bundle (local devnet only)",
        description: "What POST /dev/faucet sends. 403 `DEV_ONLY` on any deployment but a local devnet.",
        response: { 200: DevFaucetResponseSchema, ...DEV_ONLY_RESPONSES },
      },
    },
    async (request) => ({ requestId: request.id, assets: available().assets.map(wireAsset) }),
  );

  app.post(
    "/dev/faucet",
    {
      schema: {
        tags: ["dev"],
        summary: "Send the faucet bundle to a wallet (local devnet only)",
        description:
          "Sends every asset of the bundle and answers once the transfers are mined. 403 `DEV_ONLY` on any " +
          "deployment but a local devnet.",
        body: DevFundRequestSchema,
        response: { 200: DevFaucetFundResponseSchema, 400: SwapErrorSchema, ...DEV_ONLY_RESPONSES },
      },
    },
    async (request) => {
      const target = available();
      const funded = await target.fund(request.body.walletAddress);
      return {
        requestId: request.id,
        walletAddress: request.body.walletAddress,
        fundedAssets: funded.map(wireAsset),
      };
    },
  );

  app.post(
    "/dev/fund",
    {
      schema: {
        tags: ["dev"],
        summary: "Top a wallet up with ETH and the input token (local devnet only)",
        description:
          "Sends the bundle's ETH and input token and answers once the transfers are mined. 403 `DEV_ONLY` on any " +
          "deployment but a local devnet.",
        body: DevFundRequestSchema,
        response: { 200: DevFundResponseSchema, 400: SwapErrorSchema, ...DEV_ONLY_RESPONSES },
      },
    },
    async (request) => {
      const target = available();
      const eth = target.asset(NATIVE_TOKEN);
      const inputToken = deployment.inputTokens[0];
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
    },
  );
};

function wireAsset(asset: FaucetAsset) {
  return { ...asset, amount: asset.amount.toString() };
}
