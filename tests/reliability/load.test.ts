import http from 'node:http';
import { containersFor } from '@shared/containers';
import type { TestApp } from '../support/test-app';
import { describe, expect, test } from '../support/fixtures';
import { adminPledges as allPledges, progress } from '../support/api';
import { pool, SIZED_TEST_TIMEOUT_MS, SOAK } from './support/load';
import { request } from '../support/http';

const PLEDGES = SOAK ? 5_000 : 500;
const CONNECTIONS = 50;

// One client address sends everything here, so the per-address limit is off (as for bench).
test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

/** R1: many donors at once. */
describe(`R1 load: ${PLEDGES} concurrent pledges over ${CONNECTIONS} connections`, () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test(
    'stores every acknowledged pledge exactly once, with exact totals',
    async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      const bodies = Array.from({ length: PLEDGES }, (_, i) => ({
        name: `Load ${i}`,
        // Some donors pledge twice, with the address in another case: donors are distinct e-mails.
        email: i % 10 === 0 ? `REPEAT${i % 50}@Example.test` : `load${i}@example.test`,
        amount: 1 + ((i * 7919) % 250_000),
        currency: i % 3 === 0 ? ('JMD' as const) : ('USD' as const),
        isAnonymous: i % 7 === 0,
      }));
      const started = Date.now();
      const answers = await pool(PLEDGES, PLEDGES, (i) =>
        request(t.baseUrl, 'POST', '/api/pledges', { json: bodies[i], agent }),
      );
      const elapsed = Date.now() - started;
      agent.destroy();

      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 201: PLEDGES });
      const ids = answers.map((a) => (JSON.parse(a.body) as { id: string }).id);
      expect(new Set(ids).size).toBe(PLEDGES);

      const rows = await allPledges(t.baseUrl, cookie);
      expect(rows.length).toBe(PLEDGES);
      const byId = new Map(rows.map((r) => [r.id, r]));
      ids.forEach((id, i) => {
        const row = byId.get(id);
        expect(row?.name).toBe(bodies[i]!.name);
        expect(row?.amount).toBe(bodies[i]!.amount);
        expect(row?.currency).toBe(bodies[i]!.currency);
      });

      const containers = bodies.reduce((s, b) => s + containersFor(b.amount, b.currency), 0);
      const donors = new Set(bodies.map((b) => b.email.toLowerCase())).size;
      // Nothing is confirmed here, so each pending pledge counts once (see
      // docs/decisions/008-security-review-fixes.md).
      const p = await progress(t.baseUrl);
      expect(p.currentAmount).toBe(containers + p.manualAdjustment);
      expect(p.pledgeCount).toBe(PLEDGES);
      expect(p.donorCount).toBe(PLEDGES);

      const stats = JSON.parse(
        (await request(t.baseUrl, 'GET', '/api/admin/pledges?pageSize=1', { cookie })).body,
      ) as { stats: { totalPledges: number; totalUSD: number; totalJMD: number } };
      const sum = (c: string) =>
        bodies.filter((b) => b.currency === c).reduce((s, b) => s + b.amount, 0);
      expect(stats.stats).toMatchObject({
        totalPledges: PLEDGES,
        totalUSD: sum('USD'),
        totalJMD: sum('JMD'),
      });
      const latency = answers.map((a) => a.ms).sort((a, b) => a - b);
      console.log(
        `R1 ${t.database.kind}: ${PLEDGES} pledges in ${elapsed} ms ` +
          `(${Math.round((PLEDGES / elapsed) * 1000)}/s), p50 ${latency[Math.floor(PLEDGES / 2)]} ms, ` +
          `p99 ${latency[Math.floor(PLEDGES * 0.99)]} ms; ${containers} containers, ${donors} donors`,
      );
    },
    SIZED_TEST_TIMEOUT_MS,
  );
});
