-- The daily e-mail caps look pledges up by address (lower(email)) instead of reading every message
-- queued in the last day (server/modules/email/repo.ts recentInstructions, recentMailByAddress).
CREATE INDEX IF NOT EXISTS "pledges_email_lower_idx" ON "pledges" USING btree (lower("email"));
