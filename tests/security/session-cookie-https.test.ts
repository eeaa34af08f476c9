import { describe, expect, test } from '../support/fixtures';
import { TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app';

const ORIGIN = 'https://pledge.example.org';
// No TRUST_PROXY: the request itself arrives over plain http, as behind a proxy.
test.override('appOptions', { env: { PUBLIC_URL: ORIGIN } });

/**
 * Second review 2.8 (docs/SECURITY.md, threat 56): behind an https proxy without TRUST_PROXY the
 * session cookie was sent without Secure, though the site sends HSTS.
 */
describe('2.8 session cookie of an https site', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  const login = () =>
    t.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
      headers: { origin: ORIGIN },
    });
  const attrs = (header: string) =>
    header
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());

  test('2.8 is Secure with the __Host- prefix (Path=/, no Domain), and only that name is read', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    const header = res.headers.get('set-cookie')!;
    const pair = header.split(';')[0]!;
    expect(pair).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}$/);
    expect(attrs(header)).toEqual(
      expect.arrayContaining(['secure', 'httponly', 'path=/', 'samesite=lax']),
    );
    expect(attrs(header).some((a) => a.startsWith('domain='))).toBe(false);
    const token = pair.split('=')[1]!;
    expect((await t.request('/api/admin/pledges', { cookie: pair })).status).toBe(200);
    // The plain name (which a network attacker could plant over http) is not a session here.
    expect((await t.request('/api/admin/pledges', { cookie: `sid=${token}` })).status).toBe(401);
    // Logging out clears the same cookie, with the same flags.
    const out = await t.request('/api/admin/logout', {
      method: 'POST',
      cookie: pair,
      headers: { origin: ORIGIN },
    });
    expect(out.status).toBe(200);
    const cleared = out.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^__Host-sid=;/);
    expect(attrs(cleared)).toEqual(expect.arrayContaining(['secure', 'path=/']));
    expect((await t.request('/api/admin/pledges', { cookie: pair })).status).toBe(401);
  });
});
