CREATE TABLE "solver_answer_stats" (
	"span" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"solver_id" text NOT NULL,
	"offered" bigint DEFAULT 0 NOT NULL,
	"quoted" bigint DEFAULT 0 NOT NULL,
	"declined" bigint DEFAULT 0 NOT NULL,
	"rejected_timeout" bigint DEFAULT 0 NOT NULL,
	"rejected_http_status" bigint DEFAULT 0 NOT NULL,
	"rejected_invalid_body" bigint DEFAULT 0 NOT NULL,
	"rejected_echo_mismatch" bigint DEFAULT 0 NOT NULL,
	"rejected_wrong_filler" bigint DEFAULT 0 NOT NULL,
	"rejected_zero_amount" bigint DEFAULT 0 NOT NULL,
	"rejected_network" bigint DEFAULT 0 NOT NULL,
	"soft_wins" bigint DEFAULT 0 NOT NULL,
	"hard_wins" bigint DEFAULT 0 NOT NULL,
	"latency_counts" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	CONSTRAINT "solver_answer_stats_span_bucket_start_solver_id_pk" PRIMARY KEY("span","bucket_start","solver_id"),
	CONSTRAINT "solver_answer_stats_span_check" CHECK ("solver_answer_stats"."span" in ('hour','minute'))
);
--> statement-breakpoint
CREATE TABLE "solver_order_stats" (
	"span" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"solver_id" text NOT NULL,
	"assigned" bigint DEFAULT 0 NOT NULL,
	"filled" bigint DEFAULT 0 NOT NULL,
	"expired" bigint DEFAULT 0 NOT NULL,
	"improvement_bps_sum" numeric(78, 0) DEFAULT '0' NOT NULL,
	"improvement_count" bigint DEFAULT 0 NOT NULL,
	"fill_latency_counts" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	CONSTRAINT "solver_order_stats_span_bucket_start_solver_id_pk" PRIMARY KEY("span","bucket_start","solver_id"),
	CONSTRAINT "solver_order_stats_span_check" CHECK ("solver_order_stats"."span" in ('hour','minute'))
);
--> statement-breakpoint
-- The bucket of a latency in ms: src/scorecards/latency-buckets.ts's bounds, the same decimals.
CREATE FUNCTION "solver_latency_bucket"(ms float8) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
	SELECT width_bucket(ms, ARRAY[1.000,1.189,1.414,1.682,2.000,2.378,2.828,3.364,4.000,4.757,5.657,6.727,8.000,9.514,11.314,13.454,16.000,19.027,22.627,26.909,32.000,38.055,45.255,53.817,64.000,76.109,90.510,107.635,128.000,152.219,181.019,215.269,256.000,304.437,362.039,430.539,512.000,608.874,724.077,861.078,1024.000,1217.748,1448.155,1722.156,2048.000,2435.496,2896.309,3444.312,4096.000,4870.992,5792.619,6888.623,8192.000,9741.985,11585.238,13777.247,16384.000,19483.969,23170.475,27554.494,32768.000,38967.939,46340.950,55108.987,65536.000,77935.877,92681.900,110217.975,131072.000,155871.755,185363.800,220435.950,262144.000,311743.510,370727.600,440871.900,524288.000,623487.020,741455.200,881743.800,1048576.000,1246974.040,1482910.400,1763487.599,2097152.000,2493948.080,2965820.801,3526975.198,4194304.000,4987896.159,5931641.602,7053950.396,8388608.000,9975792.319,11863283.203,14107900.792]::float8[])
