ALTER TABLE "orders" ADD COLUMN "filled_at" timestamp (6) with time zone;--> statement-breakpoint
-- Order accepted → the moment the indexer saw its fill (the server's clock), in ms. Block timestamps are whole seconds
-- (and on a chain of 1 s blocks often the very second the order was accepted), so they measured 0–2 ms for fills that
-- took about a second. Orders filled before this migration have no such moment: they keep their fill block's time,
-- which is what their counts were made with (a reorg taking such a fill back takes back the same bucket).
CREATE OR REPLACE FUNCTION "order_fill_latency_bucket"(o "orders") RETURNS integer LANGUAGE sql STABLE AS $$
	SELECT "solver_latency_bucket"(greatest(0, extract(epoch FROM coalesce(
		o."filled_at",
		(SELECT to_timestamp(b."timestamp") FROM "indexed_blocks" b WHERE b."number" = o."fill_block_number"),
		o."updated_at") - o."created_at") * 1000)::float8)
$$;
