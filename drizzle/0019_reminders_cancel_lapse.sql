-- Reminders for unpaid pledges, cancel and lapse (issue 26, docs/decisions/019-reminders-and-lapse.md).
-- Written by hand.
--
-- pledges.status: open (the default), cancelled (the donor pressed "I can't complete this
-- pledge"), lapsed (unpaid after the lapse day: still counted) or released (a lapsed pledge the
-- admin released: no longer counted). Cancelled and released rows stay in the table (and in the
-- admin list) but leave the totals exactly as a deletion would: pledge_totals_follow() below counts
-- only open and lapsed rows; the rest is 0016's function, unchanged.
ALTER TABLE "pledges" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_status_known" CHECK ("pledges"."status" IN ('open', 'cancelled', 'lapsed', 'released'));--> statement-breakpoint
-- The admin filters "Cancelled" and "Lapsed", and the lapsed sums: a few rows of a big table.
CREATE INDEX "pledges_status_idx" ON "pledges" USING btree ("status", "created_at", "id") WHERE "status" <> 'open';--> statement-breakpoint
-- Where each pledge stands in the reminder schedule: apart from pledges, so that sending a
-- reminder fires no totals trigger. A row is claimed by a conditional upsert (sent_steps = the
-- step read), in the transaction that queues the outbox row: one reminder per step, whatever the
-- number of instances.
CREATE TABLE "pledge_reminders" (
	"pledge_id" uuid PRIMARY KEY NOT NULL REFERENCES "pledges"("id") ON DELETE CASCADE,
	"sent_steps" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"paused_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "step" integer;--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_kind_known";--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_kind_known" CHECK ("outbox"."kind" in ('instructions', 'receipt', 'reminder'));--> statement-breakpoint
CREATE OR REPLACE FUNCTION pledge_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_donors bigint := 0;
  gone_donors bigint := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM donor_emails;
    UPDATE pledge_totals SET pledge_count = 0, paid_count = 0, containers = 0,
      confirmed_containers = 0, usd_amount = 0, jmd_amount = 0, donor_count = 0,
      received_usd = 0, received_jmd = 0, outstanding_containers = 0,
      version = version + 1
    WHERE id = 1;
    RETURN NULL;
  END IF;

  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE donor_emails d SET pledge_count = d.pledge_count - o.n
    FROM (SELECT lower(email) AS email, count(*) AS n FROM old_rows
      WHERE is_paid AND status IN ('open', 'lapsed') GROUP BY 1 ORDER BY 1) o
    WHERE d.email = o.email;
    DELETE FROM donor_emails
    WHERE pledge_count <= 0 AND email IN (SELECT lower(email) FROM old_rows
      WHERE is_paid AND status IN ('open', 'lapsed'));
    GET DIAGNOSTICS gone_donors = ROW_COUNT;
    UPDATE pledge_totals t SET
      pledge_count = t.pledge_count - o.n,
      paid_count = t.paid_count - o.paid,
      containers = t.containers - o.containers,
      confirmed_containers = t.confirmed_containers - o.confirmed,
      usd_amount = t.usd_amount - o.usd,
      jmd_amount = t.jmd_amount - o.jmd,
      received_usd = t.received_usd - o.rusd,
      received_jmd = t.received_jmd - o.rjmd,
      outstanding_containers = t.outstanding_containers - o.outstanding
    FROM (
      SELECT count(*) AS n, count(*) FILTER (WHERE is_paid) AS paid,
        coalesce(sum(containers), 0) AS containers,
        coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
        coalesce(sum(CASE WHEN is_paid THEN greatest(0, containers - coalesce(received_containers, containers))
          ELSE containers END), 0) AS outstanding,
        coalesce(sum(amount) FILTER (WHERE currency = 'USD'), 0) AS usd,
        coalesce(sum(amount) FILTER (WHERE currency = 'JMD'), 0) AS jmd,
        coalesce(sum(coalesce(amount_received, amount))
          FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'USD'), 0) AS rusd,
        coalesce(sum(coalesce(amount_received, amount))
          FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'JMD'), 0) AS rjmd
      FROM old_rows WHERE status IN ('open', 'lapsed')
    ) o
    WHERE t.id = 1;
  END IF;

  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH up AS (
      INSERT INTO donor_emails (email, pledge_count)
      SELECT lower(email), count(*) FROM new_rows
      WHERE is_paid AND status IN ('open', 'lapsed') GROUP BY 1 ORDER BY 1
      ON CONFLICT (email) DO UPDATE SET pledge_count = donor_emails.pledge_count + excluded.pledge_count
      RETURNING (xmax = 0) AS created
    )
    SELECT count(*) FILTER (WHERE created) INTO new_donors FROM up;
    UPDATE pledge_totals t SET
      pledge_count = t.pledge_count + n.n,
      paid_count = t.paid_count + n.paid,
      containers = t.containers + n.containers,
      confirmed_containers = t.confirmed_containers + n.confirmed,
      usd_amount = t.usd_amount + n.usd,
      jmd_amount = t.jmd_amount + n.jmd,
      received_usd = t.received_usd + n.rusd,
      received_jmd = t.received_jmd + n.rjmd,
      outstanding_containers = t.outstanding_containers + n.outstanding
    FROM (
      SELECT count(*) AS n, count(*) FILTER (WHERE is_paid) AS paid,
        coalesce(sum(containers), 0) AS containers,
        coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
        coalesce(sum(CASE WHEN is_paid THEN greatest(0, containers - coalesce(received_containers, containers))
          ELSE containers END), 0) AS outstanding,
        coalesce(sum(amount) FILTER (WHERE currency = 'USD'), 0) AS usd,
        coalesce(sum(amount) FILTER (WHERE currency = 'JMD'), 0) AS jmd,
        coalesce(sum(coalesce(amount_received, amount))
          FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'USD'), 0) AS rusd,
        coalesce(sum(coalesce(amount_received, amount))
          FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'JMD'), 0) AS rjmd
      FROM new_rows WHERE status IN ('open', 'lapsed')
    ) n
    WHERE t.id = 1;
  END IF;

  -- version: +1 per statement; the row lock orders it as the commits are ordered.
  UPDATE pledge_totals
  SET donor_count = donor_count + new_donors - gone_donors, version = version + 1
  WHERE id = 1;
  RETURN NULL;
END;
$$;
