ALTER TABLE "pledges" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_idempotency_key_unique" UNIQUE("idempotency_key");