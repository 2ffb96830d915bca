CREATE TABLE "points_engine_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_engine_journal" (
	"block_number" bigint NOT NULL,
	"kind" text collate "C" NOT NULL,
	"key" text collate "C" NOT NULL,
	"vault" text collate "C",
	"receiver" text collate "C",
	"before" jsonb,
	CONSTRAINT "points_engine_journal_pk" PRIMARY KEY("block_number","kind","key")
);
--> statement-breakpoint
CREATE TABLE "points_engine_lease" (
	"id" integer PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_engine_position" (
	"id" integer PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" bigint NOT NULL,
	"lease_epoch" bigint NOT NULL,
	"emitted" numeric(78, 0) NOT NULL,
	"blocks_per_second" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_engine_records" (
	"kind" text collate "C" NOT NULL,
	"key" text collate "C" NOT NULL,
	"vault" text collate "C",
	"receiver" text collate "C",
	"value" jsonb NOT NULL,
	CONSTRAINT "points_engine_records_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
CREATE TABLE "points_engine_snapshots" (
	"block_number" bigint PRIMARY KEY NOT NULL,
	"block_timestamp" bigint NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"emitted" numeric(78, 0) NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_engine_vault_type_totals" (
	"block_number" bigint NOT NULL,
	"vault" text collate "C" NOT NULL,
	"receiver_type" text collate "C" NOT NULL,
	"points" numeric(78, 0) NOT NULL,
	CONSTRAINT "points_engine_vault_type_totals_pk" PRIMARY KEY("block_number","vault","receiver_type")
);
--> statement-breakpoint
CREATE INDEX "points_engine_records_receiver_idx" ON "points_engine_records" USING btree ("receiver");--> statement-breakpoint
CREATE INDEX "points_engine_records_vault_idx" ON "points_engine_records" USING btree ("vault","receiver");