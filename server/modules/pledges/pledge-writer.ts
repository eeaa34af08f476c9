import type { ReferenceKey } from '@shared/payment-reference';
import type { Db, DbOrTx } from '../../db/client';
import type { CampaignSnapshot } from '../../read-model/snapshot';
import type { pledges } from '../../db/schema';
import * as repo from './repo';
import { toRecentPledge } from './views';

type Values = typeof pledges.$inferInsert;
interface Pending {
  values: Values;
  resolve: (row: repo.PledgeRow) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 500;

/**
 * What else a batch of new pledges writes in its own transaction (the e-mail outbox,
 * docs/decisions/014-email-outbox.md).
 */
export interface PledgeSideEffects {
  inTransaction(tx: DbOrTx, rows: repo.TimedPledgeRow[]): Promise<void>;
  afterCommit(): void;
}

/**
 * Group commit for new pledges: the requests that arrive while one INSERT is in flight (or in the
 * same turn of the event loop) are written together in the next multi-row INSERT. Every caller is
 * answered only after its row is committed, so durability is unchanged while throughput grows with
 * load.
 */
export class PledgeWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  /**
   * @param maxInFlight batches written at once: 1 on PGlite (one connection: more would only
   *   queue), a few on PostgreSQL, where one batch's commit (a WAL flush) overlaps the next one's
   *   insert.
   */
  constructor(
    private readonly db: Db,
    private readonly snapshot: CampaignSnapshot,
    private readonly maxInFlight = 1,
    /** The campaign's payment-reference prefix (campaign config). */
    private readonly referencePrefix?: string,
    private readonly sideEffects?: PledgeSideEffects,
    /** The install's reference key (settings, loaded at start). */
    private readonly referenceKey?: ReferenceKey,
  ) {}

  submit(values: Values): Promise<repo.PledgeRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ values, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Flushes on the next turn of the event loop, not at once, so that every request read in this
   * turn joins the batch. On PGlite this is what makes batches at all: its queries run on this
   * thread and resolve through microtasks alone, so a batch started at once finished before the
   * next request was even parsed, and every INSERT held one row (~600 pledges/s instead of
   * thousands).
   */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    this.inFlight += 1;
    try {
      const rows = await this.snapshot.writeShared(
        async () => {
          const values = batch.map((p) => p.values);
          const effects = this.sideEffects;
          const inserted = effects
            ? await this.db.transaction(async (tx) => {
                const rows = await repo.insertPledges(
                  tx,
                  values,
                  this.referencePrefix,
                  this.referenceKey,
                );
                await effects.inTransaction(tx, rows);
                return rows;
              })
            : await repo.insertPledges(this.db, values, this.referencePrefix, this.referenceKey);
          effects?.afterCommit();
          // Committed: the totals the triggers updated (on PostgreSQL, with any other
          // instance's inserts too, which only makes them more current). The rows are stored
          // whatever happens next, so a failure to read the totals must not fail the pledges:
          // the snapshot then reloads in the background.
          const totals = await repo.readPledgeTotals(this.db).catch(() => undefined);
          return { inserted, totals };
        },
        ({ inserted, totals }) => this.snapshot.addPledges(inserted.map(toRecentPledge), totals),
      );
      // RETURNING keeps the VALUES order.
      batch.forEach((p, i) => p.resolve(rows.inserted[i]!));
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }
}
