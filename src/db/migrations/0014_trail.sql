CREATE TABLE "order_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"check" text NOT NULL,
	"passed" boolean NOT NULL,
	"detail" text NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_status_history" ADD COLUMN "request_id" uuid;--> statement-breakpoint
CREATE INDEX "order_checks_quote_idx" ON "order_checks" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "order_checks_request_idx" ON "order_checks" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "order_attempts_request_idx" ON "order_attempts" USING btree ("request_id");