// Wire formats of the dev helpers (GET/POST /dev/faucet, POST /dev/fund), as the real document has them (the spec
// does not name them): the faucet's assets are its ERC-20s (`kind: "erc20"`); the ETH POST /dev/faucet also sends
// (a fresh wallet needs gas) is not one of them.
import { zeroAddress } from "viem";
import { z } from "zod";
import { AddressSchema, DigitStringSchema, RequestIdSchema } from "../shared/wire.ts";

export const DevFaucetAssetSchema = z
  .object({
    token: AddressSchema.meta({ description: "ERC-20 token address" }),
    symbol: z.string().min(1),
    name: z.string().min(1),
    decimals: z.number().int().min(0),
    amount: DigitStringSchema.meta({ description: "Amount sent per request, in base units" }),
    kind: z.literal("erc20"),
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
