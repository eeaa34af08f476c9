import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { PROJECT_ROOT } from '../config';
import type { Database, DbOrTx } from './client';

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'drizzle');
/** Arbitrary constant key: every instance of this app takes the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_411_902_385;

/**
 * Applies the committed SQL migrations; on PostgreSQL under an advisory lock. A restore passes a
 * folder that stops at the backup's level.
 */
export async function runMigrations(
  database: Database,
  migrationsFolder = MIGRATIONS_FOLDER,
): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** The migrations this version of the app knows, oldest first. */
export function migrationJournal(folder = MIGRATIONS_FOLDER): { tag: string; when: number }[] {
  return JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')).entries;
}

/** How many migrations this database has applied (0 when it has none). */
export async function appliedMigrations(db: DbOrTx): Promise<number> {
  const res = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`,
  )) as unknown as { rows: { ok: boolean }[] };
  if (!res.rows[0]?.ok) return 0;
  const n = (await db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { n: number }[] };
  return Number(n.rows[0]?.n ?? 0);
}
