/**
 * A readers-writer lock for async sections. Shared holders run together (batches of new pledges:
 * their effects on the snapshot commute); an exclusive holder runs alone (a reload, an admin write).
 * A waiting exclusive request blocks new shared holders, so a stream of pledges cannot starve an
 * admin's write.
 */
export class SharedExclusiveLock {
  private shared = 0;
  private exclusive = false;
  private queue: { mode: 'shared' | 'exclusive'; start: () => void }[] = [];

  runShared<T>(fn: () => Promise<T>): Promise<T> {
    return this.acquire('shared').then(() => this.release(fn, 'shared'));
  }

  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.acquire('exclusive').then(() => this.release(fn, 'exclusive'));
  }

  private canStart(mode: 'shared' | 'exclusive'): boolean {
    if (mode === 'shared') return !this.exclusive && this.queue.length === 0;
    return !this.exclusive && this.shared === 0 && this.queue.length === 0;
  }

  private acquire(mode: 'shared' | 'exclusive'): Promise<void> {
    if (this.canStart(mode)) {
      this.take(mode);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ mode, start: resolve }));
  }

  private take(mode: 'shared' | 'exclusive'): void {
    if (mode === 'shared') this.shared += 1;
    else this.exclusive = true;
  }

  private async release<T>(fn: () => Promise<T>, mode: 'shared' | 'exclusive'): Promise<T> {
    try {
      return await fn();
    } finally {
      if (mode === 'shared') this.shared -= 1;
      else this.exclusive = false;
      this.wake();
    }
  }

  /** Starts the waiters at the head of the queue that may run now, in order. */
  private wake(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const free = next.mode === 'shared' ? !this.exclusive : !this.exclusive && this.shared === 0;
      if (!free) return;
      this.queue.shift();
      this.take(next.mode);
      next.start();
      if (next.mode === 'exclusive') return;
    }
  }
}
