import { afterAll, beforeAll } from 'vitest';
import { describe, expect, test } from '../support/fixtures';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function cookieOf(res: Response) {
  const header = res.headers.get('set-cookie');
  expect(header).toBeTruthy();
  const [pair, ...attrs] = header!.split(';').map((s) => s.trim());
  return { pair: pair!, attrs: attrs.map((a) => a.toLowerCase()) };
}

const loginWith = (t: TestApp, cookie?: string, headers?: Record<string, string>) =>
  t.request('/api/admin/login', {
    method: 'POST',
    json: { password: TEST_ADMIN_PASSWORD },
    cookie,
    headers,
  });

const adminStatus = async (t: TestApp, cookie: string) =>
  (await t.request('/api/admin/pledges', { cookie })).status;

/** Threats 11-14: the session cookie's life. */
/** The file's app reads this clock: the session tests move it. */
let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

describe('session', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test('11. session fixation: a cookie sent before login is replaced, and the old value is dead', async () => {
    // An attacker-chosen value (well-formed, never issued) ...
    const planted = `sid=${'x'.repeat(43)}`;
    const res = await loginWith(t, planted);
    expect(res.status).toBe(200);
    const issued = cookieOf(res).pair;
    expect(issued).not.toBe(planted);
    expect(await adminStatus(t, planted)).toBe(401);
    expect(await adminStatus(t, issued)).toBe(200);
    // ... and a real earlier session: logging in again rotates it and revokes the old one.
    const again = await loginWith(t, issued);
    const rotated = cookieOf(again).pair;
    expect(rotated).not.toBe(issued);
    expect(await adminStatus(t, issued)).toBe(401);
    expect(await adminStatus(t, rotated)).toBe(200);
  });

  test('12. cookie flags: HttpOnly, SameSite, Path=/, bounded Max-Age, no Secure over plain http', async () => {
    const { pair, attrs } = cookieOf(await loginWith(t));
    expect(pair).toMatch(/^sid=[A-Za-z0-9_-]{43}$/);
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    const maxAge = Number(attrs.find((a) => a.startsWith('max-age='))?.split('=')[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(12 * 3600);
    expect(attrs).not.toContain('secure');
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    // Without a trusted proxy, a forged X-Forwarded-Proto changes nothing.
    const forged = cookieOf(await loginWith(t, undefined, { 'x-forwarded-proto': 'https' }));
    expect(forged.attrs).not.toContain('secure');
  });

  test('13. logout revokes: the saved cookie replayed afterwards is 401', async () => {
    const cookie = cookieOf(await loginWith(t)).pair;
    expect(await adminStatus(t, cookie)).toBe(200);
    const out = await t.request('/api/admin/logout', { method: 'POST', cookie });
    expect(out.status).toBe(200);
    const cleared = cookieOf(out);
    expect(cleared.pair).toBe('sid=');
    expect(await adminStatus(t, cookie)).toBe(401);
    expect(
      (await t.request('/api/progress', { method: 'PUT', cookie, json: { manualAdjustment: 1 } }))
        .status,
    ).toBe(401);
    expect(await (await t.request('/api/admin/check', { cookie })).json()).toEqual({
      isAuthenticated: false,
    });
  });

  test('14a. idle expiry: 120 minutes without a request ends the session', async () => {
    const cookie = cookieOf(await loginWith(t)).pair;
    clock += 119 * MINUTE;
    expect(await adminStatus(t, cookie)).toBe(200); // activity resets the idle timer
    clock += 119 * MINUTE;
    expect(await adminStatus(t, cookie)).toBe(200);
    clock += 121 * MINUTE;
    expect(await adminStatus(t, cookie)).toBe(401);
    // Dead for good, even if the clock were to go back.
    clock -= 121 * MINUTE;
    expect(await adminStatus(t, cookie)).toBe(401);
  });

  test('14b. absolute expiry: 12 hours after login, even with constant activity', async () => {
    const cookie = cookieOf(await loginWith(t)).pair;
    const start = clock;
    while (clock + 100 * MINUTE < start + 12 * HOUR) {
      clock += 100 * MINUTE;
      expect(await adminStatus(t, cookie), `${(clock - start) / MINUTE} min`).toBe(200);
    }
    clock = start + 12 * HOUR - MINUTE;
    expect(await adminStatus(t, cookie)).toBe(200);
    clock = start + 12 * HOUR + MINUTE;
    expect(await adminStatus(t, cookie)).toBe(401);
  });
});

// Its own app: TRUST_PROXY is read at start.
describe('12. cookie flags behind an HTTPS proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  test('marks the cookie Secure when the proxy says the request came over https', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'relief.example.org' };
    const res = await loginWith(t, undefined, https);
    expect(res.status).toBe(200);
    const { pair, attrs } = cookieOf(res);
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    const out = await t.request('/api/admin/logout', {
      method: 'POST',
      cookie: pair,
      headers: https,
    });
    expect(cookieOf(out).attrs).toContain('secure');
    // Plain http through the same proxy: no Secure (the browser would drop the cookie).
    expect(cookieOf(await loginWith(t)).attrs).not.toContain('secure');
  });
});
