CREATE SEQUENCE "public"."order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- The ids go on from the newest one handed out by the clock row.
SELECT setval('"public"."order_events_id_seq"', greatest("last_id", 1), "last_id" > 0) FROM "order_event_clock" WHERE "id" = 1;--> statement-breakpoint
-- Ids in commit order, linear in the changes of a transaction: the committing transaction locks the clock row (a lock,
-- not a new row version) and takes each id from the sequence while it holds the lock, which it keeps until its
-- commit is visible. Updating the clock row once per change made a transaction of n changes walk a version chain
-- n long at each one.
CREATE OR REPLACE FUNCTION "record_order_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM "order_event_clock" WHERE "id" = 1 FOR UPDATE;
	INSERT INTO "order_events"
		("id", "order_id", "status", "tx_hash", "settled_amounts", "fill_block_number", "finalized", "updated_at")
		VALUES (nextval('"public"."order_events_id_seq"'), NEW."order_id", NEW."status", NEW."tx_hash",
			NEW."settled_amounts", NEW."fill_block_number", NEW."finalized", NEW."updated_at");
	PERFORM pg_notify('order_events', '');
	RETURN NULL;
END
$$;--> statement-breakpoint
ALTER TABLE "order_event_clock" DROP COLUMN "last_id";
