import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';

/** Below this many pledges any plan is fast: no VACUUM ANALYZE is worth its pause. */
const MIN_ROWS = 1000;

/**
 * PGlite runs no autovacuum, so its planner knows only what the last VACUUM ANALYZE measured: a
 * table that grew from 0 to 100,000 pledges is still planned as empty, and the trigram indexes
 * (built empty, then filled) keep the statistics of an empty index, so the admin search counts
 * its matches with a 650 ms sequential scan instead of a 15 ms index scan
 * (docs/decisions/005-performance.md). This runs VACUUM ANALYZE on the pledges and the outbox at
 * start when their statistics are missing or off by 2x, and again each time the count doubles: a
 * handful of times in a campaign's life, ~0.5 s each at 100,000 rows, during which writes wait on
 * PGlite's one connection while public reads (from memory) do not. PostgreSQL's autovacuum does
 * this by itself.
 *
 * The outbox too: each batch of new pledges counts the day's instruction e-mails per address, and
 * with the outbox planned as empty that count started from every message of the day (a scan that
 * grew with the spike: 58 ms a batch at 7,600 pledges instead of ~1 ms by the address index).
 * `changes` (the snapshot's change signal) lets a spike be caught when the count doubles, not at
 * the next minute's look: 0 to 10,000 pledges takes less than a minute. Those runs are a plain
 * ANALYZE (see `check`).
 */
export function keepPlannerStatistics(
  database: Database,
  pledgeCount: () => number,
  log: FastifyBaseLogger,
  checkEveryMs = 60_000,
  changes?: (listener: () => void) => () => void,
): () => void {
  if (database.kind !== 'pglite') return () => {};
  let analyzedAt: number | undefined;
  let running = false;
  const isStale = (n: number, at: number) =>
    n >= MIN_ROWS && (at < 0 || n >= 2 * at || n * 2 <= at);

  /**
   * `quick`: after a change, while pledges may be pouring in, ANALYZE alone (a sample: it updates
   * the tables' and indexes' sizes and the column statistics the plans need); the minute's look
   * also vacuums, which merges the trigram indexes' pending entries and is slower.
   */
  const check = async (quick = false) => {
    if (running) return;
    running = true;
    try {
      if (analyzedAt === undefined) {
        // reltuples is -1 until the table was first analyzed.
        const res = (await database.db.execute(
          sql`select reltuples::float8 as n from pg_class where relname = 'pledges'`,
        )) as unknown as { rows: { n: number }[] };
        analyzedAt = Number(res.rows[0]?.n ?? -1);
      }
      const n = pledgeCount();
      if (isStale(n, analyzedAt)) {
        const started = Date.now();
        await database.db.execute(
          quick ? sql`analyze pledges, outbox` : sql`vacuum analyze pledges, outbox`,
        );
        analyzedAt = n;
        log.info({ pledges: n, ms: Date.now() - started }, 'planner statistics refreshed');
      }
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'VACUUM ANALYZE failed');
    } finally {
      running = false;
    }
  };

  // Not during start-up itself: the first requests come first.
  const first = setTimeout(() => void check(), 1000);
  const every = setInterval(() => void check(), checkEveryMs);
  first.unref();
  every.unref();
  // After a change, an in-memory comparison; the look itself runs outside the change's lock.
  const unwatch = changes?.(() => {
    if (!running && analyzedAt !== undefined && isStale(pledgeCount(), analyzedAt))
      setImmediate(() => void check(true));
  });
  return () => {
    clearTimeout(first);
    clearInterval(every);
    unwatch?.();
  };
}
