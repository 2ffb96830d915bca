CREATE TABLE "order_event_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL,
	"pruned_through" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigint PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"settled_amounts" jsonb NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_events_recorded_idx" ON "order_events" USING btree ("recorded_at");--> statement-breakpoint
INSERT INTO "order_event_clock" ("id", "last_id", "pruned_through") VALUES (1, 0, 0);
--> statement-breakpoint
-- Every change of an order row becomes one order_events row. The trigger is deferred: it runs at commit, so the id
-- taken from the clock row is taken in commit order (the clock row stays locked until the commit is visible), and
-- an open transaction never holds an id below one already visible. NOTIFY wakes every replica's stream reader;
-- PostgreSQL sends it at commit, once per transaction (identical payloads fold).
CREATE FUNCTION "record_order_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	next_id bigint;
BEGIN
	UPDATE "order_event_clock" SET "last_id" = "last_id" + 1 WHERE "id" = 1 RETURNING "last_id" INTO next_id;
	INSERT INTO "order_events" ("id", "order_id", "status", "tx_hash", "settled_amounts", "updated_at")
		VALUES (next_id, NEW."order_id", NEW."status", NEW."tx_hash", NEW."settled_amounts", NEW."updated_at");
	PERFORM pg_notify('order_events', '');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_record_event" AFTER INSERT OR UPDATE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "record_order_event"();
