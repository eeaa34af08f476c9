import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containersFor } from '@shared/containers';
import { samplePng } from '../fixtures';
import { TEST_ADMIN_PASSWORD } from '../support/test-app';
import { adminPledges as allPledges, login, progress } from '../support/api';
import { pool, SIZED_TEST_TIMEOUT_MS, SOAK } from './support/load';
import { request } from '../support/http';
import { eventually } from '../support/net';
import type { ServerProcess } from '../support/server-process';
import { createTarget, type Target } from './support/target';

const PLEDGES = SOAK ? 5_000 : 500;
const PUBLIC_URL = 'http://relief.test';

/**
 * R8: two app instances (separate processes, separate pools) over one PostgreSQL database and
 * one shared DATA_DIR, as behind a load balancer.
 */
describe('R8 two instances over one PostgreSQL', () => {
  let target: Target;
  let a: ServerProcess;
  let b: ServerProcess;
  /** A session for the later tests (the login-limit test locks further logins out). */
  let admin: string;
  beforeAll(async () => {
    target = await createTarget('postgres');
    const env = { PUBLIC_URL, RATE_LIMIT_PLEDGES_PER_MINUTE: '0' };
    a = await target.start({ env });
    b = await target.start({ env });
    admin = await login(a.baseUrl);
  });
  afterAll(async () => {
    await a?.kill('SIGTERM');
    await b?.kill('SIGTERM');
    await target?.dispose();
  });

  // Requests as the browser sends them through the load balancer: Origin is the public site.
  const origin = { origin: PUBLIC_URL };

  it('a session from A works on B, and logging out on A ends it on B', async () => {
    const cookie = await login(a.baseUrl);
    const onB = await request(b.baseUrl, 'PUT', '/api/progress', {
      cookie,
      headers: origin,
      json: { manualAdjustment: 25 },
    });
    expect(onB.status).toBe(200);
    expect((await request(b.baseUrl, 'GET', '/api/admin/pledges', { cookie })).status).toBe(200);
    // A sees B's change.
    await eventually(async () => (await progress(a.baseUrl)).manualAdjustment === 25);

    const out = await request(a.baseUrl, 'POST', '/api/admin/logout', { cookie, headers: origin });
    expect(out.status).toBe(200);
    expect((await request(b.baseUrl, 'GET', '/api/admin/pledges', { cookie })).status).toBe(401);
    expect((await request(a.baseUrl, 'GET', '/api/admin/pledges', { cookie })).status).toBe(401);
  });

  it(
    'totals are exact when the load is split between the instances',
    async () => {
      const agents = [a, b].map(() => new http.Agent({ keepAlive: true, maxSockets: 25 }));
      const bodies = Array.from({ length: PLEDGES }, (_, i) => ({
        name: `Split ${i}`,
        email: `split${i % 400}@example.test`,
        amount: 1 + ((i * 104729) % 90_000),
        currency: i % 4 === 0 ? ('JMD' as const) : ('USD' as const),
      }));
      const before = await progress(a.baseUrl);
      const answers = await pool(PLEDGES, PLEDGES, (i) =>
        request((i % 2 === 0 ? a : b).baseUrl, 'POST', '/api/pledges', {
          json: bodies[i],
          agent: agents[i % 2],
        }),
      );
      agents.forEach((ag) => ag.destroy());
      expect(answers.every((x) => x.status === 201)).toBe(true);

      const containers = bodies.reduce((s, x) => s + containersFor(x.amount, x.currency), 0);
      const expected = before.currentAmount + containers;
      // Both instances converge on the exact total (each hears the other's writes).
      const settleMs = await eventually(async () => {
        const [pa, pb] = await Promise.all([progress(a.baseUrl), progress(b.baseUrl)]);
        return pa.currentAmount === expected && pb.currentAmount === expected;
      });
      const rows = await allPledges(a.baseUrl, admin);
      expect(rows.filter((r) => r.name.startsWith('Split ')).length).toBe(PLEDGES);
      const [pa, pb] = await Promise.all([progress(a.baseUrl), progress(b.baseUrl)]);
      expect(pa).toEqual(pb);
      expect(pa.pledgeCount).toBe(rows.length);
      console.log(
        `R8: ${PLEDGES} pledges split over two instances; both show ${expected} containers ` +
          `(${settleMs} ms to converge)`,
      );
    },
    SIZED_TEST_TIMEOUT_MS,
  );

  it('20 confirms of one pledge split over both instances make one transition', async () => {
    const cookie = admin;
    const created = await request(a.baseUrl, 'POST', '/api/pledges', {
      json: { name: 'Confirm race', email: 'race@example.test', amount: 1100 },
    });
    const id = (JSON.parse(created.body) as { id: string }).id;
    const before = await progress(a.baseUrl);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request((i % 2 ? a : b).baseUrl, 'PUT', `/api/pledges/${id}/confirm`, {
          cookie,
          headers: origin,
          json: {},
        }),
      ),
    );
    expect(answers.map((x) => x.status)).toEqual(Array(20).fill(200));
    const stamps = new Set(answers.map((x) => JSON.parse(x.body).paymentConfirmedAt as string));
    expect(stamps.size).toBe(1);
    await eventually(async () => {
      const [pa, pb] = await Promise.all([progress(a.baseUrl), progress(b.baseUrl)]);
      return (
        pa.confirmedAmount === before.confirmedAmount + 10_000 &&
        pb.confirmedAmount === pa.confirmedAmount
      );
    });
  });

  it('an image uploaded through A is served by B and accepted in an update posted on B', async () => {
    const cookie = admin;
    const signed = await request(a.baseUrl, 'POST', '/api/objects/upload', {
      cookie,
      headers: origin,
    });
    const url = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
    expect(url.origin).toBe(PUBLIC_URL);
    const put = await request(a.baseUrl, 'PUT', url.pathname + url.search, {
      body: samplePng(),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    const imageUrl = (JSON.parse(put.body) as { url: string }).url;
    expect((await request(b.baseUrl, 'GET', new URL(imageUrl).pathname)).status).toBe(200);
    const post = await request(b.baseUrl, 'POST', '/api/updates', {
      cookie,
      headers: origin,
      json: { imageUrl, recipient: 'Shared', containerCount: 4, deliveryDate: '2025-02-01' },
    });
    expect(post.status, post.body).toBe(201);
    await eventually(async () => {
      const feed = JSON.parse((await request(a.baseUrl, 'GET', '/api/updates')).body) as {
        recipient: string;
      }[];
      return feed.some((u) => u.recipient === 'Shared');
    });
  });

  it('the login limit counts attempts on both instances together', async () => {
    const wrong = (s: ServerProcess, i: number) =>
      request(s.baseUrl, 'POST', '/api/admin/login', { json: { password: `wrong-${i}` } });
    for (let i = 0; i < 10; i++) {
      const res = await wrong(i % 2 === 0 ? a : b, i);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    for (const s of [a, b]) {
      const res = await request(s.baseUrl, 'POST', '/api/admin/login', {
        json: { password: TEST_ADMIN_PASSWORD },
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('the pledge limit counts per instance (documented: @fastify/rate-limit keeps it in memory)', async () => {
    // Two fresh instances with a small limit, so the count starts at zero.
    const env = { PUBLIC_URL, RATE_LIMIT_PLEDGES_PER_MINUTE: '3' };
    const c = await target.start({ env });
    const d = await target.start({ env });
    try {
      const send = (s: ServerProcess, i: number) =>
        request(s.baseUrl, 'POST', '/api/pledges', {
          json: { name: `Limit ${i}`, email: `limit${i}@example.test`, amount: 5 },
        });
      const onC = [];
      for (let i = 0; i < 4; i++) onC.push((await send(c, i)).status);
      expect(onC).toEqual([201, 201, 201, 429]);
      const onD = [];
      for (let i = 0; i < 4; i++) onD.push((await send(d, 10 + i)).status);
      expect(onD).toEqual([201, 201, 201, 429]);
    } finally {
      await c.kill('SIGTERM');
      await d.kill('SIGTERM');
    }
  });
});
