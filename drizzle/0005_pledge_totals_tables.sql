CREATE TABLE "donor_emails" (
	"email" text PRIMARY KEY NOT NULL,
	"pledge_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pledge_totals" (
	"id" integer PRIMARY KEY NOT NULL,
	"pledge_count" bigint DEFAULT 0 NOT NULL,
	"paid_count" bigint DEFAULT 0 NOT NULL,
	"containers" bigint DEFAULT 0 NOT NULL,
	"confirmed_containers" bigint DEFAULT 0 NOT NULL,
	"usd_amount" bigint DEFAULT 0 NOT NULL,
	"jmd_amount" bigint DEFAULT 0 NOT NULL,
	"donor_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "pledge_totals_one_row" CHECK (id = 1)
);
