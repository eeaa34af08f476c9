import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { pglitePool } from './pglite-pool';
import { openPgliteFromTemplate } from './test-app';

const one = async <T>(client: PGlite, query: string) =>
  (await client.query<{ v: T }>(query)).rows[0]!.v;

describe('the pool of the test apps’ PGlite databases', () => {
  it('gives a database back as the template left it: rows, sequences, session settings', async () => {
    const pool = pglitePool(openPgliteFromTemplate);
    const client = await pool.take();
    const firstReference = await one<string>(client, "select nextval('pledge_reference_seq') as v");
    await client.exec(`
      insert into settings (key, value) values ('admin_password_hash', 'x');
      update progress set manual_adjustment = 5;`);
    await client.exec('set statement_timeout = 1234');
    await client.exec("begin; insert into settings (key, value) values ('left', 'open')");
    await pool.give(client);

    const again = await pool.take();
    expect(again).toBe(client);
    expect(await one<number>(again, 'select count(*)::int as v from settings')).toBe(0);
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
    const pool = pglitePool(openPgliteFromTemplate);
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
});
