-- Amount received (issue 11, item 2): what arrived is recorded at confirmation; confirmedAmount
-- counts the containers of the money received, and the totals row keeps the received money per
-- currency. A paid row without these fields (written by older code) counts as paid in full.
ALTER TABLE "pledge_totals" ADD COLUMN "received_usd" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pledge_totals" ADD COLUMN "received_jmd" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "amount_received" bigint;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "currency_received" text;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "received_containers" bigint;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_currency_received_known"
  CHECK (currency_received IS NULL OR currency_received IN ('USD', 'JMD'));--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_amount_received_positive"
  CHECK (amount_received IS NULL OR amount_received >= 1);--> statement-breakpoint
-- Pledges confirmed before this migration: paid in full, in their own currency.
UPDATE pledges SET amount_received = amount, currency_received = currency,
  received_containers = containers
WHERE is_paid;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pledge_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_donors bigint := 0;
  gone_donors bigint := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM donor_emails;
    UPDATE pledge_totals SET pledge_count = 0, paid_count = 0, containers = 0,
      confirmed_containers = 0, usd_amount = 0, jmd_amount = 0, donor_count = 0,
      received_usd = 0, received_jmd = 0,
      version = version + 1
    WHERE id = 1;
    RETURN NULL;
  END IF;

  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE donor_emails d SET pledge_count = d.pledge_count - o.n
    FROM (SELECT lower(email) AS email, count(*) AS n FROM old_rows GROUP BY 1 ORDER BY 1) o
    WHERE d.email = o.email;
    DELETE FROM donor_emails
    WHERE pledge_count <= 0 AND email IN (SELECT lower(email) FROM old_rows);
    GET DIAGNOSTICS gone_donors = ROW_COUNT;
    UPDATE pledge_totals t SET
      pledge_count = t.pledge_count - o.n,
      paid_count = t.paid_count - o.paid,
      containers = t.containers - o.containers,
      confirmed_containers = t.confirmed_containers - o.confirmed,
      usd_amount = t.usd_amount - o.usd,
      jmd_amount = t.jmd_amount - o.jmd,
      received_usd = t.received_usd - o.rusd,
      received_jmd = t.received_jmd - o.rjmd
    FROM (
      SELECT count(*) AS n, count(*) FILTER (WHERE is_paid) AS paid,
        coalesce(sum(containers), 0) AS containers,
        coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
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
      SELECT lower(email), count(*) FROM new_rows GROUP BY 1 ORDER BY 1
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
      received_jmd = t.received_jmd + n.rjmd
    FROM (
      SELECT count(*) AS n, count(*) FILTER (WHERE is_paid) AS paid,
        coalesce(sum(containers), 0) AS containers,
        coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
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
UPDATE pledge_totals t SET
  confirmed_containers = s.confirmed, received_usd = s.rusd, received_jmd = s.rjmd,
  version = t.version + 1
FROM (
  SELECT coalesce(sum(coalesce(received_containers, containers)) FILTER (WHERE is_paid), 0) AS confirmed,
    coalesce(sum(coalesce(amount_received, amount))
      FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'USD'), 0) AS rusd,
    coalesce(sum(coalesce(amount_received, amount))
      FILTER (WHERE is_paid AND coalesce(currency_received, currency) = 'JMD'), 0) AS rjmd
  FROM pledges
) s
WHERE t.id = 1;
