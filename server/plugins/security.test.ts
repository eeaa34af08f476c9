import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../../tests/support/test-app';

describe('cross-site requests', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://relief.example.org' } });
    cookie = await t.login();
  });
  afterAll(() => t.close());

  const body = { name: 'Ann', email: 'ann@donors.test', amount: 5 };

  it('refuses a mutating call from another origin with 403', async () => {
    for (const headers of [
      { origin: 'https://evil.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[]) {
      const res = await t.request('/api/progress', {
        method: 'PUT',
        cookie,
        headers,
        json: { manualAdjustment: 77 },
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toEqual({ message: 'Cross-site requests are not allowed.' });
    }
    expect((await (await t.request('/api/progress')).json()).manualAdjustment).toBe(0);
  });

  it('lets our own pages through: same origin, the PUBLIC_URL origin, or no Origin at all', async () => {
    for (const headers of [
      { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' },
      { origin: 'https://relief.example.org' },
      {},
    ] as Record<string, string>[]) {
      const res = await t.request('/api/pledges', { method: 'POST', headers, json: body });
      expect(res.status, JSON.stringify(headers)).toBe(201);
    }
  });

  it('leaves cross-site reads alone (links to the site keep working)', async () => {
    const res = await t.request('/api/progress', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(200);
  });
});

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(['/', '/api/progress', '/api/nope', '/missing-page'])('are on %s', async (path) => {
    const res = await t.request(path);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // No inline scripts: script-src is only 'self'.
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('logs', () => {
  it('never hold a password, a session cookie or a donor e-mail', async () => {
    let logs = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        logs += chunk.toString();
        done();
      },
    });
    const t = await startTestApp({ logger: { level: 'trace', stream } });
    try {
      await t.request('/api/admin/login', {
        method: 'POST',
        json: { password: 'wrong-password-in-logs' },
      });
      const cookie = await t.login();
      const token = cookie.split('=')[1]!;
      await t.request('/api/pledges', {
        method: 'POST',
        json: { name: 'Logged', email: 'secret.donor@donors.test', amount: 5 },
      });
      await t.request('/api/pledges', {
        method: 'POST',
        json: { name: '', email: 'bad.donor@donors.test', amount: 5 },
      });
      await t.request('/api/pledges', { cookie });
      await t.request('/api/admin/pledges?search=secret.donor@donors.test', { cookie });
      await t.request('/api/pledges/export', { cookie });
      await t.request('/api/admin/logout', { method: 'POST', cookie });
      await t.request('/api/admin/pledges', { cookie });

      expect(logs.length).toBeGreaterThan(0);
      expect(logs).toContain('/api/pledges');
      for (const secret of [
        'wrong-password-in-logs',
        TEST_ADMIN_PASSWORD,
        token,
        'secret.donor',
        'bad.donor',
      ]) {
        expect(logs, secret).not.toContain(secret);
      }
    } finally {
      await t.close();
    }
  });
});
