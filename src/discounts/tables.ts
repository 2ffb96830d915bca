// Storage of signed discounts (DESIGN.md §5): at most one live discount per (adapter, tokenToRedeem), and every
// accepted cancel, which both blocks its own replay and keeps the discount it deleted from being published again.
import {
  bigint,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });

/** The discount currently published for each (adapter, tokenToRedeem), with the signer's signature. */
export const discounts = pgTable(
  "discounts",
  {
    adapter: text("adapter").notNull(),
    tokenToRedeem: text("token_to_redeem").notNull(),
    /** EIP-712 digest of the Discount under the adapter's domain. */
    discountId: text("discount_id").notNull(),
    /** ppm of the gross oracle output. */
    discountPpm: uint256("discount_ppm").notNull(),
    signer: text("signer").notNull(),
    protocol: text("protocol").notNull(),
    nonce: uint256("nonce").notNull(),
    /** uint48 unix seconds (chain time). */
    deadline: bigint("deadline", { mode: "number" }).notNull(),
    signature: text("signature").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.adapter, table.tokenToRedeem] }),
    uniqueIndex("discounts_discount_id_idx").on(table.discountId),
    index("discounts_token_idx").on(table.tokenToRedeem),
  ],
);

/** Every accepted cancel (a signed Discount with deadline 0), once. */
export const discountCancels = pgTable(
  "discount_cancels",
  {
    /** The cancel's own EIP-712 digest: a second request with it is a replay. */
    cancelId: text("cancel_id").primaryKey(),
    adapter: text("adapter").notNull(),
    tokenToRedeem: text("token_to_redeem").notNull(),
    signer: text("signer").notNull(),
    /** The discount the cancel deleted (null when none was stored): it can never be published again. */
    cancelledDiscountId: text("cancelled_discount_id"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("discount_cancels_discount_idx").on(table.cancelledDiscountId)],
);
