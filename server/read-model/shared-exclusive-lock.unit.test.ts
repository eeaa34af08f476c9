import { describe, expect, it } from 'vitest';
import { SharedExclusiveLock } from './shared-exclusive-lock';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('SharedExclusiveLock', () => {
  it('runs shared holders together and exclusive ones alone, in arrival order', async () => {
    const lock = new SharedExclusiveLock();
    const log: string[] = [];
    let running = 0;
    let maxShared = 0;
    const shared = (name: string) =>
      lock.runShared(async () => {
        running += 1;
        maxShared = Math.max(maxShared, running);
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
        running -= 1;
      });
    const exclusive = (name: string) =>
      lock.runExclusive(async () => {
        expect(running).toBe(0);
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      });
    await Promise.all([shared('a'), shared('b'), exclusive('X'), shared('c'), exclusive('Y')]);
    expect(maxShared).toBe(2);
    // X waits for a and b; c (arrived after X) waits for X; Y waits for c.
    expect(log.indexOf('X+')).toBeGreaterThan(Math.max(log.indexOf('a-'), log.indexOf('b-')));
    expect(log.indexOf('c+')).toBeGreaterThan(log.indexOf('X-'));
    expect(log.indexOf('Y+')).toBeGreaterThan(log.indexOf('c-'));
  });

  it('releases on errors', async () => {
    const lock = new SharedExclusiveLock();
    await expect(lock.runExclusive(async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(lock.runShared(async () => 1)).resolves.toBe(1);
    await expect(lock.runExclusive(async () => 2)).resolves.toBe(2);
  });
});
