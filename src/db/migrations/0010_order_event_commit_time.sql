-- A change's recorded_at is the time its committing transaction logs it (the deferred trigger runs at commit), not the
-- transaction's start: a long transaction (the indexer applying a block) no longer looks older than it is, so the
-- retention window and the stream's delivery figures count from the commit.
CREATE OR REPLACE FUNCTION "record_order_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM "order_event_clock" WHERE "id" = 1 FOR UPDATE;
	INSERT INTO "order_events"
		("id", "order_id", "status", "tx_hash", "settled_amounts", "fill_block_number", "finalized", "updated_at",
			"recorded_at")
		VALUES (nextval('"public"."order_events_id_seq"'), NEW."order_id", NEW."status", NEW."tx_hash",
			NEW."settled_amounts", NEW."fill_block_number", NEW."finalized", NEW."updated_at", clock_timestamp());
	PERFORM pg_notify('order_events', '');
	RETURN NULL;
END
$$;
