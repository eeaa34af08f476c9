import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PROJECT_ROOT } from '../config';
import { acquireDataDirLock } from './data-dir-lock';
import { poolTransaction } from './pool-transaction';
import * as schema from './schema';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, typeof schema, any>;
/** A transaction or the database itself: repo functions take either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The node-postgres pool (LISTEN/NOTIFY, advisory locks); absent on PGlite. */
  pool?: pg.Pool;
  pglite?: PGlite;
  close(): Promise<void>;
}

/** node-postgres returns bigint/numeric as strings; our sums and counts fit in a JS number. */
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Extensions every PGlite on a DATA_DIR is opened with. pg_trgm backs the admin search's indexes
 * (migration 0004): once they exist, a PGlite without it could not even insert a pledge, so every
 * opener of a data folder must pass these.
 */
export const pgliteExtensions = { pg_trgm };

/**
 * PostgreSQL's 128 MB of shared buffers live inside PGlite's WebAssembly memory, are touched at
 * start and never given back: 32 MB holds the hot pages (the newest pledges, the totals row) of a
 * 100,000-pledge campaign and saves ~100 MB of resident memory; colder pages come from the OS
 * file cache (docs/decisions/005-performance.md).
 */
const PGLITE_MEMORY_PARAMS = ['-c', 'shared_buffers=32MB'];

function pgliteStartParams(fsync: boolean): string[] {
  // PGlite starts with -F (fsync off). We keep fsync on so an acknowledged pledge survives a crash
  // (docs/decisions/002-pglite-fsync.md).
  const params = fsync
    ? PGlite.defaultStartParams.filter((p) => p !== '-F')
    : PGlite.defaultStartParams;
  return [...params, ...PGLITE_MEMORY_PARAMS];
}

/**
 * How every PGlite of this project is opened, the server's and the tests' alike: the extensions
 * (without them the migrations skip the search indexes) and the start parameters.
 */
export function pgliteOptions(fsync: boolean) {
  return { extensions: pgliteExtensions, startParams: pgliteStartParams(fsync) };
}

export function wrapPglite(client: PGlite, close = () => client.close()): Database {
  return {
    kind: 'pglite',
    db: drizzlePglite(client, { schema }) as unknown as Db,
    pglite: client,
    close,
  };
}

/**
 * Opens PGlite under DATA_DIR/pgdata. A new folder's initdb runs in a short-lived child process:
 * initdb leaves ~800 MB resident in the process that ran it, reopening costs ~300 MB.
 */
export async function openPglite(dataDir: string, fsync: boolean): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDataDirLock(dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  try {
    if (!existsSync(path.join(pgdata, 'PG_VERSION'))) {
      const script = path.join(PROJECT_ROOT, 'scripts', 'pglite-init.mjs');
      const res = spawnSync(process.execPath, [script, pgdata], { stdio: 'inherit' });
      if (res.status !== 0) throw new Error(`Could not initialise the database in ${pgdata}`);
    }
    const client = await PGlite.create(pgdata, pgliteOptions(fsync));
    return wrapPglite(client, async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    });
  } catch (err) {
    release();
    throw err;
  }
}

export function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Fail fast while the database is down instead of queueing requests for ever.
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one (a worker holding a transaction, a LISTEN client): without a
  // listener its socket error is an unhandled 'error' event; its pending query still rejects.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Drizzle's pooled transaction can keep a connection for ever (see pool-transaction.ts).
  db.transaction = poolTransaction(pool) as unknown as Db['transaction'];
  return { kind: 'postgres', db, pool, close: () => pool.end() };
}

export async function openDatabase(cfg: {
  databaseUrl?: string;
  dataDir: string;
  pgliteFsync: boolean;
}): Promise<Database> {
  return cfg.databaseUrl ? openPostgres(cfg.databaseUrl) : openPglite(cfg.dataDir, cfg.pgliteFsync);
}
