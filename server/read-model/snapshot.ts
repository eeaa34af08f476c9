import { PUBLIC_PLEDGES_MAX, RECENT_PLEDGES_LIMIT } from '@shared/constants';
import { campaignGoal } from '@shared/prices';
import type { PledgeStats, PublicPledge } from '@shared/schemas/pledge';
import type { Progress } from '@shared/schemas/progress';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { CachedBody } from './cached-body';
import { SharedExclusiveLock } from './shared-exclusive-lock';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A pledge among the newest, with the key the database orders it by. */
export interface RecentPledge {
  /** created_at in whole microseconds (a JS Date keeps only milliseconds). */
  micros: number;
  id: string;
  pledge: PublicPledge;
}

/** The pledge_totals row: every total the snapshot keeps, and its version. */
export interface CampaignTotals {
  version: number;
  containers: number;
  confirmedContainers: number;
  pledgeCount: number;
  paidCount: number;
  usdAmount: number;
  jmdAmount: number;
  /** Money received (confirmed pledges' received amounts), per currency. */
  receivedUsd: number;
  receivedJmd: number;
  donorCount: number;
  /** Containers still owed, pledge by pledge (migration 0016). */
  outstandingContainers: number;
}

interface ProgressSettings {
  manualAdjustment: number;
  goalAmount: number;
  updatedAt: Date;
}

/**
 * What a reload reads. The app builds it from the modules' repos (server/read-model-loader.ts), so
 * the read model does not import the modules that write through it.
 */
export interface ReadModelLoader {
  totals(): Promise<CampaignTotals>;
  progressSettings(): Promise<ProgressSettings>;
  recentPledges(limit: number): Promise<RecentPledge[]>;
  deliveryUpdates(): Promise<DeliveryUpdate[]>;
}

