import type { CampaignSnapshot } from '../../campaign/snapshot';
import type { Db } from '../../db/client';
import type { pledges } from '../../db/schema';
import * as repo from './repo';

type Values = typeof pledges.$inferInsert;
interface Pending {
  values: Values;
  resolve: (row: repo.PledgeRow) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 500;

/**
 * Group commit for new pledges: requests that arrive while one INSERT is in flight are written
 * together in the next multi-row INSERT. Every caller is answered only after its row is committed,
 * so durability is unchanged while throughput grows with load.
 */
export class PledgeWriter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly db: Db,
    private readonly snapshot: CampaignSnapshot,
  ) {}

  submit(values: Values): Promise<repo.PledgeRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ values, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const rows = await this.snapshot.write(
            () =>
              repo.insertPledges(
                this.db,
                batch.map((p) => p.values),
              ),
            (inserted) => this.snapshot.addPledges(inserted),
          );
          // RETURNING keeps the VALUES order.
          batch.forEach((p, i) => p.resolve(rows[i]!));
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
