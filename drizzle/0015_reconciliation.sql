CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pledge_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"credited_minor" bigint NOT NULL,
	"booked_on" date NOT NULL,
	"source" text NOT NULL,
	"statement_line_id" uuid,
	"recorded_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"reversed_at" timestamp with time zone,
	CONSTRAINT "payments_statement_line_id_unique" UNIQUE("statement_line_id"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_minor" >= 1),
	CONSTRAINT "payments_currency_known" CHECK ("payments"."currency" in ('USD', 'JMD'))
);
--> statement-breakpoint
CREATE TABLE "statement_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text,
	"format" text DEFAULT 'csv' NOT NULL,
	"mapping_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credit_count" integer DEFAULT 0 NOT NULL,
	"new_count" integer DEFAULT 0 NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "statement_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"signature" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statement_mappings_signature_unique" UNIQUE("signature")
);
--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "raw" jsonb;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "dismissed_reason" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_pledge_id_pledges_id_fk" FOREIGN KEY ("pledge_id") REFERENCES "public"."pledges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_statement_line_id_statement_lines_id_fk" FOREIGN KEY ("statement_line_id") REFERENCES "public"."statement_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_pledge_idx" ON "payments" USING btree ("pledge_id","recorded_at");--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_import_id_statement_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."statement_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "statement_lines_import_idx" ON "statement_lines" USING btree ("import_id","position");--> statement-breakpoint
CREATE INDEX "statement_lines_dedupe_idx" ON "statement_lines" USING btree ("booked_on","amount_cents");