CREATE TABLE "statement_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fingerprint" text NOT NULL,
	"booked_on" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"payer" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"pledge_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"matched_at" timestamp with time zone,
	CONSTRAINT "statement_lines_fingerprint_unique" UNIQUE("fingerprint")
);
--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE INDEX "statement_lines_status_idx" ON "statement_lines" USING btree ("status","booked_on");--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_idempotency_key_unique" UNIQUE("idempotency_key");