/** SQL's `order by created_at desc, id desc`: uuid order is the order of their hex strings. */
function newestFirst(a: RecentPledge, b: RecentPledge): number {
  if (a.micros !== b.micros) return b.micros - a.micros;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** How many newest pledges stay in memory: every public list is served from them, without SQL. */
const SNAPSHOT_RECENT = PUBLIC_PLEDGES_MAX;

/**
 * The public state of the campaign, held in memory so public reads cost no SQL (see
 * docs/decisions/004-in-memory-snapshot.md).
 *
 * It stays exact: every write of this process goes through `write()`, which runs the SQL and then
 * applies the change under one lock, so a reload can never interleave with an increment. The
 * totals come from the pledge_totals row, which triggers keep exact in the transaction of every
 * change to pledges: a reload is a few small reads (no scan of the table), and a batch of new
 * pledges reads that one row back. Writes by other instances arrive through the change feed
 * (change-feed.ts) and trigger a reload.
 */
export class CampaignSnapshot {
  private readonly lock = new SharedExclusiveLock();
  private totalsVersion = -1;
  private pledgeContainers = 0;
  private confirmedContainers = 0;
  private outstandingContainers = 0;
  private pledgeCount = 0;
  private paidCount = 0;
  private totalUSD = 0;
  private totalJMD = 0;
  private receivedUSD = 0;
  private receivedJMD = 0;
  private donorCount = 0;
  private manualAdjustment = 0;
  private goalAmount = campaignGoal();
  private progressUpdatedAt = new Date(0);
  /** Newest first, ordered exactly as SQL orders them (created_at desc, id desc). */
  private recent: RecentPledge[] = [];
  private updates: DeliveryUpdate[] = [];
  /** The updates' container counts summed, kept with them (every update write reloads). */
  private containersDelivered = 0;
  /** Set when a write could not read back the totals; a reload clears it. */
  private stale = false;
  private retrying = false;
  /** Response bodies, rebuilt lazily after a change. */
  private cache = new Map<string, CachedBody>();
  /** Told after every change of the public state, reloads included (the live stream). */
  private readonly watchers = new Set<() => void>();
  /** Told after every write of this process, not after reloads (the change feed's NOTIFY). */
  private readonly writeWatchers = new Set<() => void>();
  private changes = 0;

  constructor(private readonly loader: ReadModelLoader) {}

  progress(): Progress {
    return {
      currentAmount: this.pledgeContainers + this.manualAdjustment,
      manualAdjustment: this.manualAdjustment,
      goalAmount: this.goalAmount,
      confirmedAmount: this.confirmedContainers,
      outstandingAmount: this.outstandingContainers,
      donorCount: this.donorCount,
      containersDelivered: this.containersDelivered,
      pledgeCount: this.pledgeCount,
      updatedAt: this.progressUpdatedAt.toISOString(),
    };
  }

  recentPledges(limit = RECENT_PLEDGES_LIMIT): PublicPledge[] {
    return this.recent.slice(0, limit).map((r) => r.pledge);
  }

  /** The admin stat cards, without a scan of the table. */
  pledgeStats(): PledgeStats {
    return {
      totalPledges: this.pledgeCount,
      paidPledges: this.paidCount,
      pendingPledges: this.pledgeCount - this.paidCount,
      totalUSD: this.totalUSD,
      totalJMD: this.totalJMD,
      receivedUSD: this.receivedUSD,
      receivedJMD: this.receivedJMD,
    };
  }

  /** How many pledges the admin table's status filter selects. */
  countByStatus(status: 'all' | 'paid' | 'pending'): number {
    if (status === 'paid') return this.paidCount;
    if (status === 'pending') return this.pledgeCount - this.paidCount;
    return this.pledgeCount;
  }

  deliveryUpdates(): DeliveryUpdate[] {
    return this.updates;
  }

  /** Counts changes of the public state: equal versions, equal bodies. */
  get version(): number {
    return this.changes;
  }

  /**
   * The one change signal. By default `listener` is called after every change, whether written
   * here or reloaded (another instance's write), inside the snapshot's lock: it must only schedule
   * work. With 'writes', it is called after each write of this process has released the lock, and
   * not after reloads (telling other instances must not echo their own changes back). Returns the
   * unsubscribe.
   */
  watch(listener: () => void, which: 'changes' | 'writes' = 'changes'): () => void {
    const set = which === 'writes' ? this.writeWatchers : this.watchers;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Whether anyone watches (the change feed's test: it listens on PostgreSQL only). */
  watched(which: 'changes' | 'writes' = 'changes'): boolean {
    return (which === 'writes' ? this.writeWatchers : this.watchers).size > 0;
  }

  /** Every change ends here: cached bodies are stale, watchers are told. */
  private changed(): void {
    this.cache.clear();
    this.changes += 1;
    for (const listener of this.watchers) listener();
  }

  /**
   * A response body computed once per change, for the hot public endpoints (see sendCached).
   * With `maxAgeMs`, also rebuilt when older than that (the HTML's "5 minutes ago").
   */
  body(key: string, contentType: string, build: () => string, maxAgeMs?: number): CachedBody {
    let body = this.cache.get(key);
    if (body === undefined || (maxAgeMs !== undefined && Date.now() - body.builtAt > maxAgeMs)) {
      body = new CachedBody(build(), contentType);
      this.cache.set(key, body);
    }
    return body;
  }

  jsonBody(key: string, build: () => unknown): CachedBody {
    return this.body(key, JSON_TYPE, () => JSON.stringify(build()));
  }

  /** Full reload from the database (start-up, admin edits, changes made by other instances). */
  reload(): Promise<void> {
    return this.lock.runExclusive(() => this.loadUnlocked());
  }

  /**
   * Runs a write and then refreshes the snapshot, atomically with respect to other snapshot
   * changes. `apply` gets the write's result; by default the whole state is reloaded.
   */
  async write<T>(run: () => Promise<T>, apply?: (result: T) => void): Promise<T> {
    const result = await this.lock.runExclusive(async () => {
      const r = await run();
      if (apply) {
        apply(r);
        this.changed();
      } else await this.loadUnlocked(); // which ends in changed()
      return r;
    });
    this.afterChange();
    return result;
  }

  /**
   * Like write(), for writes whose effects commute (batches of new pledges): several run at once,
   * never during an exclusive write or reload. `apply` must not depend on their order.
   */
  async writeShared<T>(run: () => Promise<T>, apply: (result: T) => void): Promise<T> {
    const result = await this.lock.runShared(async () => {
      const r = await run();
      apply(r);
      this.changed();
      return r;
    });
    this.afterChange();
    return result;
  }

  private afterChange(): void {
    for (const listener of this.writeWatchers) listener();
    if (this.stale) this.reloadUntilFresh();
  }

  /** After a write whose totals could not be read back: reload, retrying each second. */
  private reloadUntilFresh(): void {
    if (this.retrying) return;
    this.retrying = true;
    const attempt = () =>
      this.reload().then(
        () => {
          this.retrying = false;
        },
        () => setTimeout(attempt, 1000).unref(),
      );
    void attempt();
  }

  /**
   * After an insert of pledges (the hot path): the totals the same write read back (one row) and
   * the new rows merged into the newest 50, without any scan.
   */
  addPledges(rows: RecentPledge[], totals: CampaignTotals | undefined): void {
    // Batches applied out of order must not step the totals back: keep the newest version.
    if (totals && totals.version >= this.totalsVersion) this.setTotals(totals);
    else if (!totals) this.stale = true;
    this.recent = [...rows, ...this.recent].sort(newestFirst).slice(0, SNAPSHOT_RECENT);
  }

  private setTotals(t: CampaignTotals): void {
    this.totalsVersion = t.version;
    this.pledgeContainers = t.containers;
    this.confirmedContainers = t.confirmedContainers;
    this.outstandingContainers = t.outstandingContainers;
    this.pledgeCount = t.pledgeCount;
    this.paidCount = t.paidCount;
    this.totalUSD = t.usdAmount;
    this.totalJMD = t.jmdAmount;
    this.receivedUSD = t.receivedUsd;
    this.receivedJMD = t.receivedJmd;
    // Distinct e-mails over confirmed pledges, plus each pending pledge once (decision 008): a new
    // pledge always adds one, so pledging with someone's address says nothing about them, and a
    // donor's pledge still shows in the Donors tile at once.
    this.donorCount = t.donorCount + (t.pledgeCount - t.paidCount);
  }

  /** A handful of small reads: the totals row, the progress row, 50 pledges, the updates. */
  private async loadUnlocked(): Promise<void> {
    const [totals, progressRow, recentRows, updateRows] = await Promise.all([
      this.loader.totals(),
      this.loader.progressSettings(),
      this.loader.recentPledges(SNAPSHOT_RECENT),
      this.loader.deliveryUpdates(),
    ]);
    this.setTotals(totals);
    this.stale = false;
    this.manualAdjustment = progressRow.manualAdjustment;
    this.goalAmount = progressRow.goalAmount;
    this.progressUpdatedAt = progressRow.updatedAt;
    this.recent = recentRows;
    this.updates = updateRows;
    this.containersDelivered = updateRows.reduce((sum, u) => sum + u.containerCount, 0);
    this.changed();
  }
}
