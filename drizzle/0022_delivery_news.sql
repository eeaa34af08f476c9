-- Delivery news by e-mail, by consent (docs/decisions/020-donor-data-and-ledger.md). Written by hand.
-- A pledge's consent to "E-mail me when containers are delivered": when it was given and which
-- wording the donor saw (shared/news.ts). Unsubscribing clears the consent of every pledge of the
-- address and keeps when it was withdrawn; erasure clears all three.
ALTER TABLE "pledges" ADD COLUMN "news_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "news_consent_version" text;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "news_withdrawn_at" timestamp with time zone;--> statement-breakpoint
-- The subscribers: a few rows of a big table, read by address.
CREATE INDEX "pledges_news_consent_idx" ON "pledges" USING btree (lower("email")) WHERE "news_consent_at" IS NOT NULL;--> statement-breakpoint
-- A delivery_news message names the update it tells about; a deleted update takes its unsent news.
ALTER TABLE "outbox" ADD COLUMN "update_id" uuid REFERENCES "delivery_updates"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_kind_known";--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_kind_known" CHECK ("kind" in ('instructions', 'receipt', 'reminder', 'team_invitation', 'delivery_news'));
