import { sql } from 'drizzle-orm';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { insertPledges } from '../pledges/repo';
import { messagesByAddressQuery, recentInstructions } from './repo';

/**
 * The daily e-mail caps are counted in every batch of new pledges. In a spike the tables grow
 * faster than their statistics (PGlite has no autovacuum; PostgreSQL's first look comes after a
 * minute): the per-address count must then still start from the pledges of the addresses asked
 * about, never from the day's messages, whose number grows with the spike, nor read every pledge.
 */
describe('the e-mail caps count', () => {
  test('reads the pledges of each address, then their messages, by index', async ({ app }) => {
    const { db } = app.database;
    // 3,000 pledges and their messages of today, written after the statistics were taken.
    const rows = await insertPledges(
      db,
      Array.from({ length: 3000 }, (_, i) => ({
        name: `Spike ${i}`,
        email: `Spike.${i}@donors.test`,
        amount: 10,
        currency: 'USD' as const,
        containers: 90,
        clientKey: `client-${i % 3}`,
      })),
    );
    await db.execute(
      sql`insert into outbox (pledge_id, kind) select unnest(${sql.param(rows.map((r) => r.id))}::uuid[]), 'instructions'`,
    );
    const since = new Date(Date.now() - 24 * 3600_000);
    const emails = ['spike.7@donors.test', 'spike.2999@donors.test', 'nobody@donors.test'];

    const plan = (
      (await db.execute(
        sql`explain ${messagesByAddressQuery(['instructions'], emails, since)}`,
      )) as unknown as {
        rows: Record<string, string>[];
      }
    ).rows
      .map((r) => Object.values(r)[0])
      .join('\n');
    expect(plan).toContain('pledges_email_lower_idx');
    expect(plan).toContain('outbox_pledge_idx');
    expect(plan).not.toContain('outbox_created_idx');
    expect(plan).not.toMatch(/Seq Scan on (outbox|pledges)/);

    // And the counts are what they were: one message per pledge of each address, 1,000 per key.
    const { byEmail, byClient } = await recentInstructions(db, emails, ['client-1'], since);
    expect(Object.fromEntries(byEmail)).toEqual({
      'spike.7@donors.test': 1,
      'spike.2999@donors.test': 1,
      'nobody@donors.test': 0,
    });
    expect(Object.fromEntries(byClient)).toEqual({ 'client-1': 1000 });
  });
});
