-- The fulfilment report's rollups (docs/decisions/022-fulfilment-report.md), kept exact by the
-- database so that the report reads a few hundred rows instead of every pledge and payment.
-- Written by hand. Derived tables: not in backups; the triggers rebuild them as rows are restored.
--
-- The day of a pledge (and whether a reminder's day is after a payment's booking day) depends on
-- the campaign's zone: the rollups are kept in pledge_totals.report_time_zone, and the report
-- rebuilds them (report_rollup_rebuild) when the campaign's zone is another.
-- A container's price per currency is the campaign's (campaign.json `currencies`), kept beside the
-- zone in pledge_totals.report_usd_unit / report_jmd_unit; a change rebuilds the rollups.
ALTER TABLE "pledge_totals" ADD COLUMN "report_time_zone" text DEFAULT 'America/Jamaica' NOT NULL;--> statement-breakpoint
ALTER TABLE "pledge_totals" ADD COLUMN "report_usd_unit" bigint DEFAULT 11 NOT NULL;--> statement-breakpoint
ALTER TABLE "pledge_totals" ADD COLUMN "report_jmd_unit" bigint DEFAULT 1672 NOT NULL;--> statement-breakpoint
-- Counted pledges (open, lapsed) by their day in the zone and currency; the sums of
-- pledges.received_minor and of what is still owed. A row whose pledges fell to 0 holds zeros.
CREATE TABLE "report_pledge_days" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"pledges" bigint DEFAULT 0 NOT NULL,
	"pledged_minor" bigint DEFAULT 0 NOT NULL,
	"pledged_containers" bigint DEFAULT 0 NOT NULL,
	"received_minor" bigint DEFAULT 0 NOT NULL,
	"received_containers" bigint DEFAULT 0 NOT NULL,
	"owing" bigint DEFAULT 0 NOT NULL,
	"owed_minor" bigint DEFAULT 0 NOT NULL,
	"owed_containers" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_pledge_days_pkey" PRIMARY KEY ("day", "currency")
);
--> statement-breakpoint
-- Each active payment of a counted pledge, with what the report needs of it: the containers it
-- adds (its step in floor(credited so far / unit), in booking order), the last reminder before it
-- and, for the payment that completed its pledge, the days from the pledge's day. A payment's row
-- depends on its pledge's other payments, on the pledge and on its reminders, so a change to any of
-- them replaces all the rows of that pledge (report_payments_refresh).
CREATE TABLE "report_payments" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"pledge_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"booked_on" date NOT NULL,
	"credited_minor" bigint NOT NULL,
	"containers" bigint NOT NULL,
	"reminder" integer NOT NULL,
	"done_days" integer
);
--> statement-breakpoint
CREATE INDEX "report_payments_pledge_idx" ON "report_payments" USING btree ("pledge_id");--> statement-breakpoint
-- report_payments summed three ways: by booking day (key: days since 2000-01-01), by last
-- reminder (key: its step) and by days to full payment (key: the days; completing payments only).
CREATE TABLE "report_payment_groups" (
	"kind" text NOT NULL,
	"key" integer NOT NULL,
	"currency" text NOT NULL,
	"payments" bigint DEFAULT 0 NOT NULL,
	"minor" bigint DEFAULT 0 NOT NULL,
	"containers" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_payment_groups_pkey" PRIMARY KEY ("kind", "key", "currency"),
	CONSTRAINT "report_payment_groups_kind_known" CHECK ("kind" IN ('day', 'reminder', 'days-to-paid'))
);
--> statement-breakpoint
CREATE FUNCTION report_pledge_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  usd_unit bigint;
  jmd_unit bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM report_pledge_days;
    RETURN NULL;
  END IF;
  -- The table lock first, the zone after: a rebuild for a new zone (EXCLUSIVE) is waited for, and
  -- the zone is then read as it left it.
  LOCK TABLE report_pledge_days IN ROW EXCLUSIVE MODE;
  SELECT report_time_zone, report_usd_unit, report_jmd_unit INTO tz, usd_unit, jmd_unit
  FROM pledge_totals WHERE id = 1;
  tz := coalesce(tz, 'America/Jamaica');
  usd_unit := coalesce(usd_unit, 11);
  jmd_unit := coalesce(jmd_unit, 1672);
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO report_pledge_days AS d (day, currency, pledges, pledged_minor, pledged_containers,
      received_minor, received_containers, owing, owed_minor, owed_containers)
    SELECT day, currency, -count(*), -sum(pledged), -sum(containers), -sum(received),
      -sum(received / unit), -count(*) FILTER (WHERE owed > 0),
      -coalesce(sum(owed) FILTER (WHERE owed > 0), 0),
      -coalesce(sum(containers - received / unit) FILTER (WHERE owed > 0), 0)
    FROM (
      SELECT (o.created_at AT TIME ZONE tz)::date AS day, o.currency,
        o.amount::bigint * 100 AS pledged, o.containers, coalesce(o.received_minor, 0) AS received,
        o.amount::bigint * 100 - coalesce(o.received_minor, 0) AS owed,
        CASE o.currency WHEN 'USD' THEN usd_unit ELSE jmd_unit END AS unit
      FROM old_rows o WHERE o.status IN ('open', 'lapsed')
    ) x
    GROUP BY day, currency ORDER BY day, currency
    ON CONFLICT (day, currency) DO UPDATE SET
      pledges = d.pledges + excluded.pledges,
      pledged_minor = d.pledged_minor + excluded.pledged_minor,
      pledged_containers = d.pledged_containers + excluded.pledged_containers,
      received_minor = d.received_minor + excluded.received_minor,
      received_containers = d.received_containers + excluded.received_containers,
      owing = d.owing + excluded.owing,
      owed_minor = d.owed_minor + excluded.owed_minor,
      owed_containers = d.owed_containers + excluded.owed_containers;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO report_pledge_days AS d (day, currency, pledges, pledged_minor, pledged_containers,
      received_minor, received_containers, owing, owed_minor, owed_containers)
    SELECT day, currency, count(*), sum(pledged), sum(containers), sum(received),
      sum(received / unit), count(*) FILTER (WHERE owed > 0),
      coalesce(sum(owed) FILTER (WHERE owed > 0), 0),
      coalesce(sum(containers - received / unit) FILTER (WHERE owed > 0), 0)
    FROM (
      SELECT (n.created_at AT TIME ZONE tz)::date AS day, n.currency,
        n.amount::bigint * 100 AS pledged, n.containers, coalesce(n.received_minor, 0) AS received,
        n.amount::bigint * 100 - coalesce(n.received_minor, 0) AS owed,
        CASE n.currency WHEN 'USD' THEN usd_unit ELSE jmd_unit END AS unit
      FROM new_rows n WHERE n.status IN ('open', 'lapsed')
    ) x
    GROUP BY day, currency ORDER BY day, currency
    ON CONFLICT (day, currency) DO UPDATE SET
      pledges = d.pledges + excluded.pledges,
      pledged_minor = d.pledged_minor + excluded.pledged_minor,
      pledged_containers = d.pledged_containers + excluded.pledged_containers,
      received_minor = d.received_minor + excluded.received_minor,
      received_containers = d.received_containers + excluded.received_containers,
      owing = d.owing + excluded.owing,
      owed_minor = d.owed_minor + excluded.owed_minor,
      owed_containers = d.owed_containers + excluded.owed_containers;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Replaces the report_payments rows of the given pledges (all pledges when ids is null) with rows
