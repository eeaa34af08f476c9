-- Issue 27: the owner's list of active sessions shows where each was opened (masked when shown).
ALTER TABLE "admin_sessions" ADD COLUMN "client_ip" text;
