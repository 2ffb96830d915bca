CREATE TABLE "solver_cooldowns" (
	"solver_id" text PRIMARY KEY NOT NULL,
	"cooldown_until" timestamp with time zone,
	"reason" text,
	"repeats" integer DEFAULT 0 NOT NULL,
	"last_ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solver_cooldown_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"solver_id" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"until" timestamp with time zone,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "solver_cooldown_events_solver_idx" ON "solver_cooldown_events" USING btree ("solver_id","id");--> statement-breakpoint
CREATE TABLE "solver_order_outcomes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"solver_id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"swapper" text NOT NULL,
	"outcome" text NOT NULL,
	"block_number" bigint NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	CONSTRAINT "solver_order_outcomes_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "solver_order_outcomes_outcome_check" CHECK ("solver_order_outcomes"."outcome" in ('filled', 'faded', 'excused'))
);
--> statement-breakpoint
CREATE INDEX "solver_order_outcomes_solver_idx" ON "solver_order_outcomes" USING btree ("solver_id","ended_at");--> statement-breakpoint
CREATE INDEX "solver_order_outcomes_block_idx" ON "solver_order_outcomes" USING btree ("block_number");--> statement-breakpoint
CREATE TABLE "order_funding_shortfalls" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"first_block" bigint NOT NULL
);
--> statement-breakpoint
-- Orders that ended before the fade breaker existed are not judged after the fact: no outcome rows are backfilled,
-- so every solver starts with a clean window (its fades count from this release on). Orders still open or waiting
-- for funds get a shortfall row when their funding streak shows they were short, so their expiry is not a fade.
INSERT INTO "order_funding_shortfalls" ("order_id", "first_block")
	SELECT "order_id", "last_block" - "streak" + 1 FROM "order_funding_streaks"
	ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "order_funding_shortfalls" ("order_id", "first_block")
	SELECT "order_id", coalesce("status_block_number", 0) FROM "orders" WHERE "status" = 'insufficient-funds'
	ON CONFLICT DO NOTHING;
