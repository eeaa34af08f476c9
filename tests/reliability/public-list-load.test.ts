import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  startTestApp,
  trigramIndexes,
  type TestApp,
} from '../support/test-app';
import { request } from '../support/http';

const PLEDGES = 100_000;
const PARALLEL_LISTS = 20;

/**
 * Review finding 9.1 (docs/SECURITY.md): with every pledge in the public list, 20 parallel lists of
 * 100,000 pledges kept the main thread busy for seconds and /api/progress waited 5 s. The timing
 * under load is measured by `npm run bench` (bench/scale.ts); here a generous bound that a
 * regression would still break.
 */
describe(`9.1 ${PARALLEL_LISTS} parallel public lists at ${PLEDGES} pledges`, () => {
  let t: TestApp;
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    own = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-list-load-'));
    const first = await startTestApp({ database: own.database, dataDir });
    // As a bulk import would: the trigram (GIN) indexes are built once after the rows rather than
    // updated row by row, several times faster; the table ends up the same.
    const trigram = await trigramIndexes(own.database);
    expect(trigram.length).toBeGreaterThan(0);
    for (const { indexname } of trigram)
      await own.database.db.execute(sql.raw(`drop index ${indexname}`));
    await own.database.db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, created_at)
      select 'Seed ' || g, 'seed' || g || '@example.test', 110, 'USD', 1000,
        timestamptz '2025-01-01' + g * interval '1 second'
      from generate_series(1, ${PLEDGES}) g`);
    for (const { indexdef } of trigram) await own.database.db.execute(sql.raw(indexdef));
    // As after any bulk import: the planner statistics are fresh, so the app's own VACUUM ANALYZE
    // (which holds PGlite, and with it the event loop, for about a second) does not run mid-test.
    if (own.database.kind === 'pglite') await own.database.db.execute(sql`vacuum analyze pledges`);
    // A restart loads the snapshot from the seeded table, as after a real import.
    await first.close();
    t = await startTestApp({ database: own.database, dataDir });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await own.database.close();
    await own.drop();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('keeps every list small and /api/progress fast', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL_LISTS + 1 });
    // Warm-up (first compression of the list body, JIT): not part of the measure.
    await Promise.all([
      request(t.baseUrl, 'GET', '/api/pledges', { agent }),
      request(t.baseUrl, 'GET', '/api/progress', { agent }),
    ]);
    const progressMs: number[] = [];
    let listing = true;
    const lists = (async () => {
      const sizes: number[] = [];
      for (let round = 0; round < 25; round++) {
        const answers = await Promise.all(
          Array.from({ length: PARALLEL_LISTS }, () =>
            request(t.baseUrl, 'GET', '/api/pledges', { agent }),
          ),
        );
        for (const a of answers) {
          expect(a.status).toBe(200);
          sizes.push(a.body.length);
        }
      }
      listing = false;
      return sizes;
    })();
    while (listing || progressMs.length < 50) {
      const a = await request(t.baseUrl, 'GET', '/api/progress', { agent });
      expect(a.status).toBe(200);
      progressMs.push(a.ms);
    }
    const sizes = await lists;
    agent.destroy();
    progressMs.sort((a, b) => a - b);
    const p99 = progressMs[Math.ceil(progressMs.length * 0.99) - 1]!;
    console.log(
      `9.1: ${progressMs.length} progress reads, p50 ${progressMs[progressMs.length >> 1]} ms, p99 ${p99} ms; list ${Math.max(...sizes)} bytes`,
    );
    // 50 pledges of about 150 bytes each: never the 17.5 MB of the whole table.
    expect(Math.max(...sizes)).toBeLessThan(20_000);
    // The target, 50 ms, is measured by the bench with client and server in two processes. Here
    // this process is also the 21 clients (about 30-100 ms per round of 20 lists on a 2-core
    // machine), so the bound is generous; before the fix every read timed out (30 s).
    expect(p99).toBeLessThan(500);
  }, 120_000);
});
