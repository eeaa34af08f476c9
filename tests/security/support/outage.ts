import { openPostgres, type Database } from '../../../server/db/client';
import { createTestDatabase, testDbKind } from '../../support/test-app';
import { proxiedPostgres } from '../../support/proxied-postgres';

/**
 * A database that a test can take away from the app: PostgreSQL through a TCP proxy that is cut
 * (connections reset, new ones refused), PGlite closed under the app's feet.
 */
export async function breakableDatabase(): Promise<{
  database: Database;
  fail(): Promise<void>;
  dispose(): Promise<void>;
}> {
  if (testDbKind() === 'pglite') {
    const created = await createTestDatabase('pglite');
    let closed = false;
    return {
      database: created.database,
      async fail() {
        closed = true;
        await created.database.close();
      },
      async dispose() {
        if (!closed) await created.database.close();
      },
    };
  }
  const proxied = await proxiedPostgres();
  const database = openPostgres(proxied.url);
  return {
    database,
    fail: () => proxied.proxy.cut(),
    async dispose() {
      await database.close().catch(() => undefined);
      await proxied.dispose();
    },
  };
}
