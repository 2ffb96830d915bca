CREATE TABLE "points_engine_scope" (
	"id" integer PRIMARY KEY NOT NULL,
	"config_key" text NOT NULL,
	"scope" jsonb NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
