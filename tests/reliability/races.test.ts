import { sql } from 'drizzle-orm';
import http from 'node:http';
import { afterAll } from 'vitest';
import { containersFor } from '@shared/containers';
import { type TestApp } from '../support/test-app';
import { describe, expect, test } from '../support/fixtures';
import { adminPledges as allPledges, progress } from '../support/api';
import { request } from '../support/http';

/**
 * R2: requests racing for the same rows. On PostgreSQL they really run side by side (pool of 10).
 */
test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

describe('R2 races', () => {
  let t: TestApp;
  let cookie: string;
  let agent: http.Agent;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    // At most 40 requests at once, each on its own connection: a kept-alive socket that the server
    // closes after 5 idle seconds (a slow, shared machine) could be reused just then and reset,
    // which is the client's race, not an answer of the server's.
    agent = new http.Agent({ keepAlive: false, maxSockets: 40 });
  });
  afterAll(async () => {
    agent.destroy();
  });

  const pledge = async (amount = 110) => {
    const res = await request(t.baseUrl, 'POST', '/api/pledges', {
      json: { name: `Race ${Math.random()}`, email: 'race@example.test', amount },
      agent,
    });
    expect(res.status).toBe(201);
    return (JSON.parse(res.body) as { id: string }).id;
  };
  const call = (method: string, path: string, json?: unknown) =>
    request(t.baseUrl, method, path, { json, cookie, agent });

  /** The snapshot (public numbers) agrees with the rows in the database. */
  async function expectConsistent() {
    const rows = await allPledges(t.baseUrl, cookie);
    const p = await progress(t.baseUrl);
    const db = await t.database.db.execute(
      sql`select manual_adjustment as "adj" from progress where id = 'main'`,
    );
    const adj = Number((db as unknown as { rows: { adj: number }[] }).rows[0]!.adj);
    expect(p.manualAdjustment).toBe(adj);
    const containers = rows.reduce((s, r) => s + containersFor(r.amount, r.currency), 0);
    // Confirmed progress counts the money received (docs/decisions/013-statement-matching.md): what
    // was recorded at confirmation, which an edit of the pledged amount afterwards does not change.
    const confirmed = rows
      .filter((r) => r.isPaid)
      .reduce((s, r) => {
        const { amountReceived, currencyReceived } = r as typeof r & {
          amountReceived: number | null;
          currencyReceived: 'USD' | 'JMD' | null;
        };
        return s + containersFor(amountReceived ?? r.amount, currencyReceived ?? r.currency);
      }, 0);
    expect(p.pledgeCount).toBe(rows.length);
    expect(p.currentAmount).toBe(containers + adj);
    expect(p.confirmedAmount).toBe(confirmed);
  }

  test('20 parallel confirms of one pledge make one transition', async () => {
    const id = await pledge(1100);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('PUT', `/api/pledges/${id}/confirm`, {})),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const stamps = new Set(
      answers.map((a) => (JSON.parse(a.body) as { paymentConfirmedAt: string }).paymentConfirmedAt),
    );
    expect(stamps.size).toBe(1);
    const p = await progress(t.baseUrl);
    expect(p.confirmedAmount).toBe(10_000); // counted once, not 20 times
    await expectConsistent();
  });

  test('concurrent progress updates leave one clean final value', async () => {
    const values = Array.from({ length: 20 }, (_, i) => (i - 10) * 137);
    const answers = await Promise.all(
      values.map((v) =>
        call('PUT', '/api/progress', { manualAdjustment: v, goalAmount: 500_000 + v }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const p = (await progress(t.baseUrl)) as unknown as {
      manualAdjustment: number;
      goalAmount: number;
    };
    expect(values).toContain(p.manualAdjustment);
    // Adjustment and goal come from the same request: no half of one and half of another.
    expect(p.goalAmount).toBe(500_000 + p.manualAdjustment);
    await expectConsistent();
  });

  test('confirm and edit racing delete never answer 5xx, and the totals stay exact', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => pledge(100 + i)));
    const answers = await Promise.all(
      ids.flatMap((id, i) => [
        call('PUT', `/api/pledges/${id}/confirm`, {}),
        call('PATCH', `/api/pledges/${id}`, { updates: { amount: 5000 + i } }),
        call('DELETE', `/api/pledges/${id}`),
      ]),
    );
    for (const a of answers) expect([200, 404], a.body).toContain(a.status);
    // Each delete ran once: exactly one 200 per pledge among the deletes.
    const deletes = answers.filter((_, i) => i % 3 === 2);
    expect(deletes.map((a) => a.status)).toEqual(Array(20).fill(200));
    const left = new Set((await allPledges(t.baseUrl, cookie)).map((r) => r.id));
    for (const id of ids) expect(left.has(id)).toBe(false);
    await expectConsistent();
  });

  test('new pledges racing admin edits keep the totals exact', async () => {
    const existing = await Promise.all(Array.from({ length: 10 }, () => pledge(220)));
    await Promise.all([
      ...Array.from({ length: 60 }, () => pledge(330)),
      ...existing.map((id) => call('PUT', `/api/pledges/${id}/confirm`, {})),
      ...existing.map((id, i) =>
        call('PATCH', `/api/pledges/${id}`, { updates: { amount: 440 + i } }),
      ),
      call('PUT', '/api/progress', { manualAdjustment: 12 }),
    ]);
    await expectConsistent();
  });
});