$$;
--> statement-breakpoint
-- Two histograms added element-wise; they are stored without trailing zeros, so lengths differ. A loop in plpgsql:
-- every round statement runs it once per row it upserts, and it measured a third of the time of unnest + array_agg.
CREATE FUNCTION "solver_stats_add_counts"(a bigint[], b bigint[]) RETURNS bigint[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	sum bigint[] := a;
	kept integer := coalesce(cardinality(a), 0);
BEGIN
	FOR i IN 1..coalesce(cardinality(b), 0) LOOP
		-- Zeros of b change nothing inside a; past a's end they keep the result dense.
		IF b[i] <> 0 OR i > kept THEN
			sum[i] := coalesce(sum[i], 0) + b[i];
		END IF;
	END LOOP;
	RETURN coalesce(sum, '{}'::bigint[]);
END
$$;
--> statement-breakpoint
-- A histogram from (bucket, count) pairs, for the backfill and the order trigger.
CREATE FUNCTION "solver_stats_counts"(ks integer[], ns bigint[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce(array_agg(coalesce(c.n, 0) ORDER BY g), '{}'::bigint[])
	FROM generate_series(0, (SELECT max(k) FROM unnest(ks) AS k)) AS g
	LEFT JOIN (SELECT u.k, sum(u.n)::bigint AS n FROM unnest(ks, ns) AS u(k, n) GROUP BY u.k) AS c ON c.k = g
$$;
--> statement-breakpoint
-- Price improvement in bps: floor((committed - quoted) * 10000 / quoted); null without a positive quoted total.
CREATE FUNCTION "order_price_improvement_bps"(quoted numeric, committed numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN quoted > 0 THEN floor((committed - quoted) * 10000 / quoted) END
$$;
--> statement-breakpoint
-- An order's improvement: its quote entry's total against the tokenOut total committed in the Order, both stored on
-- the order row (migration 0006; src/orders/price-improvement.ts computes the same for the order record).
CREATE FUNCTION "order_improvement_bps"(o "orders") RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
	SELECT "order_price_improvement_bps"(o."quoted_amount_out", o."committed_amount_out")
$$;
--> statement-breakpoint
-- Order accepted → its fill block's time (the indexer's clock when that block is no longer stored), in ms.
CREATE FUNCTION "order_fill_latency_bucket"(o "orders") RETURNS integer LANGUAGE sql STABLE AS $$
	SELECT "solver_latency_bucket"(greatest(0, extract(epoch FROM coalesce(
		(SELECT to_timestamp(b."timestamp") FROM "indexed_blocks" b WHERE b."number" = o."fill_block_number"),
		o."updated_at") - o."created_at") * 1000)::float8)
$$;
--> statement-breakpoint
-- What one order adds to its solver's counts (sign 1) or takes back (sign -1), hour row before minute row (key order).
CREATE FUNCTION "apply_order_stats"(o "orders", sign integer, assigned integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	bps numeric;
BEGIN
	IF assigned = 0 AND o."status" NOT IN ('filled', 'expired') THEN
		RETURN;
	END IF;
	IF o."status" = 'filled' THEN
		bps := "order_improvement_bps"(o);
	END IF;
	INSERT INTO "solver_order_stats" AS s ("span", "bucket_start", "solver_id", "assigned", "filled", "expired",
		"improvement_bps_sum", "improvement_count", "fill_latency_counts")
	SELECT p."span", date_trunc(p."span", o."created_at", 'UTC'), o."solver_id", sign * assigned,
		CASE WHEN o."status" = 'filled' THEN sign ELSE 0 END,
		CASE WHEN o."status" = 'expired' THEN sign ELSE 0 END,
		coalesce(sign * bps, 0),
		CASE WHEN bps IS NOT NULL THEN sign ELSE 0 END,
		CASE WHEN o."status" = 'filled'
			THEN "solver_stats_counts"(ARRAY["order_fill_latency_bucket"(o)], ARRAY[sign]::bigint[])
			ELSE '{}'::bigint[] END
	FROM (VALUES ('hour'), ('minute')) AS p("span")
	ORDER BY p."span"
	ON CONFLICT ("span", "bucket_start", "solver_id") DO UPDATE SET
		"assigned" = s."assigned" + excluded."assigned",
		"filled" = s."filled" + excluded."filled",
		"expired" = s."expired" + excluded."expired",
		"improvement_bps_sum" = s."improvement_bps_sum" + excluded."improvement_bps_sum",
		"improvement_count" = s."improvement_count" + excluded."improvement_count",
		"fill_latency_counts" = "solver_stats_add_counts"(s."fill_latency_counts", excluded."fill_latency_counts");
END
$$;
--> statement-breakpoint
-- Every writer of orders (POST /order on any replica, the indexer, a reorg rewind) changes the counts in its own
-- transaction, and none can forget to: a rewind that takes a fill back takes back what the fill added.
CREATE FUNCTION "record_order_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM "apply_order_stats"(NEW, 1, 1);
	ELSIF OLD."status" IS DISTINCT FROM NEW."status" THEN
		PERFORM "apply_order_stats"(OLD, -1, 0);
		PERFORM "apply_order_stats"(NEW, 1, 0);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_record_stats" AFTER INSERT OR UPDATE OF "status" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "record_order_stats"();
--> statement-breakpoint
-- Backfill, once: the answers and orders stored before this migration.
INSERT INTO "solver_answer_stats" ("span", "bucket_start", "solver_id", "offered", "quoted", "declined",
	"rejected_timeout", "rejected_http_status", "rejected_invalid_body", "rejected_echo_mismatch",
	"rejected_wrong_filler", "rejected_zero_amount", "rejected_network", "hard_wins", "latency_counts")
SELECT p."span", date_trunc(p."span", a."created_at", 'UTC'), a."solver_id", count(*),
	count(*) FILTER (WHERE a."outcome" = 'quoted'),
	count(*) FILTER (WHERE a."outcome" = 'declined'),
	count(*) FILTER (WHERE a."reason" = 'timeout'),
	count(*) FILTER (WHERE a."reason" = 'http_status'),
	count(*) FILTER (WHERE a."reason" = 'invalid_body'),
	count(*) FILTER (WHERE a."reason" = 'echo_mismatch'),
	count(*) FILTER (WHERE a."reason" = 'wrong_filler'),
	count(*) FILTER (WHERE a."reason" = 'zero_amount'),
	count(*) FILTER (WHERE a."reason" = 'network'),
	-- A hard round's win stored before this migration is known by the order it made.
	count(o."order_id"),
	"solver_stats_counts"(
		array_agg("solver_latency_bucket"(a."latency_ms"))
			FILTER (WHERE a."reason" IS NULL OR a."reason" NOT IN ('timeout', 'network')),
		array_agg(1::bigint) FILTER (WHERE a."reason" IS NULL OR a."reason" NOT IN ('timeout', 'network')))
FROM "solver_answers" a
CROSS JOIN (VALUES ('hour'), ('minute')) AS p("span")
LEFT JOIN "orders" o ON a."round" = 'order' AND o."request_id" = a."request_id" AND o."solver_id" = a."solver_id"
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "solver_answer_stats" AS s ("span", "bucket_start", "solver_id", "soft_wins")
SELECT p."span", date_trunc(p."span", q."created_at", 'UTC'), q."solver_id", count(*)
FROM "quotes" q
CROSS JOIN (VALUES ('hour'), ('minute')) AS p("span")
WHERE q."rank" = 0
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3
ON CONFLICT ("span", "bucket_start", "solver_id") DO UPDATE SET "soft_wins" = s."soft_wins" + excluded."soft_wins";
--> statement-breakpoint
INSERT INTO "solver_order_stats" ("span", "bucket_start", "solver_id", "assigned", "filled", "expired",
	"improvement_bps_sum", "improvement_count", "fill_latency_counts")
SELECT p."span", date_trunc(p."span", o."created_at", 'UTC'), o."solver_id", count(*),
	count(*) FILTER (WHERE o."status" = 'filled'),
	count(*) FILTER (WHERE o."status" = 'expired'),
	coalesce(sum("order_improvement_bps"(o)) FILTER (WHERE o."status" = 'filled'), 0),
	count("order_improvement_bps"(o)) FILTER (WHERE o."status" = 'filled'),
	"solver_stats_counts"(
		array_agg("order_fill_latency_bucket"(o)) FILTER (WHERE o."status" = 'filled'),
		array_agg(1::bigint) FILTER (WHERE o."status" = 'filled'))
FROM "orders" o
CROSS JOIN (VALUES ('hour'), ('minute')) AS p("span")
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
