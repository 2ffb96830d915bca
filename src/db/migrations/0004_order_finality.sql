ALTER TABLE "order_events" ADD COLUMN "fill_block_number" bigint;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "finalized" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fill_block_number" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "status_block_number" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "finalized" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_unfinalized_idx" ON "orders" USING btree ("status_block_number") WHERE not "orders"."finalized" and "orders"."status" in ('filled','expired','cancelled','error');--> statement-breakpoint
-- Orders stored before finality was tracked: the block of their last status change and of their fill, from the
-- history. Not recorded as stream events (nothing changed for their clients): the trigger is off meanwhile.
ALTER TABLE "orders" DISABLE TRIGGER "orders_record_event";
--> statement-breakpoint
UPDATE "orders" AS o SET "status_block_number" = (
	SELECT h."block_number" FROM "order_status_history" h WHERE h."order_id" = o."order_id" ORDER BY h."id" DESC LIMIT 1
) WHERE o."status" <> 'open';
--> statement-breakpoint
UPDATE "orders" SET "fill_block_number" = "status_block_number" WHERE "status" = 'filled';
--> statement-breakpoint
ALTER TABLE "orders" ENABLE TRIGGER "orders_record_event";
--> statement-breakpoint
-- The log records the fill block and the finality of each change too; finalization (no status change) is a change.
CREATE OR REPLACE FUNCTION "record_order_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	next_id bigint;
BEGIN
	UPDATE "order_event_clock" SET "last_id" = "last_id" + 1 WHERE "id" = 1 RETURNING "last_id" INTO next_id;
	INSERT INTO "order_events"
		("id", "order_id", "status", "tx_hash", "settled_amounts", "fill_block_number", "finalized", "updated_at")
		VALUES (next_id, NEW."order_id", NEW."status", NEW."tx_hash", NEW."settled_amounts", NEW."fill_block_number",
			NEW."finalized", NEW."updated_at");
	PERFORM pg_notify('order_events', '');
	RETURN NULL;
END
$$;
