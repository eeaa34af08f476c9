import { HttpError } from '../../lib/http-error';

/**
 * Bounds the scrypt work of logins (see docs/decisions/008-security-review-fixes.md). Each check
 * costs ~50-100 ms of a libuv thread and 16 MB; without a bound, 200 parallel attempts filled the
 * thread pool and a pledge waited 4 s. Admission is decided synchronously when the request arrives,
 * so parallel requests cannot all slip past a check made before their first await.
 *
 * - per client key: at most `perClient` attempts in flight (the rest: 429 at once);
 * - in total: `running` checks at a time, `queued` more waiting (the rest: 503 at once).
 */
export class PasswordCheckGate {
  private readonly perKey = new Map<string, number>();
  private admitted = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: { perClient: number; running: number; queued: number }) {}

  /** Admits one attempt or throws 429/503; call `leave()` of the result when the request ends. */
  enter(key: string, perClient = this.limits.perClient) {
    const mine = this.perKey.get(key) ?? 0;
    if (perClient > 0 && mine >= perClient) {
      throw new HttpError(
        429,
        'Too many login attempts at once. Please wait a moment and try again.',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    if (this.admitted >= this.limits.running + this.limits.queued) {
      throw new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, {
        'Retry-After': '1',
      });
    }
    this.perKey.set(key, mine + 1);
    this.admitted += 1;
    let left = false;
    return {
      /** Runs the password check when a slot is free. */
      run: async <T>(check: () => Promise<T>): Promise<T> => {
        await this.acquire();
        try {
          return await check();
        } finally {
          this.release();
        }
      },
      leave: () => {
        if (left) return;
        left = true;
        this.admitted -= 1;
        const n = (this.perKey.get(key) ?? 1) - 1;
        if (n > 0) this.perKey.set(key, n);
        else this.perKey.delete(key);
      },
    };
  }

  private acquire(): Promise<void> {
    if (this.active < this.limits.running) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
