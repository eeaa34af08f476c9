import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../server/db/migrate';
import { pledges } from '../../server/db/schema';
import { createTestDatabase, startTestApp, type TestApp } from '../support/test-app';
import { adminPledges } from '../support/api';

/**
 * Review finding 9.1 (docs/SECURITY.md): the public list was unbounded (17.5 MB at 100,000 pledges,
 * 4.4 s on the main thread).
 */
describe('9.1 bounded public pledge list', () => {
  let t: TestApp;
  let cookie: string;
  const TOTAL = 75;
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    own = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-public-list-'));
    await runMigrations(own.database);
    // One multi-row insert, then a start that loads the in-memory snapshot from it.
    await own.database.db.insert(pledges).values(
      Array.from({ length: TOTAL }, (_, i) => ({
        name: `Bulk ${i}`,
        email: `bulk${i}@example.test`,
        amount: 110,
        currency: 'USD' as const,
        containers: 1000,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      })),
    );
    t = await startTestApp({ database: own.database, dataDir });
    cookie = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await own.database.close();
    await own.drop();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  const publicList = async (query: string) => {
    const res = await t.request(`/api/pledges${query}`);
    expect(res.status, query).toBe(200);
    return (await res.json()) as { name: string }[];
  };

  it('answers at most 50 pledges, newest first, without a session and without ?limit', async () => {
    const list = await publicList('');
    expect(list).toHaveLength(50);
    expect(list[0]!.name).toBe(`Bulk ${TOTAL - 1}`);
  });

  it('caps a larger ?limit at 50 and keeps smaller ones', async () => {
    expect(await publicList('?limit=1000')).toHaveLength(50);
    expect(await publicList('?limit=51')).toHaveLength(50);
    expect(await publicList('?limit=8')).toHaveLength(8);
    expect(await publicList('?limit=50')).toHaveLength(50);
  });

  it('still refuses a malformed limit with 400', async () => {
    for (const q of ['?limit=0', '?limit=-1', '?limit=abc', '?limit=1.5', '?limit=1001']) {
      const res = await t.request(`/api/pledges${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('keeps the full list for an admin session (spec behaviour)', async () => {
    expect(await adminPledges(t, cookie)).toHaveLength(TOTAL);
    const res = await t.request('/api/pledges?limit=60', { cookie });
    expect(await res.json()).toHaveLength(60);
  });
});
