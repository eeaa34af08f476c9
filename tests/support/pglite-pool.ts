import type { PGlite } from '@electric-sql/pglite';

/**
 * The PGlite databases of this worker's test apps, used again from one test file to the next
 * instead of loading the template for every app: loading one costs ~0.7 CPU-seconds, and the API
 * projects start about a hundred apps each; putting one back as the template left it costs a few
 * hundredths (docs/decisions/011-test-suite-speed.md).
 *
 * Put back means: no transaction or session state (DISCARD ALL), every table emptied, the
 * template's rows put back (the totals row and the progress row the migrations insert), the
 * sequences (payment references) restarted and the statistics counters zeroed. A database whose
 * schema a test changed (its catalog no longer matches the template's) is closed, not reused.
 * Only the apps' own databases come from here; a test that opens a database itself
 * (createTestDatabase) still gets a fresh one.
 */
export interface PglitePool {
  take(): Promise<PGlite>;
  /** Resets and keeps the database, or closes it if it cannot be reset to the template. */
  give(client: PGlite): Promise<void>;
}

/** Idle databases kept per worker: a file starts at most a few apps at a time. */
const MAX_IDLE = 2;

/** Tables, columns, indexes, constraints, triggers, functions, extensions and applied migrations. */
const CATALOG_FINGERPRINT = `
  select md5(string_agg(x, '|' order by x)) as fingerprint from (
    select format('%s %s %s', c.oid::regclass, c.relkind, c.relnatts) as x
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all
    select format('%s.%s %s %s %s', a.attrelid::regclass, a.attname, a.atttypid, a.attnotnull,
        pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
        and a.attnum > 0 and not a.attisdropped
    union all
    select format('%s %s', conrelid::regclass, pg_get_constraintdef(oid)) from pg_constraint
      where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    union all
    select pg_get_indexdef(indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relnamespace not in ('pg_catalog'::regnamespace, 'pg_toast'::regnamespace)
    union all
    select format('%s %s', tgrelid::regclass, tgname) from pg_trigger where not tgisinternal
    union all
    select format('%s %s', proname, md5(prosrc)) from pg_proc
      where pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    union all
    select extname || extversion from pg_extension
    union all
    select hash from drizzle.__drizzle_migrations
  ) catalog`;

interface Template {
  fingerprint: string;
  /** Runs after DISCARD ALL: empties the tables, puts the template's rows back, restarts sequences. */
  reset: string;
}

async function fingerprint(client: PGlite): Promise<string> {
  const res = await client.query<{ fingerprint: string }>(CATALOG_FINGERPRINT);
  return res.rows[0]!.fingerprint;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** What "as the template left it" is, read from a database just loaded from the template. */
async function readTemplate(client: PGlite): Promise<Template> {
  const tables = (
    await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname = 'public' order by 1`,
    )
  ).rows.map((r) => r.name);
  const statements = [`truncate ${tables.join(', ')} restart identity cascade`];
  for (const table of tables) {
    const rows = (
      await client.query<{ rows: string | null }>(
        `select json_agg(t)::text as rows from ${table} t`,
      )
    ).rows[0]!.rows;
    if (rows)
      statements.push(
        `insert into ${table} select * from json_populate_recordset(null::${table}, ${literal(rows)})`,
      );
  }
  statements.push(
    `select setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false)
     from pg_sequences where schemaname = 'public'`,
    'select pg_stat_reset()',
  );
  return { fingerprint: await fingerprint(client), reset: statements.join(';\n') };
}

export function pglitePool(open: () => Promise<PGlite>): PglitePool {
  const idle: PGlite[] = [];
  let template: Promise<Template> | undefined;

  return {
    async take() {
      const reused = idle.pop();
      if (reused) return reused;
      const client = await open();
      template ??= readTemplate(client);
      await template;
      return client;
    },
    async give(client) {
      if (client.closed) return;
      try {
        const expected = await template!;
        if (idle.length >= MAX_IDLE) throw new Error('enough idle databases');
        // A transaction a test left open (a no-op otherwise), then the session's state: settings,
        // prepared statements, temporary tables, LISTENs, advisory locks. DISCARD ALL must run on
        // its own, outside the reset's implicit transaction.
        await client.exec('rollback');
        await client.exec('discard all');
        if ((await fingerprint(client)) !== expected.fingerprint) throw new Error('schema changed');
        await client.exec(expected.reset);
        idle.push(client);
      } catch {
        await client.close();
      }
    },
  };
}
