-- Donor data and privacy (issue 28). Written by hand; 0019 is taken by another branch.
-- The audit log never keeps a donor's name or e-mail: entries written before refer to the pledge by
-- id and reference, and lose the copies they held (a deleted pledge's name and e-mail, an edit's
-- old and new name or e-mail, a statement line's payer and description).
UPDATE "audit_log" SET "details" = "details" #- '{deleted,name}' #- '{deleted,email}'
  WHERE "action" = 'pledge.delete' AND "details" ? 'deleted';--> statement-breakpoint
UPDATE "audit_log" SET "details" = "details" #- '{before,name}' #- '{before,email}'
  WHERE "action" = 'pledge.unconfirm' AND "details" ? 'before';--> statement-breakpoint
UPDATE "audit_log" SET "details" =
  ("details" #- '{before,name}' #- '{before,email}' #- '{after,name}' #- '{after,email}')
  || jsonb_build_object('personalDataChanged',
       (SELECT jsonb_agg(k.key ORDER BY k.key) FROM jsonb_object_keys("details"->'after') AS k(key)
        WHERE k.key IN ('name', 'email')))
  WHERE "action" = 'pledge.edit' AND jsonb_typeof("details"->'after') = 'object'
    AND ("details"->'after' ?| array['name', 'email']);--> statement-breakpoint
UPDATE "audit_log" SET "details" = "details" #- '{statementLine,payer}' #- '{statementLine,description}'
  WHERE "action" = 'pledge.confirm' AND "details" ? 'statementLine';--> statement-breakpoint
UPDATE "audit_log" SET "details" = "details" - 'payer' - 'description'
  WHERE "action" IN ('statement.dismiss', 'statement.restore');
--> statement-breakpoint
-- When the pledge's name and e-mail were erased (the donor, an admin, or the retention rule).
ALTER TABLE "pledges" ADD COLUMN IF NOT EXISTS "erased_at" timestamp with time zone;
