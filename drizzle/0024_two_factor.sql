-- Two-factor sign-in (docs/decisions/023-two-factor.md). Written by hand; 0022 and 0023 come from
-- other branches.
-- TOTP: one authenticator app per account. The secret is encrypted (AES-256-GCM) because it must
-- be read back to check a code; last_step is the newest 30-second step a code was accepted for,
-- so a code cannot be used twice. confirmed_at is null until a first code proved the app has it.
CREATE TABLE "admin_totp" (
	"account_id" uuid PRIMARY KEY NOT NULL REFERENCES "admin_accounts"("id") ON DELETE CASCADE,
	"secret" text NOT NULL,
	"last_step" bigint,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Ten single-use recovery codes per account: only a SHA-256 of each is kept.
CREATE TABLE "admin_recovery_codes" (
	"account_id" uuid NOT NULL REFERENCES "admin_accounts"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_recovery_codes_pk" PRIMARY KEY ("account_id", "code_hash")
);
--> statement-breakpoint
-- Passkeys (WebAuthn): the credential's id and public key (base64url), its signature counter and
-- the transports the browser reported.
CREATE TABLE "admin_passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "admin_accounts"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "admin_passkeys_account_idx" ON "admin_passkeys" USING btree ("account_id");--> statement-breakpoint
-- Short-lived steps between a correct password and a session (the second factor), and WebAuthn
-- challenges while a passkey is registered. Only a SHA-256 of the step's cookie token is kept.
-- Not backed up, like the sessions.
CREATE TABLE "admin_auth_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "admin_accounts"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL,
	"webauthn_challenge" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "admin_auth_challenges_purpose_check" CHECK ("purpose" IN ('login', 'passkey_registration'))
);
--> statement-breakpoint
CREATE INDEX "admin_auth_challenges_account_idx" ON "admin_auth_challenges" USING btree ("account_id");--> statement-breakpoint
-- A session made while the campaign requires a second factor, for an account without one: it may
-- only set one up (server/plugins/auth.ts).
ALTER TABLE "admin_sessions" ADD COLUMN "setup_only" boolean DEFAULT false NOT NULL;
