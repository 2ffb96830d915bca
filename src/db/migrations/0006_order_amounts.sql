ALTER TABLE "orders" ADD COLUMN "quote_request_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "token_out" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quoted_amount_out" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "committed_amount_out" numeric(78, 0);--> statement-breakpoint
-- Orders stored before these columns: the quote round, the token and the quoted total from the order's quote, the
-- committed total from the committed outputs. Not recorded as stream events (nothing changed for their clients): the
-- trigger is off meanwhile. Every order Sluice wrote has its quote (an order is made from a stored quote, and a chain
-- reset truncates both), so the NOT NULLs below hold.
ALTER TABLE "orders" DISABLE TRIGGER "orders_record_event";
--> statement-breakpoint
UPDATE "orders" AS o SET
	"quote_request_id" = q."request_id",
	"token_out" = q."token_out",
	"quoted_amount_out" = q."amount_out",
	"committed_amount_out" = (
		SELECT coalesce(sum((output->>'amount')::numeric), 0) FROM jsonb_array_elements(o."outputs") AS output
		WHERE output->>'token' = q."token_out"
	)
FROM "quotes" AS q WHERE q."quote_id" = o."quote_id";
--> statement-breakpoint
ALTER TABLE "orders" ENABLE TRIGGER "orders_record_event";
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "quote_request_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "token_out" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "quoted_amount_out" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "committed_amount_out" SET NOT NULL;
--> statement-breakpoint
-- A nonce invalidation cancels orders waiting for funds too: its lookup by (swapper, nonce) covers them.
DROP INDEX "orders_open_idx";--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("swapper","nonce") WHERE "orders"."status" in ('open','insufficient-funds');
