-- Issue 27 (docs/decisions/021-team-accounts.md): named admin accounts with roles. Written by hand;
-- 0019 and 0020 come from other branches. The owner (ADMIN_PASSWORD) is the row with the fixed id
-- below: its password stays where record 003 keeps it (ADMIN_PASSWORD or settings), so its row
-- has no e-mail and no hash. Every session and audit entry then names a real account.
CREATE TABLE "admin_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"role" text NOT NULL,
	"password_hash" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_accounts_role_check" CHECK ("role" IN ('owner', 'treasurer', 'editor', 'viewer'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "admin_accounts_email_idx" ON "admin_accounts" USING btree (lower("email"));--> statement-breakpoint
INSERT INTO "admin_accounts" ("id", "name", "role") VALUES ('00000000-0000-4000-8000-000000000001', 'Owner', 'owner');--> statement-breakpoint
-- Sessions open before this migration were the owner's.
ALTER TABLE "admin_sessions" ADD COLUMN "account_id" uuid NOT NULL DEFAULT '00000000-0000-4000-8000-000000000001' REFERENCES "admin_accounts"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "admin_sessions" ALTER COLUMN "account_id" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "admin_sessions_account_idx" ON "admin_sessions" USING btree ("account_id");--> statement-breakpoint
-- Who acted, as they were then (a renamed or disabled member keeps their past entries).
ALTER TABLE "audit_log" ADD COLUMN "actor_account_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_name" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_role" text;--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log" USING btree ("actor_account_id","at" DESC NULLS LAST);--> statement-breakpoint
-- Invitations and password resets: a single-use link; only a SHA-256 of its token is stored.
-- The token is an HMAC of the id (like the donors' status links), so the e-mail worker can write
-- the link when it sends the message.
CREATE TABLE "admin_invitations" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL UNIQUE,
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "admin_accounts"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "admin_invitations_account_idx" ON "admin_invitations" USING btree ("account_id");
--> statement-breakpoint
-- The invitation e-mail goes through the outbox: a message is about a pledge or an invitation.
ALTER TABLE "outbox" ALTER COLUMN "pledge_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "invitation_id" uuid REFERENCES "admin_invitations"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_kind_known";--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_kind_known" CHECK ("kind" in ('instructions', 'receipt', 'reminder', 'team_invitation'));--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_one_subject" CHECK (("pledge_id" IS NULL) <> ("invitation_id" IS NULL));
