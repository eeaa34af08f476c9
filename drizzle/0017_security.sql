-- Second security review (issue 25, docs/SECURITY.md threats 49-60). Written by hand: migrations
-- 0016 and 0017 come from other branches.
-- 2.6: an Idempotency-Key is bound to the body it came with and to the client that sent it.
-- 2.1: instruction e-mails are capped per client, counted over the pledges of its key.
ALTER TABLE "pledges" ADD COLUMN "idempotency_body_hash" text;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE INDEX "pledges_client_key_created_idx" ON "pledges" USING btree ("client_key","created_at") WHERE "client_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at");
