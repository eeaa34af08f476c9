import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { PROJECT_ROOT } from '../config';
import type { Database } from './client';

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
