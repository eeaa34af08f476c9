import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../db/client';
import type { CampaignSnapshot } from './snapshot';

/** The PostgreSQL channel on which instances announce that they changed the campaign's data. */
export const CHANGE_CHANNEL = 'relief_campaign_changed';

export interface ChangeFeedOptions {
  database: Database;
  snapshot: CampaignSnapshot;
  log: FastifyBaseLogger;
  /** Reloads caused by other instances start at most this often (they are full reloads). */
  minReloadIntervalMs?: number;
  /** How often the listening connection is checked, so a silently dead one is replaced. */
  heartbeatMs?: number;
}

export interface ChangeFeed {
  /** True while the LISTEN connection is up (always false on PGlite: nothing to listen to). */
  readonly listening: boolean;
  /** Resolves once LISTEN is in place (or at once when there is nothing to listen to). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps the in-memory snapshots of several instances on one PostgreSQL database in step.
 *
 * Each instance applies its own writes to its snapshot exactly (CampaignSnapshot.write). After
 * each write it NOTIFYs CHANGE_CHANNEL (after the commit, so a listener always reads the new rows),
 * and each instance LISTENs on a dedicated connection and reloads its snapshot when another one
 * changed something. Staleness of one instance's view of another's writes is the notification's
 * trip plus one reload (a few ms to ~0.1 s at 100,000 pledges), at most minReloadIntervalMs more
 * under a stream of remote writes (reloads are coalesced), and while the listening connection is
 * being replaced, the reconnect delay (capped at 1 s; every reconnect reloads, since
 * notifications sent meanwhile are lost). See docs/decisions/005-performance.md.
 *
 * PGlite is one process by construction (the DATA_DIR lock), so there the feed does nothing.
 */
export function startChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  if (opts.database.kind !== 'postgres' || !opts.database.pool) {
    return { listening: false, ready: Promise.resolve(), close: async () => {} };
  }
  return new PgChangeFeed(opts, opts.database.pool);
}

const MAX_RECONNECT_DELAY_MS = 1000;
export const FEED_APPLICATION_NAME = 'relief-change-feed';

class PgChangeFeed implements ChangeFeed {
  private readonly instanceId = randomUUID();
  private readonly minReloadIntervalMs: number;
  private client: pg.Client | undefined;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  // Outgoing notifications: at most one in flight, and one more if changes happened meanwhile.
  private notifying = false;
  private notifyAgain = false;
  // Incoming: at most one reload at a time, one pending, and not more often than the interval.
  private reloading = false;
  private reloadPending = false;
  private reloadTimer: NodeJS.Timeout | undefined;
  private lastReloadAt = 0;
  private reloadFailing = false;
  listening = false;
  ready: Promise<void>;
  private readonly unwatch: () => void;

  constructor(
    private readonly opts: ChangeFeedOptions,
    private readonly pool: pg.Pool,
  ) {
    this.minReloadIntervalMs = opts.minReloadIntervalMs ?? 100;
    this.unwatch = opts.snapshot.watch(() => this.notify(), 'writes');
    this.ready = this.connect(false);
  }

  private notify(): void {
    if (this.closed) return;
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    this.pool
      .query('select pg_notify($1, $2)', [CHANGE_CHANNEL, this.instanceId])
      .catch((err: Error) =>
        this.opts.log.warn({ err: { message: err.message } }, 'change feed: NOTIFY failed'),
      )
      .finally(() => {
        this.notifying = false;
        if (this.notifyAgain) {
          this.notifyAgain = false;
          this.notify();
        }
      });
  }

  /** Opens the listening connection; after a reconnect, reloads (notifications were missed). */
  private async connect(isReconnect: boolean): Promise<void> {
    const client = new pg.Client({
      ...this.pool.options,
      // Named, so an operator (or a test) can find it in pg_stat_activity.
      application_name: FEED_APPLICATION_NAME,
      keepAlive: true,
      query_timeout: 5000,
      connectionTimeoutMillis: 3000,
    });
    this.client = client;
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client));
    client.on('notification', (msg) => {
      if (msg.channel === CHANGE_CHANNEL && msg.payload !== this.instanceId) this.requestReload();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      this.dropped(client, err as Error);
      return;
    }
    if (this.closed || this.client !== client) return;
    this.listening = true;
    this.attempt = 0;
    if (isReconnect) {
      this.opts.log.info('change feed: listening again');
      this.requestReload();
    }
    this.heartbeat = setInterval(() => {
      client.query('select 1').catch((err: Error) => this.dropped(client, err));
    }, this.opts.heartbeatMs ?? 5000);
    this.heartbeat.unref();
  }

  private dropped(client: pg.Client, err?: Error): void {
    if (this.client !== client) return; // already handled (error and end both fire)
    this.client = undefined;
    this.listening = false;
    clearInterval(this.heartbeat);
    client.removeAllListeners('notification');
    client.on('error', () => {});
    client.end().catch(() => undefined);
    if (this.closed) return;
    const delay =
      Math.min(MAX_RECONNECT_DELAY_MS, 100 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    if (this.attempt === 1) {
      this.opts.log.warn(
        { err: err ? { message: err.message } : undefined },
        'change feed: listening connection lost; reconnecting',
      );
    }
    this.reconnectTimer = setTimeout(() => void this.connect(true), delay);
    this.reconnectTimer.unref();
  }

  private requestReload(): void {
    if (this.closed) return;
    if (this.reloading) {
      this.reloadPending = true;
      return;
    }
    if (this.reloadTimer) return;
    const wait = this.lastReloadAt + this.minReloadIntervalMs - Date.now();
    if (wait > 0) {
      this.reloadTimer = setTimeout(() => {
        this.reloadTimer = undefined;
        void this.reload();
      }, wait);
      this.reloadTimer.unref();
      return;
    }
    void this.reload();
  }

  private async reload(): Promise<void> {
    this.reloading = true;
    this.lastReloadAt = Date.now();
    try {
      await this.opts.snapshot.reload();
      this.reloadFailing = false;
    } catch (err) {
      // Try again after the interval; say it once per outage.
      if (!this.reloadFailing) {
        this.opts.log.warn(
          { err: { message: (err as Error).message } },
          'change feed: reload failed; retrying',
        );
      }
      this.reloadFailing = true;
      // The database is likely down: try again in a second rather than at the reload interval.
      this.lastReloadAt = Date.now() + 1000 - this.minReloadIntervalMs;
      this.reloadPending = true;
    } finally {
      this.reloading = false;
      if (this.reloadPending) {
        this.reloadPending = false;
        this.requestReload();
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unwatch();
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.reloadTimer);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
