import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';

const PLEDGES = 60;
const DAY = 24 * 3600_000;

/**
 * Reminders with two app instances over one PostgreSQL database: both run the scheduler
 * at the same moved clock, at once and several times; every due reminder is queued exactly once
 * (each step is claimed by a conditional upsert in the transaction that queues it).
 */
describe('reminders with two instances over one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { MAIL_PER_CLIENT_PER_DAY: '0', MAIL_PER_ADDRESS_PER_DAY: '0' };
    a = await startTestApp({ env });
    b = await startTestApp({ env, database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('queues each reminder once', async () => {
    for (let i = 0; i < PLEDGES; i++) {
      const res = await (i % 2 ? a : b).request('/api/pledges', {
        method: 'POST',
        json: { name: `Twin ${i}`, email: `twin.${i}@donors.test`, amount: 5 + i },
      });
      expect(res.status).toBe(201);
    }
    const at = new Date(Date.now() + 7 * DAY + 60_000);
    const runs = await Promise.all([a, b, a, b].map((t) => t.app.reminders.runOnce(at)));
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(PLEDGES);
    // One step-1 row per pledge in the outbox, never two.
    const res = (await a.database.db.execute(
      sql`select pledge_id, count(*)::int as n from outbox where kind = 'reminder' group by 1`,
    )) as unknown as { rows: { n: number }[] };
    expect(res.rows).toHaveLength(PLEDGES);
    expect(res.rows.every((r) => Number(r.n) === 1)).toBe(true);
  });
});
