import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPledges as allPledges, login } from '../support/api';
import { request, type RawResponse as Answer } from '../support/http';
import { sleep } from '../support/net';
import { SOAK } from './support/load';
import { spawnServer, type ServerProcess } from '../support/server-process';
import { proxiedPostgres } from '../support/proxied-postgres';

const OUTAGES = SOAK ? 5 : 2;
const OUTAGE_MS = 2_000;

/**
 * R4: PostgreSQL goes away under load and comes back. A TCP proxy between the app and the
 * database is cut and restored: the same thing the app sees when PostgreSQL restarts (open
 * connections reset, new ones refused), without restarting the cluster other test files share.
 */
describe(`R4 PostgreSQL restarted under load (${OUTAGES} outages of ${OUTAGE_MS / 1000} s)`, () => {
  let db: Awaited<ReturnType<typeof proxiedPostgres>>;
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    db = await proxiedPostgres();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-outage-'));
    server = await spawnServer({ dataDir, databaseUrl: db.url });
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await db?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails fast with 503 while down, reconnects, recovers health, and loses nothing acknowledged', async () => {
    const base = server.baseUrl;
    const cookie = await login(base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const acked = new Map<string, string>();
    const during: Answer[] = [];
    let down = false;
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const name = `Outage ${n++}`;
        const res = await request(base, 'POST', '/api/pledges', {
          json: { name, email: `o${n}@example.test`, amount: 10 + (n % 90) },
          agent,
        });
        if (res.status === 201) acked.set((JSON.parse(res.body) as { id: string }).id, name);
        else {
          expect(res.status, res.body).toBe(503);
          expect(res.headers['retry-after']).toBeTruthy();
          expect(JSON.parse(res.body)).toEqual({
            message: 'The service is briefly unavailable. Please try again in a moment.',
          });
          await sleep(50);
        }
        if (down) during.push(res);
      }
    };
    const writers = Array.from({ length: 6 }, () => writer());
    const recoveries: number[] = [];
    const healthDown: number[] = [];

    for (let i = 0; i < OUTAGES; i++) {
      await sleep(400);
      await db.proxy.cut();
      down = true;
      const cutAt = Date.now();
      // While down: health says so, quickly; reads from memory keep working.
      await sleep(300);
      const h = await request(base, 'GET', '/api/health');
      expect(h.status).toBe(503);
      expect(h.ms).toBeLessThan(3_500);
      healthDown.push(h.ms);
      expect((await request(base, 'GET', '/api/progress')).status).toBe(200);
      expect((await request(base, 'GET', '/')).status).toBe(200);
      expect((await request(base, 'GET', '/api/admin/pledges', { cookie })).status).toBe(503);
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - cutAt)));
      await db.proxy.restore();
      down = false;
      const restoredAt = Date.now();
      // Health recovers on its own: the pool opens new connections.
      for (;;) {
        const res = await request(base, 'GET', '/api/health');
        if (res.status === 200) break;
        expect(Date.now() - restoredAt, 'health did not recover').toBeLessThan(15_000);
        await sleep(100);
      }
      recoveries.push(Date.now() - restoredAt);
    }
    await sleep(500);
    stop = true;
    await Promise.all(writers);
    agent.destroy();

    // Failing fast: no request waited long during an outage.
    expect(during.length).toBeGreaterThan(0);
    const slowest = Math.max(...during.map((a) => a.ms));
    expect(slowest).toBeLessThan(4_000);
    expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(0);

    // Nothing acknowledged was lost; the snapshot agrees with the database.
    const rows = await allPledges(base, cookie);
    const byId = new Map(rows.map((r) => [r.id, r.name]));
    for (const [id, name] of acked) expect(byId.get(id)).toBe(name);
    const progress = JSON.parse((await request(base, 'GET', '/api/progress')).body) as {
      pledgeCount: number;
    };
    expect(progress.pledgeCount).toBe(rows.length);
    // And it keeps taking writes.
    const after = await request(base, 'POST', '/api/pledges', {
      json: { name: 'After outage', email: 'after@example.test', amount: 5 },
    });
    expect(after.status).toBe(201);
    console.log(
      `R4: ${OUTAGES} outages; ${during.length} requests during them (slowest ${slowest} ms, all 503 ` +
        `or 201); health 503 in ${healthDown.join('/')} ms while down, back ${recoveries.join('/')} ms ` +
        `after restore; ${acked.size} acknowledged pledges, all present (${rows.length} rows)`,
    );
  }, 120_000);
});
