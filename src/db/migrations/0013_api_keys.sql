CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"quotes_per_minute" integer,
	"reads_per_second" integer,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_name_unique" UNIQUE("name"),
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "integrator" text;--> statement-breakpoint
-- Every change of the keys wakes every replica's key directory (src/api-keys/directory.ts), which re-reads the table:
-- a revoked key is refused on every replica as soon as the notification arrives.
CREATE FUNCTION "notify_api_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('api_keys', '');
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "api_keys_notify" AFTER INSERT OR UPDATE OR DELETE ON "api_keys"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_api_keys"();
