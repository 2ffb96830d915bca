CREATE TABLE "rate_limit_replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
