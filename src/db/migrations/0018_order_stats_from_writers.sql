-- The scorecards' order counts are written by the code that writes orders (issue 25: one domain, one owner of its
-- SQL): POST /order's insert and the indexer's status changes pass each transition to the scorecards module, whose
-- own statement adds it in the same transaction (src/scorecards/order-stats.ts). The trigger on orders goes.
DROP TRIGGER "orders_record_stats" ON "orders";
--> statement-breakpoint
DROP FUNCTION "record_order_stats"();
--> statement-breakpoint
DROP FUNCTION "apply_order_stats"("orders", integer, integer);
--> statement-breakpoint
-- Order accepted → the moment the indexer saw its fill (migration 0012), from the fields a writer passes rather than
-- an orders row: the scorecards' statement and migration 0008's backfill bucket fills the same way.
CREATE FUNCTION "solver_fill_latency_bucket"(created_at timestamptz, filled_at timestamptz, fill_block_number bigint,
	updated_at timestamptz) RETURNS integer LANGUAGE sql STABLE AS $$
	SELECT "solver_latency_bucket"(greatest(0, extract(epoch FROM coalesce(
		filled_at,
		(SELECT to_timestamp(b."timestamp") FROM "indexed_blocks" b WHERE b."number" = fill_block_number),
		updated_at) - created_at) * 1000)::float8)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_fill_latency_bucket"(o "orders") RETURNS integer LANGUAGE sql STABLE AS $$
	SELECT "solver_fill_latency_bucket"(o."created_at", o."filled_at", o."fill_block_number", o."updated_at")
$$;
