CREATE TABLE "indexer_lease" (
	"id" integer PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL
);
