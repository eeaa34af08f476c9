-- Payment references (issue 11, docs/decisions/012-payment-reference.md). pledge_reference() is
-- shared/payment-reference.ts's referenceFor() in SQL; a test keeps the two equal.
CREATE SEQUENCE "public"."pledge_reference_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE FUNCTION pledge_reference(n bigint, prefix text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  len int := 4;
  space bigint := 923521; -- 31^4
  m bigint;
  body text := '';
  total bigint := 0;
BEGIN
  WHILE n >= space LOOP
    len := len + 1;
    space := space * 31;
  END LOOP;
  m := (n * 510529 + 123457) % space;
  FOR i IN 1..len LOOP
    body := substr(alphabet, (m % 31)::int + 1, 1) || body;
    m := m / 31;
  END LOOP;
  FOR i IN 1..len LOOP
    total := total + (i + 1) * (position(substr(body, i, 1) in alphabet) - 1);
  END LOOP;
  RETURN prefix || '-' || body || '-' || substr(alphabet, (total % 31)::int + 1, 1);
END;
$$;--> statement-breakpoint
ALTER TABLE "pledges" ADD COLUMN "reference" text;--> statement-breakpoint
-- Existing pledges, oldest first, with the shipped campaign prefix (the config cannot be read here).
UPDATE pledges p SET reference = pledge_reference(r.n, 'MRJ')
FROM (
  SELECT id, nextval('pledge_reference_seq') AS n
  FROM (SELECT id FROM pledges ORDER BY created_at, id) ordered
) r
WHERE p.id = r.id;--> statement-breakpoint
ALTER TABLE "pledges" ALTER COLUMN "reference" SET DEFAULT pledge_reference(nextval('pledge_reference_seq'), 'MRJ');--> statement-breakpoint
ALTER TABLE "pledges" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_reference_unique" UNIQUE("reference");
--> statement-breakpoint
-- The admin search also looks in references (ILIKE '%7K4Q%'): a trigram index where pg_trgm exists (0004).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS pledges_reference_trgm_idx ON pledges USING gin (reference gin_trgm_ops);
  END IF;
END $$;
