import { isSignedIn } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../../../tests/support/test-app';

/**
 * The admin session's lifetime and the login rate limit, on the app's clock, which the tests move
 * (no sleep). The rest of the admin session: routes.test.ts.
 */
const HOUR = 3600_000;
const MINUTE = 60_000;

/**
 * The file's app reads this clock. Both suites share the app: the session tests log in with the
 * right password only, which the rate limit does not count.
 */
let clock = Date.parse('2025-03-01T12:00:00Z');
test.override('appOptions', { now: () => new Date(clock) });

const login = (t: TestApp, password: unknown, cookie?: string) =>
  t.request('/api/admin/login', { method: 'POST', json: { password }, cookie });

const check = (t: TestApp, cookie?: string) => isSignedIn(t, cookie);

describe('session lifetime', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test('ends a session left idle longer than SESSION_IDLE_MINUTES (120)', async () => {
    const cookie = await t.login();
    clock += 119 * MINUTE;
    expect(await check(t, cookie)).toBe(true);
    clock += 121 * MINUTE;
    expect(await check(t, cookie)).toBe(false);
  });

  test('ends every session 12 hours after login, however active', async () => {
    const cookie = await t.login();
    for (let h = 1; h < 12; h++) {
      clock += HOUR;
      expect(await check(t, cookie)).toBe(true);
    }
    clock += HOUR;
    expect(await check(t, cookie)).toBe(false);
    expect((await t.request('/api/admin/pledges', { cookie })).status).toBe(401);
  });
});

describe('login rate limit', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test('answers 429 with Retry-After after 10 failures in a minute, even for the right password', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await login(t, `wrong-${i}`);
      expect(res.status).toBe(401);
    }
    const blocked = await login(t, TEST_ADMIN_PASSWORD);
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await blocked.json()).message).toMatch(/Too many login attempts/);
    expect(blocked.headers.get('set-cookie')).toBeNull();

    // A minute later the window has passed.
    clock += 61_000;
    expect((await login(t, TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  test('does not count successful logins', async () => {
    clock += 61_000;
    for (let i = 0; i < 15; i++) expect((await login(t, TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  test('is turned off by RATE_LIMIT_LOGIN_PER_MINUTE=0', async () => {
    const free = await startTestApp({ env: { RATE_LIMIT_LOGIN_PER_MINUTE: '0' } });
    try {
      for (let i = 0; i < 12; i++) expect((await login(free, 'wrong')).status).toBe(401);
      expect((await login(free, TEST_ADMIN_PASSWORD)).status).toBe(200);
    } finally {
      await free.close();
    }
  });
});
