import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from './schema';

type Transaction = NodePgDatabase<typeof schema>['transaction'];

/**
 * `db.transaction()` on a PostgreSQL pool that always gives its connection back.
 *
 * Drizzle's own (0.45, node-postgres) sends BEGIN before the try/finally that releases the pooled
 * client (drizzle-orm issues 6023 and 6241, open). When BEGIN fails, as it does on a connection
 * that died while idle in the pool (a PostgreSQL restart, a network cut, seen in the test of a
 * database outage), the client is never released: each such failure took one of the pool's 10
 * connections for good. After ten, every request that needed the database waited 3 s and failed
 * until the process restarted, and a graceful shutdown waited for the pool to drain for ever.
 *
 * Here the transaction runs on a client this function checks out and returns in every case. A
 * transaction that failed returns its client as broken (`release(err)`), so the pool opens a new
 * connection rather than reuse one that is dead or may still be inside the transaction: the rule
 * pg-pool itself applies to a failed `pool.query()`.
 */
export function poolTransaction(pool: pg.Pool): Transaction {
  // One Drizzle instance per pooled connection, made on its first transaction: Drizzle on a single
  // client runs BEGIN/COMMIT/ROLLBACK on it and never releases it.
  const onClient = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
  const transaction = async (
    run: Parameters<Transaction>[0],
    config?: Parameters<Transaction>[1],
  ): Promise<unknown> => {
    const client = await pool.connect();
    let failed = false;
    try {
      let db = onClient.get(client);
      if (!db) {
        db = drizzle(client, { schema });
        onClient.set(client, db);
      }
      return await db.transaction(run, config);
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // true: the pool destroys the connection instead of reusing it.
      client.release(failed);
    }
  };
  return transaction as Transaction;
}
