import { PGlite } from '@electric-sql/pglite';
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { pgliteOptions, wrapPglite, type Db } from '../../server/db/client';
import { runMigrations } from '../../server/db/migrate';
import { MODULE_CACHE_DIR } from './module-cache';
import { adminQuery, databaseUrl, ensureChromium, ensurePostgres } from './services';
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs';
import { templateAdminPasswordHash } from '../support/admin-password';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Once per `npm test`: the services the suites need, the production build the end-to-end tests
 * run, and a migrated database of each kind that every test copies instead of migrating its own:
 * a PGlite data folder dump (loaded instead of running initdb) and a PostgreSQL template database
 * (CREATE DATABASE ... TEMPLATE).
 */
type Shared = {
  prepared?: Promise<{ pgliteTemplate: string; postgresTemplate: string }>;
  users: number;
};
/**
 * Vitest runs the global setup once per project, and imports this file afresh for each one (eight
 * module instances in one process), so a module-level variable would not be shared: every project
 * would make its own templates (~2.5 s each, one after the other, before the first test). The
 * state lives on the process instead.
 */
const shared: Shared = ((globalThis as { [key: symbol]: Shared })[
  Symbol.for('relief-pledge.global-setup')
] ??= { users: 0 });

export default async function setup(project: TestProject) {
  shared.prepared ??= prepare();
  shared.users += 1;
  const { pgliteTemplate, postgresTemplate } = await shared.prepared;
  project.provide('pgliteTemplate', pgliteTemplate);
  project.provide('postgresTemplate', postgresTemplate);
  return async () => {
    // The last project to finish drops the template database and deletes the PGlite dump (41 MB).
    shared.users -= 1;
    if (shared.users > 0) return;
    await removeRunFiles(pgliteTemplate, postgresTemplate);
  };
}

/**
 * What this run made for all its projects: the two templates, the test databases still there
 * (those the workers kept for reuse; named after the template, tests/support/test-app.ts) and the
 * shared module cache.
 */
async function removeRunFiles(pgliteTemplate: string, postgresTemplate: string) {
  const kept = await adminQuery<{ datname: string }>(
    `select datname from pg_database where starts_with(datname, '${postgresTemplate}_')`,
  );
  for (const { datname } of kept)
    await adminQuery(`drop database if exists ${datname} with (force)`);
  await adminQuery(`drop database if exists ${postgresTemplate} with (force)`);
  rmSync(pgliteTemplate, { force: true });
  rmSync(MODULE_CACHE_DIR, { recursive: true, force: true });
}

async function prepare() {
  await ensurePostgres();
  ensureChromium();
  // The build (child processes) and the templates (PGlite runs in this process) at the same time:
  // on a clean clone, 0.3-1.4 s sooner to the first test than one after the other.
  const adminHash = templateAdminPasswordHash();
  const [built, pgliteTemplate, postgresTemplate] = await Promise.all([
    buildIfNeeded(),
    preparePglite(adminHash),
    preparePostgres(adminHash),
  ]);
  if (!built) {
    await removeRunFiles(pgliteTemplate, postgresTemplate);
    throw new Error('npm run build failed');
  }
  return { pgliteTemplate, postgresTemplate };
}

/**
 * The templates hold the test admin password's hash, at a cheaper scrypt cost than the app's
 * (tests/support/admin-password.ts): every app start and login of the run checks that one.
 */
const STORE_ADMIN_HASH = `insert into settings (key, value) values ('admin_password_hash', $1)`;

async function preparePglite(adminHash: Promise<string>): Promise<string> {
  // Opened as the server opens its PGlite, so that the migrations make the same database as in
  // production (pg_trgm's search indexes included).
  const pg = await PGlite.create(pgliteOptions(false));
  await runMigrations(wrapPglite(pg));
  await pg.query(STORE_ADMIN_HASH, [await adminHash]);
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  const file = path.join(os.tmpdir(), `relief-pglite-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

/** A migrated database to copy; nobody else may be connected to it while it is copied. */
async function preparePostgres(adminHash: Promise<string>): Promise<string> {
  const name = `relief_template_${process.pid}`;
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  // Its own one-connection pool with a patient connect: the app's 3 s limit is for requests, and a
  // machine busy with other test runs can take longer to hand out the first connection.
  const pool = new pg.Pool({
    connectionString: databaseUrl(name),
    max: 1,
    connectionTimeoutMillis: 60_000,
  });
  try {
    await runMigrations({
      kind: 'postgres',
      pool,
      db: drizzle(pool) as unknown as Db,
      close: () => pool.end(),
    });
    await pool.query(STORE_ADMIN_HASH, [await adminHash]);
  } finally {
    await pool.end();
  }
  return name;
}
