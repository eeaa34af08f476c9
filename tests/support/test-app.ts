import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/config';
import { openPostgres, pgliteOptions, wrapPglite, type Database } from '../../server/db/client';
import { adminQuery, databaseUrl } from '../setup/services';
import { TEST_ADMIN_PASSWORD } from './admin-password';
import { login } from './api';
import { databasePool, type PoolDriver } from './database-pool';

export { TEST_ADMIN_PASSWORD };
export type TestDbKind = 'pglite' | 'postgres';
export const testDbKind = (): TestDbKind =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A Blob over bytes already in memory, whose arrayBuffer() hands out those bytes instead of a new
 * copy. PGlite only reads what it is given (it untars a copy of each file into its in-memory file
 * system), so every test database of a worker can load from the same bytes.
 */
class BufferBlob extends Blob {
  constructor(private readonly contents: ArrayBuffer) {
    super();
  }
  override get size(): number {
    return this.contents.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.contents);
  }
}
const bytesOf = (file: string) => {
  const b = readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

let template: { file: string; blob: Blob } | undefined;
let fsBundle: Blob | undefined;
/**
 * What a PGlite test database is loaded from, read once per worker: the template's dump (41 MB)
 * and PGlite's own file-system bundle (`pglite.data`, 6 MB, which PGlite would otherwise read from
 * disk again for every database). Reading and copying them for every database cost ~0.26 of the
 * ~0.73 CPU-seconds a test database took to open (medians of 6 and of 8, measured on this machine).
 */
function pgliteSources(): { loadDataDir: Blob; fsBundle: Blob } {
  const file = inject('pgliteTemplate');
  if (template?.file !== file) template = { file, blob: new BufferBlob(bytesOf(file)) };
  fsBundle ??= new BufferBlob(
    bytesOf(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
        'pglite.data',
      ),
    ),
  );
  return { loadDataDir: template.blob, fsBundle };
}

/**
 * The server's own PGlite settings (its shared_buffers; fsync off, as nothing here outlives the
 * process): ~70 ms less CPU per start than PGlite's defaults.
 */
const openPgliteFromTemplate = () => PGlite.create({ ...pgliteSources(), ...pgliteOptions(false) });

/** How the pool of test databases opens, reaches and closes a PGlite one. */
export const pgliteDriver: PoolDriver<PGlite> = {
  open: openPgliteFromTemplate,
  connect: (client) => Promise.resolve({ sql: client, release: () => Promise.resolve() }),
  close: (client) => client.close(),
};
/** The test apps' own PGlite databases, reset and used again by the worker's next app. */
const pgliteAppDatabases = databasePool(pgliteDriver);

/**
 * A new PostgreSQL database's name starts with the template's: the run's end drops those still
 * there, such as the ones a worker kept for reuse (tests/setup/global-setup.ts).
 */
const newDatabaseName = () =>
  `${inject('postgresTemplate')}_${Date.now()}_${randomBytes(4).toString('hex')}`;
async function copyPostgresTemplate(): Promise<string> {
  const name = newDatabaseName();
  await adminQuery(`create database ${name} template ${inject('postgresTemplate')}`);
  return name;
}
const dropPostgres = async (name: string) => {
  await adminQuery(`drop database if exists ${name} with (force)`);
};

/** The same for a PostgreSQL database, known by its name. */
export const postgresDriver: PoolDriver<string> = {
  open: copyPostgresTemplate,
  async connect(name) {
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    return {
      sql: {
        query: async <T>(text: string) => ({ rows: (await client.query(text)).rows as T[] }),
        exec: (text: string) => client.query(text),
      },
      release: () => client.end(),
    };
  },
  close: dropPostgres,
};
/** The names of the PostgreSQL databases the worker's earlier apps used. */
const postgresAppDatabases = databasePool(postgresDriver);

/**
 * A fresh, migrated database of the kind this project runs on (TEST_DB). Both are copies of a
 * database the global setup migrated once: PGlite loads a dump of its data folder, PostgreSQL
 * copies a template database (CREATE DATABASE ... TEMPLATE, ~0.1 s instead of ~1 s of
 * migrations). `empty: true` gives an unmigrated database, for the tests of the start path and of
 * migrations themselves: on PostgreSQL a new database, on PGlite the template's copy with its
 * schemas dropped (~0.5 CPU-s instead of an initdb's 3-7). `reuse: true` (the test apps' own databases) may give a PGlite database an earlier
 * app of this worker used, reset to the template's state (tests/support/database-pool.ts).
 */
