import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '@shared/schemas/progress';
import type { PublicPledge } from '@shared/schemas/pledge';
import {
  createTestDatabase,
  startTestApp,
  testDbKind,
  type TestApp,
} from '../../tests/support/test-app';
import { openPostgres, type Database } from '../db/client';
import { readModelLoader } from '../read-model-loader';
import { CampaignSnapshot } from './snapshot';
import { FEED_APPLICATION_NAME, startChangeFeed } from './change-feed';

const progressOf = async (t: TestApp): Promise<Progress> =>
  (await t.request('/api/progress')).json();

let seq = 0;
async function pledge(t: TestApp, amount = 110, email = `donor${++seq}@donors.test`) {
  const res = await t.request('/api/pledges', {
    method: 'POST',
    json: { name: `Donor ${seq}`, email, amount, currency: 'USD' },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as PublicPledge;
}

/** Polls until `check` passes; returns how long that took (ms), or throws after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the database itself says, to compare the snapshot with. */
async function truth(database: Database) {
  const res = (await database.db.execute(sql`
    select count(*)::int as "pledgeCount",
      coalesce(sum(containers), 0)::int as containers,
      (count(distinct lower(email)) filter (where is_paid) + count(*) filter (where not is_paid))::int as "donorCount"
    from pledges`)) as unknown as {
    rows: { pledgeCount: number; containers: number; donorCount: number }[];
  };
  const progress = (await database.db.execute(
    sql`select manual_adjustment from progress where id = 'main'`,
  )) as unknown as { rows: { manual_adjustment: number }[] };
  const { pledgeCount, containers, donorCount } = res.rows[0]!;
  const adjustment = progress.rows[0]?.manual_adjustment ?? 0;
  return { pledgeCount, donorCount, currentAmount: containers + adjustment };
}

const exact = (p: Progress) => ({
  pledgeCount: p.pledgeCount,
  donorCount: p.donorCount,
  currentAmount: p.currentAmount,
});

describe('snapshot exactness on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });
  });
  afterAll(() => t.close());

  it('matches the database after concurrent pledges, edits, deletes and an adjustment', async () => {
    const cookie = await t.login();
    const first = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        // Some donors give twice (case differs): they count once.
        pledge(t, 1 + i, i % 10 === 0 ? `Repeat${i % 3}@Donors.test` : undefined),
      ),
    );
    // Admin edits interleaved with a second wave of pledges.
    await Promise.all([
      ...Array.from({ length: 60 }, () => pledge(t, 55)),
      t.request(`/api/pledges/${first[0]!.id}`, { method: 'DELETE', cookie }),
      t.request(`/api/pledges/${first[1]!.id}`, {
        method: 'PATCH',
        cookie,
        json: { updates: { amount: 1100 } },
      }),
      t.request(`/api/pledges/${first[2]!.id}/confirm`, { method: 'PUT', cookie }),
      t.request('/api/progress', { method: 'PUT', cookie, json: { manualAdjustment: -7 } }),
    ]);
    const expected = await truth(t.database);
    expect(expected.pledgeCount).toBe(179);
    expect(exact(await progressOf(t))).toEqual(expected);

    // The recent list is the database's newest, in order.
    const recent: PublicPledge[] = await (await t.request('/api/pledges?limit=8')).json();
    const all: PublicPledge[] = await (await t.request('/api/pledges', { cookie })).json();
    expect(recent.map((p) => p.id)).toEqual(all.slice(0, 8).map((p) => p.id));
  });

  it('listens on PostgreSQL only (PGlite is one process per DATA_DIR)', async () => {
    const snapshot = new CampaignSnapshot(readModelLoader(t.database.db));
    const feed = startChangeFeed({ database: t.database, snapshot, log: t.app.log });
    await feed.ready;
    const postgres = testDbKind() === 'postgres';
    expect(feed.listening).toBe(postgres);
    expect(snapshot.watched('writes')).toBe(postgres);
    await feed.close();
    expect(snapshot.watched('writes')).toBe(false);
  });
});

// Two app instances, each with its own connection pool, over one PostgreSQL database.
// Declared on PostgreSQL only (not skipped elsewhere): PGlite cannot have two instances.
if (testDbKind() === 'postgres')
  describe('two instances over one PostgreSQL', () => {
    let owner: Awaited<ReturnType<typeof createTestDatabase>>;
    let second: Database;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      owner = await createTestDatabase('postgres');
      second = openPostgres(owner.url!);
      const env = { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' };
      a = await startTestApp({ database: owner.database, env });
      b = await startTestApp({ database: second, env });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await second?.close();
      await owner?.database.close();
      await owner?.drop();
    });

    it("sees the other instance's pledges in GET /api/progress within 1 s, both ways", async () => {
      for (const [writer, reader] of [
        [a, b],
        [b, a],
      ] as const) {
        const before = (await progressOf(reader)).pledgeCount;
        const p = await pledge(writer, 220);
        const ms = await within(
          3000,
          async () => (await progressOf(reader)).pledgeCount === before + 1,
        );
        expect(ms).toBeLessThan(1000);
        // The recent list and the HTML's initial data follow too.
        const recent: PublicPledge[] = await (await reader.request('/api/pledges?limit=8')).json();
        expect(recent[0]!.id).toBe(p.id);
        expect(await (await reader.request('/')).text()).toContain(p.id);
      }
    });

    it("sees the other instance's admin changes within 1 s", async () => {
      const cookie = await a.login();
      const res = await a.request('/api/progress', {
        method: 'PUT',
        cookie,
        json: { manualAdjustment: 4321 },
      });
      expect(res.status).toBe(200);
      const ms = await within(3000, async () => (await progressOf(b)).manualAdjustment === 4321);
      expect(ms).toBeLessThan(1000);
    });

    it('both stay exact under concurrent writes on both', async () => {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          pledge(i % 2 ? a : b, 1 + i, i % 7 === 0 ? 'same@donors.test' : undefined),
        ),
      );
      const expected = await truth(owner.database);
      await within(3000, async () => {
        const [pa, pb] = await Promise.all([progressOf(a), progressOf(b)]);
        return (
          JSON.stringify(exact(pa)) === JSON.stringify(expected) &&
          JSON.stringify(exact(pb)) === JSON.stringify(expected)
        );
      });
      expect(exact(await progressOf(a))).toEqual(expected);
      expect(exact(await progressOf(b))).toEqual(expected);
    });

    it('reconnects when its listening connection is killed, and catches up', async () => {
      const admin = new pg.Client({ connectionString: owner.url });
      await admin.connect();
      const listeners = async () =>
        (
          await admin.query(
            `select pid from pg_stat_activity
           where datname = current_database() and application_name = $1`,
            [FEED_APPLICATION_NAME],
          )
        ).rows.map((r: { pid: number }) => r.pid);
      try {
        const pids = await listeners();
        expect(pids).toHaveLength(2); // one per instance
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);

        // Written at once, likely before B listens again: the reload on reconnect brings it.
        const before = (await progressOf(b)).pledgeCount;
        await pledge(a, 330);
        const ms = await within(5000, async () => (await progressOf(b)).pledgeCount === before + 1);
        expect(ms).toBeLessThan(2000);

        // Both listen again, on new connections, and notifications flow as before.
        await within(3000, async () => {
          const now = await listeners();
          return now.length === 2 && now.every((pid) => !pids.includes(pid));
        });
        const after = (await progressOf(b)).pledgeCount;
        await pledge(a, 440);
        expect(
          await within(3000, async () => (await progressOf(b)).pledgeCount === after + 1),
        ).toBeLessThan(1000);
      } finally {
        await admin.end();
      }
    });
  });
