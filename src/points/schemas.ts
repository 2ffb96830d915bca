// Wire formats of the points endpoints (spec §2 "Points records"), strict: no key beyond the spec's.
import { z } from "zod";
import { AddressSchema, DigitStringSchema, MAX_SAFE_INTEGER } from "../shared/wire.ts";

export const PointsTypeNameSchema = z.string().min(1);
export const ReceiverTypeSchema = z.string().min(1);
/** A receiver type as files and partner feeds may give it: bounded, and no stray outer spaces. */
export const IncomingReceiverTypeSchema = ReceiverTypeSchema.max(100).regex(
  /^\S(?:.*\S)?$/,
  "must not start or end with whitespace",
);
export const LastBlockSchema = z.number().int().min(0).max(MAX_SAFE_INTEGER);

const recordFields = {
  points_type: PointsTypeNameSchema,
  last_block: LastBlockSchema,
  total_points: DigitStringSchema,
};

export const PointsByVaultItemSchema = z
  .object({ vault_address: AddressSchema, points: DigitStringSchema })
  .strict()
  .meta({ id: "PartnerPointsByVaultItem" });

export const PointsByReceiverItemSchema = z
  .object({ receiver_address: AddressSchema, points: DigitStringSchema })
  .strict()
  .meta({ id: "PartnerPointsByReceiverItem" });

export const PointsByReceiverTypeItemSchema = z
  .object({ receiver_type: ReceiverTypeSchema, points: DigitStringSchema })
  .strict()
  .meta({ id: "PartnerPointsByReceiverTypeItem" });

export const PointsByVaultSchema = z
  .object({ ...recordFields, items: z.array(PointsByVaultItemSchema) })
  .strict()
  .meta({ id: "PartnerPointsByVault", description: "Points of one points type per vault." });

export const PointsByReceiverSchema = z
  .object({ ...recordFields, items: z.array(PointsByReceiverItemSchema) })
  .strict()
  .meta({ id: "PartnerPointsByReceiver", description: "Points of one points type per receiver." });

export const PointsByReceiverTypeSchema = z
  .object({ ...recordFields, items: z.array(PointsByReceiverTypeItemSchema) })
  .strict()
  .meta({ id: "PartnerPointsByReceiverType", description: "Points of one points type per receiver type." });

export const PointsByVaultListSchema = z.array(PointsByVaultSchema);
export const PointsByReceiverListSchema = z.array(PointsByReceiverSchema);
export const PointsByReceiverTypeListSchema = z.array(PointsByReceiverTypeSchema);

export type PointsByVault = z.infer<typeof PointsByVaultSchema>;
export type PointsByReceiver = z.infer<typeof PointsByReceiverSchema>;
export type PointsByReceiverType = z.infer<typeof PointsByReceiverTypeSchema>;
