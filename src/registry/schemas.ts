// Wire formats of the registry endpoints (spec §2). Every object is strict: the spec allows no other fields,
// and the same schemas feed the OpenAPI document and the tests' response checks.
import { z } from "zod";
import { AddressSchema, DigitStringSchema } from "../shared/wire.ts";

export const VAULT_TYPES = ["pre-deposit", "v1", "v2"] as const;
export type VaultType = (typeof VAULT_TYPES)[number];

export const VaultTypeSchema = z.enum(VAULT_TYPES).meta({
  description:
    "`pre-deposit`: legacy default-collateral wrapper; `v1`: vault factory versions 1–2; `v2`: version 3 (ERC-4626)",
});

/** A lowercased metadata-repository slug (curator ids). */
export const SlugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "must be a lowercase slug")
  .meta({ example: "re7-labs" });

export const MetadataLinkSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    url: z.string(),
  })
  .strict()
  .meta({ id: "MetadataLink" });

export const MetadataSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    icon: z.url().optional(),
    tags: z.array(z.string()).optional(),
    links: z.array(MetadataLinkSchema).optional(),
  })
  .strict()
  .meta({ id: "Metadata", description: "Entry metadata; no other fields are allowed." });
export type Metadata = z.infer<typeof MetadataSchema>;
export type MetadataLink = z.infer<typeof MetadataLinkSchema>;

export const PartnerEntitySchema = z
  .object({
    address: AddressSchema,
    meta: MetadataSchema,
  })
  .strict()
  .meta({ id: "PartnerEntity", description: "A network or an operator." });
export type PartnerEntity = z.infer<typeof PartnerEntitySchema>;

export const PartnerVaultSchema = z
  .object({
    address: AddressSchema,
    vaultType: VaultTypeSchema,
    collateral: AddressSchema,
    curatorId: SlugSchema.optional(),
    totalSupply: DigitStringSchema,
    tvl: z.number(),
    meta: MetadataSchema,
  })
  .strict()
  .meta({ id: "PartnerVault" });
export type PartnerVault = z.infer<typeof PartnerVaultSchema>;

export const PartnerCuratorSchema = z
  .object({
    id: SlugSchema,
    meta: MetadataSchema,
    vaults: z.array(AddressSchema).meta({ description: "Approved vaults the curator curates, sorted" }),
  })
  .strict()
  .meta({ id: "PartnerCurator" });
export type PartnerCurator = z.infer<typeof PartnerCuratorSchema>;

export const PartnerEntityListSchema = z.array(PartnerEntitySchema);
export const PartnerVaultListSchema = z.array(PartnerVaultSchema);
export const PartnerCuratorListSchema = z.array(PartnerCuratorSchema);
