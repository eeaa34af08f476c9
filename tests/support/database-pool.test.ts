import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { adminQuery, databaseUrl } from '../setup/services';
import { databasePool } from './database-pool';
import { pgliteDriver, postgresDriver } from './test-app';

const one = async <T>(client: PGlite, query: string) =>
  (await client.query<{ v: T }>(query)).rows[0]!.v;
/** The settings the templates hold: the test admin password's hash (tests/support/admin-password.ts). */
const SETTINGS =
  "select string_agg(key || '=' || left(value, 7), ',' order by key) as v from settings";

describe('the pool of the test apps’ databases', () => {
  it('gives a PGlite database back as the template left it: rows, sequences, session settings', async () => {
    const pool = databasePool(pgliteDriver);
    const client = await pool.take();
    const firstReference = await one<string>(client, "select nextval('pledge_reference_seq') as v");
    expect(await one<string>(client, SETTINGS)).toBe('admin_password_hash=scrypt$');
    await client.exec(`
      update settings set value = 'x' where key = 'admin_password_hash';
      insert into settings (key, value) values ('upload_signing_secret', 'x');
      update progress set manual_adjustment = 5;`);
    await client.exec('set statement_timeout = 1234');
    await client.exec("begin; insert into settings (key, value) values ('left', 'open')");
    await pool.give(client);

    const again = await pool.take();
    expect(again).toBe(client);
    expect(await one<string>(again, SETTINGS)).toBe('admin_password_hash=scrypt$');
    expect(await one<number>(again, 'select count(*)::int as v from progress')).toBe(1);
    expect(await one<number>(again, 'select manual_adjustment as v from progress')).toBe(0);
    expect(await one<number>(again, 'select count(*)::int as v from pledge_totals')).toBe(1);
    expect(await one<string>(again, "select nextval('pledge_reference_seq') as v")).toBe(
      firstReference,
    );
    expect(await one<string>(again, "select current_setting('statement_timeout') as v")).toBe('0');
    await again.close();
  });

  it('does not reuse a database whose schema a test changed', async () => {
    const pool = databasePool(pgliteDriver);
    const client = await pool.take();
    await client.exec('alter table settings add column note text');
    await pool.give(client);
    expect(client.closed).toBe(true);
    const fresh = await pool.take();
    expect(fresh).not.toBe(client);
    expect(
      await one<number>(
        fresh,
        "select count(*)::int as v from information_schema.columns where table_name = 'settings' and column_name = 'note'",
      ),
    ).toBe(0);
    await fresh.close();
  });

  it('reuses a PostgreSQL database emptied, and drops one that someone is still connected to', async () => {
    const pool = databasePool(postgresDriver);
    const exists = async (name: string) =>
      (await adminQuery(`select 1 from pg_database where datname = '${name}'`)).length === 1;
    const name = await pool.take();
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    await client.query("insert into settings (key, value) values ('upload_signing_secret', 'x')");
    await client.end();
    await pool.give(name);
    expect(await pool.take()).toBe(name);

    const check = new pg.Client({ connectionString: databaseUrl(name) });
    // The drop below ends its session (WITH (FORCE)): an error event, expected here.
    check.on('error', () => undefined);
    await check.connect();
    expect((await check.query(SETTINGS)).rows[0].v).toBe('admin_password_hash=scrypt$');
    // Still connected when the database is given back: it is dropped, not handed out again.
    await pool.give(name);
    await check.end().catch(() => undefined);
    expect(await exists(name)).toBe(false);
    const next = await pool.take();
    expect(next).not.toBe(name);
    await postgresDriver.close(next);
  });
});
