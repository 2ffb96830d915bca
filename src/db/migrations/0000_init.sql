CREATE TABLE "discount_cancels" (
	"cancel_id" text PRIMARY KEY NOT NULL,
	"adapter" text NOT NULL,
	"token_to_redeem" text NOT NULL,
	"signer" text NOT NULL,
	"cancelled_discount_id" text,
	"cancelled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"adapter" text NOT NULL,
	"token_to_redeem" text NOT NULL,
	"discount_id" text NOT NULL,
	"discount_ppm" numeric(78, 0) NOT NULL,
	"signer" text NOT NULL,
	"protocol" text NOT NULL,
	"nonce" numeric(78, 0) NOT NULL,
	"deadline" bigint NOT NULL,
	"signature" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discounts_adapter_token_to_redeem_pk" PRIMARY KEY("adapter","token_to_redeem")
);
--> statement-breakpoint
CREATE TABLE "chain_identity" (
	"id" integer PRIMARY KEY NOT NULL,
	"chain_id" bigint NOT NULL,
	"genesis_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexed_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nonce_invalidations" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"swapper" text NOT NULL,
	"nonce" text NOT NULL,
	"tx_hash" text NOT NULL,
	CONSTRAINT "nonce_invalidations_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "order_funding_streaks" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"streak" integer NOT NULL,
	"last_block" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reactor_fills" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"order_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"outputs" jsonb NOT NULL,
	CONSTRAINT "reactor_fills_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "order_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text NOT NULL,
	"block_number" bigint,
	"tx_hash" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"quote_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"order_hash" text NOT NULL,
	"status" text NOT NULL,
	"swapper" text NOT NULL,
	"filler" text NOT NULL,
	"solver_id" text NOT NULL,
	"token_in" text NOT NULL,
	"amount_in" numeric(78, 0) NOT NULL,
	"nonce" numeric(78, 0) NOT NULL,
	"deadline" bigint NOT NULL,
	"signed_outputs" jsonb NOT NULL,
	"outputs" jsonb NOT NULL,
	"swapper_signature" text NOT NULL,
	"protocol_signature" text NOT NULL,
	"encoded_order" text NOT NULL,
	"tx_hash" text,
	"settled_amounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('open','filled','expired','error','cancelled','insufficient-funds'))
);
--> statement-breakpoint
CREATE TABLE "points_balances" (
	"snapshot_id" integer NOT NULL,
	"vault" text collate "C" NOT NULL,
	"receiver" text collate "C" NOT NULL,
	"receiver_type" text collate "C" NOT NULL,
	"points" numeric(78, 0) NOT NULL,
	CONSTRAINT "points_balances_pk" PRIMARY KEY("snapshot_id","vault","receiver","receiver_type")
);
--> statement-breakpoint
CREATE TABLE "points_snapshots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_snapshots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"points_type" text collate "C" NOT NULL,
	"block_number" bigint NOT NULL,
	"total_points" numeric(78, 0) NOT NULL,
	"receiver_rows" integer NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_snapshots_type_block_unique" UNIQUE("points_type","block_number")
);
--> statement-breakpoint
CREATE TABLE "points_sync_rows" (
	"sync_id" integer NOT NULL,
	"page" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"vault" text collate "C" NOT NULL,
	"receiver" text collate "C" NOT NULL,
	"receiver_type" text collate "C" NOT NULL,
	"points" numeric(78, 0) NOT NULL,
	CONSTRAINT "points_sync_rows_pk" PRIMARY KEY("sync_id","page","ordinal")
);
--> statement-breakpoint
CREATE TABLE "points_syncs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_syncs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source_url" text NOT NULL,
	"points_type" text collate "C" NOT NULL,
	"block_number" bigint NOT NULL,
	"source_decimals" integer NOT NULL,
	"next_page" integer,
	"staged_rows" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_syncs_source_type_unique" UNIQUE("source_url","points_type")
);
--> statement-breakpoint
CREATE TABLE "points_types" (
	"name" text collate "C" PRIMARY KEY NOT NULL,
	"decimals" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_vault_totals" (
	"snapshot_id" integer NOT NULL,
	"vault" text collate "C" NOT NULL,
	"points" numeric(78, 0) NOT NULL,
	CONSTRAINT "points_vault_totals_pk" PRIMARY KEY("snapshot_id","vault")
);
--> statement-breakpoint
CREATE TABLE "points_vault_type_totals" (
	"snapshot_id" integer NOT NULL,
	"vault" text collate "C" NOT NULL,
	"receiver_type" text collate "C" NOT NULL,
	"points" numeric(78, 0) NOT NULL,
	CONSTRAINT "points_vault_type_totals_pk" PRIMARY KEY("snapshot_id","vault","receiver_type")
);
--> statement-breakpoint
CREATE TABLE "points_vaults" (
	"address" text collate "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_curators" (
	"id" text PRIMARY KEY NOT NULL,
	"meta" jsonb NOT NULL,
	CONSTRAINT "registry_curators_id_lowercase" CHECK ("registry_curators"."id" = lower("registry_curators"."id"))
);
--> statement-breakpoint
CREATE TABLE "registry_networks" (
	"address" text PRIMARY KEY NOT NULL,
	"meta" jsonb NOT NULL,
	CONSTRAINT "registry_networks_address_lowercase" CHECK ("registry_networks"."address" = lower("registry_networks"."address"))
);
--> statement-breakpoint
CREATE TABLE "registry_operators" (
	"address" text PRIMARY KEY NOT NULL,
	"meta" jsonb NOT NULL,
	CONSTRAINT "registry_operators_address_lowercase" CHECK ("registry_operators"."address" = lower("registry_operators"."address"))
);
--> statement-breakpoint
CREATE TABLE "registry_vaults" (
	"address" text PRIMARY KEY NOT NULL,
	"curator_id" text,
	"vault_type" text,
	"collateral" text,
	"total_supply" numeric(78, 0),
	"tvl" double precision,
	"approved" boolean DEFAULT false NOT NULL,
	"meta" jsonb NOT NULL,
	CONSTRAINT "registry_vaults_address_lowercase" CHECK ("registry_vaults"."address" = lower("registry_vaults"."address")),
	CONSTRAINT "registry_vaults_vault_type" CHECK ("registry_vaults"."vault_type" in ('pre-deposit', 'v1', 'v2')),
	CONSTRAINT "registry_vaults_approved_complete" CHECK (not "registry_vaults"."approved" or ("registry_vaults"."vault_type" is not null and "registry_vaults"."collateral" is not null and "registry_vaults"."total_supply" is not null and "registry_vaults"."tvl" is not null))
);
--> statement-breakpoint
CREATE TABLE "quote_requests" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"swapper" text NOT NULL,
	"token_in" text NOT NULL,
	"token_out" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"outputs" jsonb NOT NULL,
	"solver_ids" jsonb,
	"routing_preference" text NOT NULL,
	"permit_amount" text,
	"inventory_block" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"quote_id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"solver_id" text NOT NULL,
	"filler" text NOT NULL,
	"rank" integer NOT NULL,
	"token_in" text NOT NULL,
	"amount_in" numeric(78, 0) NOT NULL,
	"token_out" text NOT NULL,
	"amount_out" numeric(78, 0) NOT NULL,
	"outputs" jsonb NOT NULL,
	"deadline" bigint NOT NULL,
	"nonce" numeric(78, 0) NOT NULL,
	"protocol" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solver_answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"round" text NOT NULL,
	"solver_id" text NOT NULL,
	"quote_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"detail" text,
	"latency_ms" double precision NOT NULL,
	"amount_out" numeric(78, 0),
	"legs" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_generations" (
	"dataset" text PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_attempts" ADD CONSTRAINT "order_attempts_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_snapshots" ADD CONSTRAINT "points_snapshots_points_type_points_types_name_fk" FOREIGN KEY ("points_type") REFERENCES "public"."points_types"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_sync_rows" ADD CONSTRAINT "points_sync_rows_sync_id_points_syncs_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."points_syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_syncs" ADD CONSTRAINT "points_syncs_points_type_points_types_name_fk" FOREIGN KEY ("points_type") REFERENCES "public"."points_types"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_vault_totals" ADD CONSTRAINT "points_vault_totals_snapshot_id_points_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."points_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_vault_type_totals" ADD CONSTRAINT "points_vault_type_totals_snapshot_id_points_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."points_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_request_id_quote_requests_request_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."quote_requests"("request_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_cancels_discount_idx" ON "discount_cancels" USING btree ("cancelled_discount_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_discount_id_idx" ON "discounts" USING btree ("discount_id");--> statement-breakpoint
CREATE INDEX "discounts_token_idx" ON "discounts" USING btree ("token_to_redeem");--> statement-breakpoint
CREATE INDEX "nonce_invalidations_swapper_nonce_idx" ON "nonce_invalidations" USING btree ("swapper","nonce");--> statement-breakpoint
CREATE INDEX "reactor_fills_order_hash_idx" ON "reactor_fills" USING btree ("order_hash");--> statement-breakpoint
CREATE INDEX "order_attempts_order_idx" ON "order_attempts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_status_history_order_idx" ON "order_status_history" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_quote_id_unique" ON "orders" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_hash_unique" ON "orders" USING btree ("order_hash");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_updated_idx" ON "orders" USING btree ("updated_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_status_updated_idx" ON "orders" USING btree ("status","updated_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_swapper_created_idx" ON "orders" USING btree ("swapper","created_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_filler_created_idx" ON "orders" USING btree ("filler","created_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_solver_status_idx" ON "orders" USING btree ("solver_id","status","created_at" DESC NULLS LAST,"order_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("swapper","nonce") WHERE "orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "points_balances_receiver_idx" ON "points_balances" USING btree ("receiver","snapshot_id");--> statement-breakpoint
CREATE INDEX "quotes_request_idx" ON "quotes" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "solver_answers_request_idx" ON "solver_answers" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "solver_answers_quote_idx" ON "solver_answers" USING btree ("quote_id");