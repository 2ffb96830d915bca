-- Round statements no longer upsert solver_answer_stats themselves: each appends what it adds as one row here (no row
-- shared between writers, so replicas writing rounds at once never wait on each other), and a fold on every replica
-- moves those rows into solver_answer_stats in key order, deleting them in the same statement. Reads add the rows
-- still here, so the counts stay exact whenever they are read. See src/scorecards/answer-stats.ts.
CREATE TABLE "solver_answer_stats_pending" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "solver_answer_stats_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"stats" json NOT NULL
);
--> statement-breakpoint
-- The element-wise sum of histograms, for the fold's GROUP BY.
CREATE AGGREGATE "solver_stats_sum"(bigint[]) (SFUNC = "solver_stats_add_counts", STYPE = bigint[], INITCOND = '{}');
