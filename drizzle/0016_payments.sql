ALTER TABLE "pledges" DROP CONSTRAINT "pledges_amount_received_positive";--> statement-breakpoint
ALTER TABLE "pledge_totals" ADD COLUMN "outstanding_containers" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "amount_received_minor" bigint;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "received_minor" bigint;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_amount_received_positive" CHECK ("pledges"."amount_received" IS NULL OR "pledges"."amount_received" >= 0);
--> statement-breakpoint
-- Money in minor units and one payments row per payment (issue 24, pledges/service.ts). A pledge
-- keeps received_minor, the sum of its active payments credited in cents of its own currency, and
-- amount_received_minor, what arrived in cents of currency_received (amount_received, in whole
-- units, stays for the per-currency totals of 0010). No trigger on payments: a backup restores
-- table by table, and a trigger that changed pledges on insert would count every payment twice.
--
-- pledge_totals.outstanding_containers (the home's "pledged, not yet received"): summed pledge by
-- pledge, so an overpayment never cancels another donor's debt. The rest of pledge_totals_follow()
-- is 0013's, unchanged.
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
    FROM (SELECT lower(email) AS email, count(*) AS n FROM old_rows WHERE is_paid GROUP BY 1 ORDER BY 1) o
    WHERE d.email = o.email;
    DELETE FROM donor_emails
    WHERE pledge_count <= 0 AND email IN (SELECT lower(email) FROM old_rows WHERE is_paid);
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
      FROM old_rows
    ) o
    WHERE t.id = 1;
  END IF;

  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH up AS (
      INSERT INTO donor_emails (email, pledge_count)
      SELECT lower(email), count(*) FROM new_rows WHERE is_paid GROUP BY 1 ORDER BY 1
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
      FROM new_rows
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
--> statement-breakpoint
-- A paid row written without received fields (older code) was paid in full in its own currency.
UPDATE pledges SET amount_received = coalesce(amount_received, amount),
  currency_received = coalesce(currency_received, currency)
WHERE is_paid AND (amount_received IS NULL OR currency_received IS NULL);
--> statement-breakpoint
UPDATE pledges SET
  amount_received_minor = amount_received * 100,
  received_minor = amount_received * 100 * (CASE currency WHEN 'USD' THEN 11 ELSE 1672 END) / (CASE currency_received WHEN 'USD' THEN 11 ELSE 1672 END),
  received_containers = amount_received * 100 * (CASE currency WHEN 'USD' THEN 11 ELSE 1672 END) / (CASE currency_received WHEN 'USD' THEN 11 ELSE 1672 END) / (CASE currency WHEN 'USD' THEN 11 ELSE 1672 END)
WHERE is_paid;
--> statement-breakpoint
-- Every paid pledge gets its one payment (the confirmation that recorded it), dated the day it was
-- confirmed in the campaign's time zone.
INSERT INTO payments (pledge_id, amount_minor, currency, credited_minor, booked_on, source, recorded_at)
SELECT id, amount_received_minor, currency_received, received_minor,
  (coalesce(payment_confirmed_at, created_at) AT TIME ZONE 'America/Jamaica')::date, 'confirm',
  coalesce(payment_confirmed_at, created_at)
FROM pledges WHERE is_paid AND amount_received_minor >= 1;
--> statement-breakpoint
UPDATE pledge_totals t SET
  confirmed_containers = s.confirmed, received_usd = s.rusd, received_jmd = s.rjmd,
  outstanding_containers = s.outstanding, version = t.version + 1
FROM (
  SELECT coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
    coalesce(sum(coalesce(amount_received, amount))
      FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'USD'), 0) AS rusd,
    coalesce(sum(coalesce(amount_received, amount))
      FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'JMD'), 0) AS rjmd,
    coalesce(sum(CASE WHEN is_paid THEN greatest(0, containers - coalesce(received_containers, containers))
      ELSE containers END), 0) AS outstanding
  FROM pledges
) s
WHERE t.id = 1;
