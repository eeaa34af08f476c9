import { HttpError } from './http-error';

/**
 * A fixed one-minute window of attempts per client key, in memory, on the injectable clock: each
 * attempt is counted before its work (so parallel attempts each see their own count), and a
 * success gives its attempt back, so only failures add up (the login's rule, record 003). Used by
 * the donor status links: a wrong token costs a database lookup and a log
 * line, and a flood of them slowed the home. Per instance, like the pledge limit.
 */
export class AttemptLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    /** Failed attempts allowed per window and key; 0 turns the limit off. */
    private readonly max: number,
    private readonly now: () => Date,
    private readonly windowMs = 60_000,
    private readonly message = 'Too many requests from your network. Please wait a minute and try again.',
  ) {}

  /** Counts an attempt, or throws 429 with Retry-After when the key has used up its window. */
  hit(key: string): void {
    if (this.max <= 0) return;
    const now = this.now().getTime();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs || now < w.start) {
      if (this.windows.size >= 10_000) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > this.max) {
      const retryAfter = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      throw new HttpError(429, this.message, undefined, { 'Retry-After': String(retryAfter) });
    }
  }

  /** The attempt succeeded: it does not count. */
  undo(key: string): void {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count -= 1;
  }

  private prune(now: number) {
    for (const [key, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
