import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '../../tests/support/test-app';
import { insertPledges } from '../modules/pledges/repo';
import { runMigrations } from './migrate';
import { keepPlannerStatistics } from './planner-statistics';

const quiet = { info: () => {}, warn: () => {} } as unknown as FastifyBaseLogger;

async function scalar(db: Awaited<ReturnType<typeof createTestDatabase>>, query: string) {
  const res = (await db.database.db.execute(sql.raw(query))) as unknown as {
    rows: { n: number }[];
  };
  return Number(res.rows[0]?.n);
}

describe('planner statistics', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    await runMigrations(db.database);
    await insertPledges(
      db.database.db,
      Array.from({ length: 1500 }, (_, i) => ({
        name: `Donor ${i}`,
        email: `d${i}@donors.test`,
        amount: 1 + i,
        currency: 'USD' as const,
        containers: 9,
      })),
    );
  });
  afterAll(async () => {
    await db.database.close();
    await db.drop();
  });

  it('are refreshed on PGlite (no autovacuum) and left to autovacuum on PostgreSQL', async () => {
    const reltuples = "select reltuples::float8 as n from pg_class where relname = 'pledges'";
    const manualAnalyzes =
      "select coalesce(sum(analyze_count), 0)::int as n from pg_stat_user_tables where relname = 'pledges'";
    const before = testDbKind() === 'pglite' ? await scalar(db, reltuples) : 0;
    expect(before).toBeLessThan(1500);

    const stop = keepPlannerStatistics(db.database, () => 1500, quiet, 50);
    try {
      if (testDbKind() === 'pglite') {
        const deadline = Date.now() + 10_000;
        while ((await scalar(db, reltuples)) !== 1500 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(await scalar(db, reltuples)).toBe(1500);
      } else {
        await new Promise((r) => setTimeout(r, 1500));
        expect(await scalar(db, manualAnalyzes)).toBe(0);
      }
    } finally {
      stop();
    }
  });

  it('are refreshed when a change doubles the pledges, not at the next minute, the outbox too', async () => {
    if (testDbKind() !== 'pglite') return expect(db.database.kind).toBe('postgres');
    const reltuples = (table: string) =>
      scalar(db, `select reltuples::float8 as n from pg_class where relname = '${table}'`);
    let count = 1500;
    let listener: (() => void) | undefined;
    // The minute's look would come after the test: only the change signal can refresh here.
    const stop = keepPlannerStatistics(
      db.database,
      () => count,
      quiet,
      3_600_000,
      (l) => {
        listener = l;
        return () => (listener = undefined);
      },
    );
    try {
      // The first look (one second after start) measures 1,500 pledges.
      const deadline = Date.now() + 10_000;
      while ((await reltuples('pledges')) !== 1500 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(await reltuples('pledges')).toBe(1500);

      const more = await insertPledges(
        db.database.db,
        Array.from({ length: 1600 }, (_, i) => ({
          name: `Spike ${i}`,
          email: `s${i}@donors.test`,
          amount: 1 + i,
          currency: 'USD' as const,
          containers: 9,
        })),
      );
      await db.database.db.execute(
        sql`insert into outbox (pledge_id, kind) select unnest(${sql.param(more.map((r) => r.id))}::uuid[]), 'instructions'`,
      );
      count = 3100;
      listener?.();
      const until = Date.now() + 10_000;
      while ((await reltuples('pledges')) !== 3100 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      expect(await reltuples('pledges')).toBe(3100);
      expect(await reltuples('outbox')).toBe(1600);
    } finally {
      stop();
    }
  });
});