export async function createTestDatabase(
  kind: TestDbKind = testDbKind(),
  opts: { empty?: boolean; reuse?: boolean } = {},
) {
  const reuse = opts.reuse && !opts.empty && !process.env.TEST_FRESH_DATABASES;
  if (kind === 'pglite') {
    const client = reuse ? await pgliteAppDatabases.take() : await openPgliteFromTemplate();
    if (opts.empty) await emptyPglite(client);
    return {
      database: wrapPglite(client, () =>
        reuse ? pgliteAppDatabases.give(client) : client.close(),
      ),
      url: undefined as string | undefined,
      drop: async () => {},
    };
  }
  let name: string;
  if (reuse) name = await postgresAppDatabases.take();
  else if (opts.empty) {
    name = newDatabaseName();
    await adminQuery(`create database ${name}`);
  } else name = await copyPostgresTemplate();
  const url = databaseUrl(name);
  return {
    database: openPostgres(url),
    url,
    drop: () => (reuse ? postgresAppDatabases.give(name) : dropPostgres(name)),
  };
}

/**
 * What initdb leaves: the migrations' schemas, tables and extensions dropped, an empty `public`
 * schema in their place (extensions live in `public`, so pg_trgm goes with it).
 */
async function emptyPglite(client: PGlite): Promise<void> {
  await client.exec(
    'drop schema if exists drizzle cascade; drop schema public cascade; create schema public;',
  );
  const left = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where s.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
  );
  if (left.rows[0]!.n !== 0) throw new Error('emptyPglite: relations left after the drop');
}

/** A database as a first start finds it: no admin password stored yet (the templates hold one). */
export async function forgetStoredAdminPassword(database: Database): Promise<void> {
  await database.db.execute(sql`delete from settings where key = 'admin_password_hash'`);
}

/** The admin search's trigram (GIN) indexes on the pledges, as pg_indexes lists them. */
export async function trigramIndexes(
  database: Database,
): Promise<{ indexname: string; indexdef: string }[]> {
  const res = (await database.db.execute(sql`
    select indexname, indexdef from pg_indexes
    where tablename = 'pledges' and indexdef like '%gin_trgm_ops%' order by indexname`)) as unknown as {
    rows: { indexname: string; indexdef: string }[];
  };
  return res.rows;
}

