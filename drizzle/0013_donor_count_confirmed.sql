-- The public donor count (issue 9.5, docs/decisions/008): distinct e-mails over CONFIRMED pledges
-- only. Counting every pledge's e-mail let anyone learn whether an address had pledged (even
-- anonymously) by pledging with it and watching the count. donor_emails now holds paid pledges
-- per lower-cased e-mail; the rest of pledge_totals_follow() is 0010's, unchanged.
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
DELETE FROM donor_emails;
--> statement-breakpoint
INSERT INTO donor_emails (email, pledge_count)
  SELECT lower(email), count(*) FROM pledges WHERE is_paid GROUP BY 1 ORDER BY 1;
--> statement-breakpoint
UPDATE pledge_totals
SET donor_count = (SELECT count(*) FROM donor_emails), version = version + 1
WHERE id = 1;
