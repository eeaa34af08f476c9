-- Donor counts come from donor_emails (migration 0006): nothing looks pledges up by lower(email) any more,
-- and every pledge paid for this index on insert.
DROP INDEX "pledges_email_lower_idx";