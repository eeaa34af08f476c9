import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { AdminPledgeQuery } from '@shared/schemas/pledge';
import type { Db } from '../../server/db/client';
import { pgliteExtensions } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { adminPledgePage } from '../../server/modules/pledges/repo';
import { count, eq, type SQL } from 'drizzle-orm';
import { pledges } from '../../server/db/schema';

/** The dashboard's list queries at scale: what the admin table asks for. */
export const ADMIN_SCENARIOS: { name: string; query: Partial<AdminPledgeQuery> }[] = [
  { name: 'newest first (default)', query: {} },
  { name: 'oldest first', query: { order: 'asc' } },
  { name: 'largest amount first', query: { sort: 'amount' } },
  { name: 'smallest amount first', query: { sort: 'amount', order: 'asc' } },
  { name: 'paid only', query: { status: 'paid' } },
  { name: 'pending, by amount', query: { status: 'pending', sort: 'amount' } },
  { name: 'search "smith" (common)', query: { search: 'smith' } },
  { name: 'search "yolanda.young" (rare)', query: { search: 'yolanda.young' } },
  { name: 'search "nobody-here" (none)', query: { search: 'nobody-here' } },
  { name: 'search "a" (1 letter)', query: { search: 'a' } },
  { name: 'search + paid + amount', query: { search: 'campbell', status: 'paid', sort: 'amount' } },
  { name: 'page 100', query: { page: 100 } },
  { name: 'last page (1/50 of 100k)', query: { page: 2000 } },
];

const full = (q: Partial<AdminPledgeQuery>): AdminPledgeQuery => ({
  search: '',
  status: 'all',
  sort: 'date',
  order: 'desc',
  page: 1,
  pageSize: 50,
  ...q,
});

export interface ExplainRow {
  name: string;
  /** Execution time of each statement the endpoint runs (EXPLAIN ANALYZE), ms. */
  statementsMs: number[];
  /** Sum of the statements' execution times (the endpoint runs them one after another). */
  totalMs: number;
  plans: string[];
}

interface Runner {
  db: Db;
  explain(text: string, params: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

/** A Drizzle instance that records the SQL it runs, so the repo's own queries get explained. */
function recording<T>(make: (logger: { logQuery(q: string, p: unknown[]): void }) => T) {
  const seen: { text: string; params: unknown[] }[] = [];
  const db = make({ logQuery: (text, params) => seen.push({ text, params }) });
  return { db, seen };
}

async function pgliteRunner(pgdata: string) {
  const client = await PGlite.create(pgdata, { extensions: pgliteExtensions });
  const rec = recording((logger) => drizzlePglite(client, { schema, logger }));
  return {
    rec,
    runner: {
      db: rec.db as unknown as Db,
      explain: async (text: string, params: unknown[]) =>
        (
          await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params)
        ).rows.map((r) => r['QUERY PLAN']),
      close: () => client.close(),
    } satisfies Runner,
  };
}

function postgresRunner(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const rec = recording((logger) => drizzlePg(pool, { schema, logger }));
  return {
    rec,
    runner: {
      db: rec.db as unknown as Db,
      explain: async (text: string, params: unknown[]) =>
        (await pool.query(`explain (analyze, buffers) ${text}`, params)).rows.map(
          (r: Record<string, string>) => r['QUERY PLAN']!,
        ),
      close: () => pool.end(),
    } satisfies Runner,
  };
}

const execMs = (plan: string[]) =>
  Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? NaN);

/**
 * EXPLAIN ANALYZE of every statement the admin list endpoint runs (the page, and with a search
 * its count), per scenario. Warm: each scenario runs once before it is explained.
 */
export async function explainAdminQueries(
  target: { kind: 'pglite'; pgdata: string } | { kind: 'postgres'; url: string },
): Promise<ExplainRow[]> {
  const { rec, runner } =
    target.kind === 'pglite' ? await pgliteRunner(target.pgdata) : postgresRunner(target.url);
  const rows: ExplainRow[] = [];
  try {
    for (const s of ADMIN_SCENARIOS) {
      const q = full(s.query);
      // As the route does: without a search, the count comes from the snapshot (here: counted
      // beforehand, not explained), and the stat cards always do.
      let knownTotal: number | undefined;
      if (!q.search.trim()) {
        const where: SQL | undefined =
          q.status === 'all' ? undefined : eq(pledges.isPaid, q.status === 'paid');
        knownTotal = (await runner.db.select({ n: count() }).from(pledges).where(where))[0]!.n;
      }
      await adminPledgePage(runner.db, q, knownTotal);
      rec.seen.length = 0;
      await adminPledgePage(runner.db, q, knownTotal);
      const statements = [...rec.seen];
      const plans: string[] = [];
      const times: number[] = [];
      for (const st of statements) {
        const plan = await runner.explain(st.text, st.params);
        plans.push(plan.join('\n'));
        times.push(execMs(plan));
      }
      const sum = times.reduce((a, b) => a + b, 0);
      rows.push({
        name: s.name,
        statementsMs: times.map((t) => Math.round(t * 10) / 10),
        totalMs: Math.round(sum * 10) / 10,
        plans,
      });
    }
  } finally {
    await runner.close();
  }
  return rows;
}

export function adminQueryString(q: Partial<AdminPledgeQuery>): string {
  return new URLSearchParams(
    Object.entries(q).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
}
