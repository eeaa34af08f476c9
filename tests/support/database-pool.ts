/**
 * The databases of this worker's test apps, used again from one test file to the next instead of
 * making a new copy of the template for every app. Loading a PGlite database costs ~0.7
 * CPU-seconds, copying a PostgreSQL one and dropping it after ~0.2 s, and the API projects start
 * about a hundred apps each; putting one back as the template left it costs a few hundredths
 * (docs/decisions/011-test-suite-speed.md).
 *
 * Put back means: no transaction or session state (DISCARD ALL), every table emptied, the
 * template's rows put back (the totals row and the progress row the migrations insert), the
 * sequences (payment references) restarted and the statistics counters zeroed. A database whose
 * schema a test changed (its catalog no longer matches the template's), or that someone else is
 * still connected to, is closed (dropped), not reused. Only the apps' own databases come from
 * here; a test that opens a database itself (createTestDatabase) still gets a fresh one.
 */
export interface DatabasePool<D> {
  take(): Promise<D>;
  /** Resets and keeps the database, or closes it if it cannot be reset to the template. */
  give(database: D): Promise<void>;
}

/** What the pool needs of a connection: PGlite has both; a pg.Client is adapted. */
interface Sql {
  query<T>(text: string): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}

export interface PoolDriver<D> {
  /** A new copy of the template. */
  open(): Promise<D>;
  /** A connection to the database, and how to let go of it. */
  connect(database: D): Promise<{ sql: Sql; release(): Promise<void> }>;
  /** Closes (drops) a database the pool does not keep. */
  close(database: D): Promise<void>;
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

async function fingerprint(client: Sql): Promise<string> {
  const res = await client.query<{ fingerprint: string }>(CATALOG_FINGERPRINT);
  return res.rows[0]!.fingerprint;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** What "as the template left it" is, read from a database just loaded from the template. */
async function readTemplate(client: Sql): Promise<Template> {
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

/**
 * Puts a database back as the template left it; false (and nothing reset) if it cannot be: someone
 * is still connected to it, or its schema is no longer the template's.
 */
async function resetToTemplate(sql: Sql, expected: Template): Promise<boolean> {
  // A transaction a test left open (a no-op otherwise), then the session's state: settings,
  // prepared statements, temporary tables, LISTENs, advisory locks. DISCARD ALL must run on its
  // own, outside the reset's implicit transaction.
  await sql.exec('rollback');
  await sql.exec('discard all');
  const others = await sql.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid()`,
  );
  if (others.rows[0]!.n > 0 || (await fingerprint(sql)) !== expected.fingerprint) return false;
  await sql.exec(expected.reset);
  return true;
}

export function databasePool<D>(driver: PoolDriver<D>): DatabasePool<D> {
  const idle: D[] = [];
  let template: Promise<Template> | undefined;

  const reset = async (database: D): Promise<boolean> => {
    const { sql, release } = await driver.connect(database);
    try {
      return await resetToTemplate(sql, await template!);
    } finally {
      await release();
    }
  };

  return {
    async take() {
      const reused = idle.pop();
      if (reused !== undefined) return reused;
      const database = await driver.open();
      if (!template) {
        const { sql, release } = await driver.connect(database);
        template = readTemplate(sql).finally(release);
      }
      await template;
      return database;
    },
    async give(database) {
      const kept = idle.length < MAX_IDLE && (await reset(database).catch(() => false));
      if (kept) idle.push(database);
      else await driver.close(database);
    },
  };
}
