import { PassThrough } from 'node:stream';
import { LIVE_EVENT_NAME, LIVE_MIN_INTERVAL_MS, RECENT_PLEDGES_LIMIT } from '@shared/constants';
import type { LiveEvent } from '@shared/schemas/live';
import type { CachedBody } from '../../read-model/cached-body';
import type { CampaignSnapshot } from '../../read-model/snapshot';

/** How long a browser waits before reconnecting after the stream ends (a restart, a drain). */
const RECONNECT_MS = 5_000;
/**
 * A comment line this often keeps idle connections open through proxies (which commonly cut
 * silent ones after 30–60 s) and under the server's own 60 s socket timeout.
 */
const HEARTBEAT_MS = 25_000;
/**
 * A client that has not taken this much of what was sent is too slow to keep: it is dropped, and
 * its browser reconnects and gets the current state, rather than the server buffering for it.
 */
const MAX_BUFFERED_BYTES = 64 * 1024;

const HEARTBEAT = Buffer.from(':\n\n');

export interface LiveStreamOptions {
  snapshot: CampaignSnapshot;
  maxClients: number;
  /** Streams one client key (an IPv4 address, an IPv6 /64) may hold; 0: no per-client cap. */
  maxPerClient?: number;
  minIntervalMs?: number;
  heartbeatMs?: number;
}

/**
 * The live-progress stream (Server-Sent Events) of one instance: one coalescer and one heartbeat
 * for all its clients, not one per client. After a change of the snapshot (a write here, or a
 * reload after another instance's write), the event body is built once and the same bytes go to
 * every client, at most once per `minIntervalMs`; the first change after a quiet spell goes out
 * at once. See docs/decisions/016-live-progress-and-sharing.md.
 */
export class LiveStream {
  private readonly clients = new Set<PassThrough>();
  /** Open streams per client key (one address must not take every slot). */
  private readonly perClient = new Map<string, number>();
  /** Streams refused because their client held its share: a counter for /metrics. */
  refusedPerClient = 0;
  private readonly minIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = 0;
  /** The text of the last event sent: a change that leaves the public numbers alone sends nothing. */
  private lastSent = '';
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unwatch: () => void;
  private closed = false;

  constructor(private readonly opts: LiveStreamOptions) {
    this.minIntervalMs = opts.minIntervalMs ?? LIVE_MIN_INTERVAL_MS;
    this.unwatch = opts.snapshot.watch(() => this.schedule());
    this.heartbeat = setInterval(() => this.broadcast(HEARTBEAT), opts.heartbeatMs ?? HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** False when this instance serves its maximum (or the stream is turned off, or closing). */
  hasRoom(): boolean {
    return !this.closed && this.clients.size < this.opts.maxClients;
  }

  /** False when this client key holds its share of streams already (and counts the refusal). */
  hasRoomFor(key: string): boolean {
    const max = this.opts.maxPerClient ?? 0;
    if (max <= 0 || (this.perClient.get(key) ?? 0) < max) return true;
    this.refusedPerClient += 1;
    return false;
  }

  /** Client keys holding at least one stream (for /metrics). */
  get clientKeys(): number {
    return this.perClient.size;
  }

  /**
   * A new client's stream: the reconnect delay and the current state at once (the page's numbers
   * may be older than the stream, e.g. after a phone woke up), then every change.
   */
  open(key = ''): PassThrough {
    const stream = new PassThrough();
    this.clients.add(stream);
    this.perClient.set(key, (this.perClient.get(key) ?? 0) + 1);
    stream.once('close', () => {
      this.clients.delete(stream);
      const left = (this.perClient.get(key) ?? 1) - 1;
      if (left > 0) this.perClient.set(key, left);
      else this.perClient.delete(key);
    });
    stream.write(`retry: ${RECONNECT_MS}\n\n`);
    stream.write(this.currentEvent().raw);
    return stream;
  }

  /** Ends every stream (drain, shutdown): browsers reconnect, to this instance or another. */
  closeAll(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    this.unwatch();
    for (const stream of this.clients) stream.end();
    this.clients.clear();
    this.perClient.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    const wait = Math.max(0, this.lastFlushAt + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    this.lastFlushAt = Date.now();
    const event = this.currentEvent();
    if (event.text === this.lastSent) return;
    this.lastSent = event.text;
    this.broadcast(event.raw);
  }

  /** The event for the snapshot's current state, built once per change (the snapshot caches it). */
  private currentEvent(): CachedBody {
    const { snapshot } = this.opts;
    return snapshot.body('live-event', 'text/event-stream', () => {
      const event: LiveEvent = {
        progress: snapshot.progress(),
        pledges: snapshot.recentPledges(RECENT_PLEDGES_LIMIT),
      };
      return `event: ${LIVE_EVENT_NAME}\ndata: ${JSON.stringify(event)}\n\n`;
    });
  }

  private broadcast(bytes: Buffer): void {
    for (const stream of this.clients) {
      if (stream.writableLength + stream.readableLength > MAX_BUFFERED_BYTES) {
        stream.destroy();
        continue;
      }
      stream.write(bytes);
    }
  }
}
