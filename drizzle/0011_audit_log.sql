CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"pledge_id" uuid,
	"pledge_reference" text,
	"client_ip" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "audit_log_pledge_at_idx" ON "audit_log" USING btree ("pledge_id","at" DESC NULLS LAST);