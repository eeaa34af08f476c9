-- Keyed payment references (second review 2.9, docs/decisions/012-payment-reference.md). Written
-- by hand. pledge_reference_keyed() is shared/payment-reference.ts's keyedReferenceFor() in SQL; a
-- test keeps the two equal. The key is made by the app at its first start (settings row
-- payment_reference_key, JSON {"key": "<63-bit integer>", "from": <first keyed pledge number>}).
CREATE FUNCTION pledge_reference_mix(h bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  h := (((h >> 16) # h) * 73244475) & 4294967295; -- 0x45d9f3b, low 32 bits
  h := (((h >> 16) # h) * 73244475) & 4294967295;
  RETURN (h >> 16) # h;
END;
$$;--> statement-breakpoint
CREATE FUNCTION pledge_reference_shuffle(x bigint, len int, key bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  size_l bigint := 31::bigint ^ (len / 2);
  size_r bigint := 31::bigint ^ (len - len / 2);
  words bigint[] := ARRAY[key & 4294967295, (key >> 32) & 4294967295];
  l bigint := x / size_r;
  r bigint := x % size_r;
  round_key bigint;
BEGIN
  FOR i IN 0..7 LOOP
    round_key := pledge_reference_mix(words[i % 2 + 1] # (((i + 1) * 2654435769::bigint) & 4294967295));
    IF i % 2 = 0 THEN
      l := (l + pledge_reference_mix(r # round_key) % size_l) % size_l;
    ELSE
      r := (r + pledge_reference_mix(l # round_key) % size_r) % size_r;
    END IF;
  END LOOP;
  RETURN l * size_r + r;
END;
$$;--> statement-breakpoint
CREATE FUNCTION pledge_reference_keyed(n bigint, prefix text, key bigint, keyed_from bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  len int := 4;
  space bigint := 923521; -- 31^4
  lowest bigint;
  x bigint;
BEGIN
  IF n < keyed_from OR n < 1 THEN
    RETURN pledge_reference(n, prefix);
  END IF;
  WHILE n >= space LOOP
    len := len + 1;
    space := space * 31;
  END LOOP;
  IF len > 12 THEN
    RAISE EXCEPTION 'pledge number % is out of range', n;
  END IF;
  lowest := greatest(keyed_from, CASE WHEN len = 4 THEN 1 ELSE space / 31 END);
  x := pledge_reference_shuffle(n, len, key);
  WHILE x < lowest LOOP
    x := pledge_reference_shuffle(x, len, key);
  END LOOP;
  RETURN pledge_reference(x, prefix);
END;
$$;--> statement-breakpoint
-- The column default (plain SQL inserts by other tools) uses the install's key once there is one:
-- a default without it would hand out public references that a keyed one can later repeat (the
-- UNIQUE constraint would then refuse the app's insert).
CREATE FUNCTION pledge_reference_next(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  n bigint := nextval('pledge_reference_seq');
  k json;
BEGIN
  SELECT value::json INTO k FROM settings WHERE key = 'payment_reference_key';
  IF k IS NULL THEN
    RETURN pledge_reference(n, prefix);
  END IF;
  RETURN pledge_reference_keyed(n, prefix, (k->>'key')::bigint, (k->>'from')::bigint);
END;
$$;--> statement-breakpoint
ALTER TABLE "pledges" ALTER COLUMN "reference" SET DEFAULT pledge_reference_next('MRJ');