export interface TestApp {
  app: FastifyInstance;
  baseUrl: string;
  config: AppConfig;
  database: Database;
  dataDir: string;
  /** Logs in with the test password and returns the Cookie header value (api.ts's `login`). */
  login(): Promise<string>;
  /** fetch against the app with JSON defaults (and an optional cookie). */
  request(
    pathname: string,
    init?: RequestInit & { json?: unknown; cookie?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Replace the clock (session expiry tests). */
  now?: () => Date;
  /** Reuse a database (two instances over one PostgreSQL). */
  database?: Database;
  dataDir?: string;
  logger?: boolean | object;
  /**
   * Error-level log lines this app is expected to write, for its whole life (a file whose set-up
   * takes the database away, say): `true` for any, or a pattern each such line must match. Without
   * it, an error-level line fails the test that was running (see `expectErrorLogs` for one test).
   */
  expectErrorLogs?: boolean | RegExp;
  /**
   * The admin password hashed at the app's own scrypt cost, not the templates' cheaper one
   * (tests/support/admin-password.ts): for the tests that bound the password work.
   */
  productionPasswordHash?: boolean;
}

/** The real app on a real database, listening on a free port of 127.0.0.1. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'relief-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  if (opts.now) config.now = opts.now;
  const errorLog = watchErrorLogs(opts.expectErrorLogs);
  const own = opts.database ? undefined : await createTestDatabase(testDbKind(), { reuse: true });
  const database = opts.database ?? own!.database;
  let app: FastifyInstance;
  try {
    // No stored hash: the start hashes ADMIN_PASSWORD as a first start does.
    if (opts.productionPasswordHash) await forgetStoredAdminPassword(database);
    app = await buildApp({ config, database, logger: watchedLogger(opts, errorLog) });
  } catch (err) {
    // A start that fails (a test of the start-up checks) leaves no database behind.
    errorLog.stop();
    if (own) {
      await own.database.close();
      await own.drop();
    }
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  const request: TestApp['request'] = (pathname, init = {}) => {
    const { json, cookie, headers, ...rest } = init;
    const h = new Headers(headers);
    if (json !== undefined) h.set('content-type', 'application/json');
    if (cookie) h.set('cookie', cookie);
    return fetch(baseUrl + pathname, {
      ...rest,
      headers: h,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  };

  return {
    app,
    baseUrl,
    config,
    database,
    dataDir,
    request,
    login: () => login(baseUrl),
    async close() {
      try {
        await app.close();
      } finally {
        errorLog.stop();
      }
      // What it logged at error level while closing (the tests' own lines are checked after each).
      const unexpected = errorLog.lines.filter((line) => !allows(errorLog.allowed, line));
      if (own) {
        await own.database.close();
        await own.drop();
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (unexpected.length > 0) throw unexpectedErrorLogs(unexpected);
    },
  };
}

/**
 * Error-level log lines fail the test that was running when the app wrote them (item "tests fail
 * when the app logs at error level"), unless the test said it expects them: `expectErrorLogs()` in
 * the test, or `startTestApp({ expectErrorLogs })` / `test.override('appOptions', …)` for an app's
 * whole life. tests/setup/error-logs.ts checks after each test of the API projects.
 */
interface ErrorLogWatch {
  allowed: boolean | RegExp;
  lines: string[];
  stop(): void;
}
const errorLogWatches = new Set<ErrorLogWatch>();
/** What the current test allows (reset after each test): `expectErrorLogs()`. */
let allowedThisTest: RegExp[] = [];

function watchErrorLogs(allowed: boolean | RegExp = false): ErrorLogWatch {
  const watch: ErrorLogWatch = {
    allowed,
    lines: [],
    stop: () => errorLogWatches.delete(watch),
  };
  errorLogWatches.add(watch);
  return watch;
}

/** pino's number for `error`; `fatal` is 60. */
const PINO_ERROR = 50;

/**
 * The app's logger: the test's own (its stream also copied to the watch), or one that writes
 * only error-level lines, to the watch. The app logs through Fastify's logger only.
 */
function watchedLogger(opts: TestAppOptions, watch: ErrorLogWatch): boolean | object {
  const keep = (chunk: Buffer | string) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      try {
        if ((JSON.parse(line) as { level?: number }).level! >= PINO_ERROR) watch.lines.push(line);
      } catch {
        // not a JSON log line
      }
    }
  };
  if (opts.logger === undefined || opts.logger === false) {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        keep(chunk);
        done();
      },
    });
    return { level: 'error', stream };
  }
  if (opts.logger === true) return true;
  const own = (opts.logger as { stream?: Writable }).stream;
  if (!own) return opts.logger;
  const tee = new Writable({
    write(chunk: Buffer, enc, done) {
      keep(chunk);
      own.write(chunk, enc, done);
    },
  });
  return { ...opts.logger, stream: tee };
}

/**
 * The current test expects the app to log at error level: every error line it logs must match
 * `pattern` (any line without one). Lines it does not expect still fail it.
 */
export function expectErrorLogs(pattern: RegExp = /./): void {
  allowedThisTest.push(pattern);
}

/**
 * The error-level lines logged since the last call that nobody expected; forgets them all, and
 * what the test allowed (called after each test).
 */
export function takeUnexpectedErrorLogs(): string[] {
  const unexpected: string[] = [];
  for (const watch of errorLogWatches) {
    for (const line of watch.lines.splice(0)) {
      if (!allows(watch.allowed, line) && !allowedThisTest.some((p) => p.test(line)))
        unexpected.push(line);
    }
  }
  allowedThisTest = [];
  return unexpected;
}

const allows = (allowed: boolean | RegExp, line: string) =>
  allowed === true || (allowed instanceof RegExp && allowed.test(line));

/** The error a test fails with when its app logged at error level unexpectedly. */
export function unexpectedErrorLogs(lines: string[]): Error {
  return new Error(
    `the app logged at error level (expectErrorLogs() if the test expects it):\n${lines
      .map((l) => l.slice(0, 2000))
      .join('\n')}`,
  );
}
