DROP INDEX "pledges_created_at_idx";--> statement-breakpoint
DROP INDEX "pledges_amount_idx";--> statement-breakpoint
CREATE INDEX "pledges_created_at_id_idx" ON "pledges" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "pledges_amount_created_at_id_idx" ON "pledges" USING btree ("amount","created_at","id");