-- computed from the payments, pledges and reminders as they are now. The plan must not depend on
-- statistics (PGlite has no autovacuum; triggers run before any ANALYZE): up to a few thousand
-- pledges are read through their indexes, more (a restore, a bulk insert) by recomputing every row.
CREATE FUNCTION report_payments_refresh(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  usd_unit bigint;
  jmd_unit bigint;
  pid uuid;
  filter text := 'true';
BEGIN
  -- Two transactions refreshing the same pledge (two payments at once, a payment and a reminder)
  -- take turns, and the second's statements below see the first's rows once it has committed. A
  -- lock per pledge for a few; for many, one on the table, which also waits for those under way.
  IF ids IS NOT NULL AND cardinality(ids) <= 64 THEN
    FOR pid IN SELECT DISTINCT u FROM unnest(ids) u ORDER BY u LOOP
      PERFORM pg_advisory_xact_lock(2025, hashtext(pid::text));
    END LOOP;
  ELSE
    LOCK TABLE report_payments IN SHARE ROW EXCLUSIVE MODE;
  END IF;
  -- Up to a few thousand pledges (a statement import) by their ids; beyond, every row.
  IF ids IS NOT NULL AND cardinality(ids) <= 5000 THEN
    DELETE FROM report_payments WHERE pledge_id = ANY (ids);
    filter := 'pay.pledge_id = ANY ($1)';
  ELSE
    DELETE FROM report_payments;
  END IF;
  SELECT report_time_zone, report_usd_unit, report_jmd_unit INTO tz, usd_unit, jmd_unit
  FROM pledge_totals WHERE id = 1;
  tz := coalesce(tz, 'America/Jamaica');
  usd_unit := coalesce(usd_unit, 11);
  jmd_unit := coalesce(jmd_unit, 1672);
  -- The last reminder before each payment: looked up through outbox_pledge_idx per payment.
  EXECUTE format($q$
    INSERT INTO report_payments (payment_id, pledge_id, currency, booked_on, credited_minor,
      containers, reminder, done_days)
    WITH pay AS (
      SELECT pay.id, pay.pledge_id, pay.booked_on, pay.recorded_at, pay.credited_minor,
        p.currency, p.amount::bigint * 100 AS pledged_minor, p.created_at,
        CASE p.currency WHEN 'USD' THEN $3::bigint ELSE $4::bigint END AS unit,
        (sum(pay.credited_minor) OVER (
          PARTITION BY pay.pledge_id ORDER BY pay.booked_on, pay.recorded_at, pay.id
        ))::bigint AS running
      FROM payments pay JOIN pledges p ON p.id = pay.pledge_id
      WHERE pay.reversed_at IS NULL AND p.status IN ('open', 'lapsed') AND %s
    )
    SELECT pay.id, pay.pledge_id, pay.currency, pay.booked_on, pay.credited_minor,
      pay.running / pay.unit - (pay.running - pay.credited_minor) / pay.unit,
      coalesce((
        SELECT max(o.step) FROM outbox o
        WHERE o.pledge_id = pay.pledge_id AND o.kind = 'reminder' AND o.step IS NOT NULL
          AND o.sent_at IS NOT NULL AND o.sent_at <= pay.recorded_at
          AND (o.sent_at AT TIME ZONE $2)::date <= pay.booked_on
      ), 0),
      CASE WHEN pay.running >= pay.pledged_minor
          AND pay.running - pay.credited_minor < pay.pledged_minor
        THEN pay.booked_on - (pay.created_at AT TIME ZONE $2)::date END
    FROM pay
    ORDER BY pay.id
  $q$, filter) USING ids, tz, usd_unit, jmd_unit;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION report_payments_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    -- Pledges or payments emptied: no payment is left. Reminders emptied: recompute them all.
    IF TG_TABLE_NAME = 'outbox' THEN
      PERFORM report_payments_refresh(NULL);
    ELSE
      DELETE FROM report_payments;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'payments' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM (
        SELECT pledge_id FROM old_rows UNION SELECT pledge_id FROM new_rows) x;
    END IF;
  ELSIF TG_TABLE_NAME = 'pledges' THEN
    IF TG_OP = 'DELETE' THEN
      SELECT array_agg(id) INTO ids FROM old_rows;
    ELSE
      -- Only what a payment's row depends on: most updates of a pledge change none of it.
      SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.created_at, n.amount, n.currency, n.status)
        IS DISTINCT FROM (o.created_at, o.amount, o.currency, o.status);
    END IF;
  ELSE
    -- outbox: sent reminders only.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM new_rows
      WHERE kind = 'reminder' AND sent_at IS NOT NULL AND pledge_id IS NOT NULL;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM old_rows
      WHERE kind = 'reminder' AND sent_at IS NOT NULL AND pledge_id IS NOT NULL;
    ELSE
      SELECT array_agg(DISTINCT pledge_id) INTO ids FROM (
        SELECT o.pledge_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.kind = 'reminder' OR n.kind = 'reminder')
          AND (o.sent_at IS NOT NULL OR n.sent_at IS NOT NULL)
          AND (o.kind, o.step, o.sent_at, o.pledge_id) IS DISTINCT FROM (n.kind, n.step, n.sent_at, n.pledge_id)
        UNION SELECT n.pledge_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.kind = 'reminder' OR n.kind = 'reminder')
          AND (o.sent_at IS NOT NULL OR n.sent_at IS NOT NULL)
          AND (o.kind, o.step, o.sent_at, o.pledge_id) IS DISTINCT FROM (n.kind, n.step, n.sent_at, n.pledge_id)
      ) x WHERE pledge_id IS NOT NULL;
    END IF;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM report_payments_refresh(ids);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION report_payment_groups_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM report_payment_groups;
    RETURN NULL;
  END IF;
  -- report_payments rows are only inserted and deleted (report_payments_refresh): added or taken
  -- away, by booking day (days since 2000-01-01), by last reminder and by days to full payment.
  EXECUTE format($q$
    INSERT INTO report_payment_groups AS g (kind, key, currency, payments, minor, containers)
    SELECT kind, key, currency, %1$s * count(*), %1$s * sum(credited_minor), %1$s * sum(containers)
    FROM (
      SELECT 'day' AS kind, booked_on - date '2000-01-01' AS key, currency, credited_minor,
        containers FROM %2$I
      UNION ALL
      SELECT 'reminder', reminder, currency, credited_minor, containers FROM %2$I
      UNION ALL
      SELECT 'days-to-paid', done_days, currency, credited_minor, containers FROM %2$I
      WHERE done_days IS NOT NULL
    ) x
    GROUP BY kind, key, currency ORDER BY kind, key, currency
    ON CONFLICT (kind, key, currency) DO UPDATE SET
      payments = g.payments + excluded.payments,
      minor = g.minor + excluded.minor,
      containers = g.containers + excluded.containers
  $q$, CASE TG_OP WHEN 'INSERT' THEN '1' ELSE '-1' END,
    CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The rollups for another zone or other prices (the campaign's timeZone or currencies changed): the tables are locked first, so
-- the triggers of other transactions wait and then read the new zone.
CREATE FUNCTION report_rollup_rebuild(tz text, usd_unit bigint, jmd_unit bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE report_pledge_days, report_payments IN EXCLUSIVE MODE;
  UPDATE pledge_totals
  SET report_time_zone = tz, report_usd_unit = usd_unit, report_jmd_unit = jmd_unit
  WHERE id = 1;
  DELETE FROM report_pledge_days;
  INSERT INTO report_pledge_days (day, currency, pledges, pledged_minor, pledged_containers,
    received_minor, received_containers, owing, owed_minor, owed_containers)
  SELECT day, currency, count(*), sum(pledged), sum(containers), sum(received),
    sum(received / unit), count(*) FILTER (WHERE owed > 0),
    coalesce(sum(owed) FILTER (WHERE owed > 0), 0),
    coalesce(sum(containers - received / unit) FILTER (WHERE owed > 0), 0)
  FROM (
    SELECT (p.created_at AT TIME ZONE tz)::date AS day, p.currency,
      p.amount::bigint * 100 AS pledged, p.containers, coalesce(p.received_minor, 0) AS received,
      p.amount::bigint * 100 - coalesce(p.received_minor, 0) AS owed,
      CASE p.currency WHEN 'USD' THEN usd_unit ELSE jmd_unit END AS unit
    FROM pledges p WHERE p.status IN ('open', 'lapsed')
  ) x
  GROUP BY day, currency;
  PERFORM report_payments_refresh(NULL);
END;
$$;
--> statement-breakpoint
CREATE TRIGGER pledges_report_days_insert AFTER INSERT ON pledges
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_pledge_days_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_days_update AFTER UPDATE ON pledges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_pledge_days_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_days_delete AFTER DELETE ON pledges
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_pledge_days_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_days_truncate AFTER TRUNCATE ON pledges
  FOR EACH STATEMENT EXECUTE FUNCTION report_pledge_days_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_payments_update AFTER UPDATE ON pledges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_payments_delete AFTER DELETE ON pledges
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER pledges_report_payments_truncate AFTER TRUNCATE ON pledges
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER payments_report_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER payments_report_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER payments_report_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER payments_report_truncate AFTER TRUNCATE ON payments
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER outbox_report_insert AFTER INSERT ON outbox
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER outbox_report_update AFTER UPDATE ON outbox
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER outbox_report_delete AFTER DELETE ON outbox
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER outbox_report_truncate AFTER TRUNCATE ON outbox
  FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();--> statement-breakpoint
CREATE TRIGGER report_payments_groups_insert AFTER INSERT ON report_payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payment_groups_follow();--> statement-breakpoint
CREATE TRIGGER report_payments_groups_delete AFTER DELETE ON report_payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payment_groups_follow();--> statement-breakpoint
CREATE TRIGGER report_payments_groups_truncate AFTER TRUNCATE ON report_payments
  FOR EACH STATEMENT EXECUTE FUNCTION report_payment_groups_follow();--> statement-breakpoint
-- The rows already there, in the default zone (the report rebuilds them if the campaign's differs).
SELECT report_rollup_rebuild('America/Jamaica', 11, 1672);
