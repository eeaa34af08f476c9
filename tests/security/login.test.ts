import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app';
import { rawRequest } from '../support/http';

const attempt = (t: TestApp, password: unknown, headers?: Record<string, string>) =>
  t.request('/api/admin/login', { method: 'POST', json: { password }, headers });

/** Threat 15: guessing the password. */
describe('15. brute force, no proxy configured', () => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('locks after 10 wrong passwords in a minute, refuses even the right one, and unlocks later', async () => {
    for (let i = 0; i < 10; i++) {
      // A rotating X-Forwarded-For must not make each attempt look like a new client.
      const res = await attempt(t, `wrong-${i}`, { 'x-forwarded-for': `198.51.100.${i + 1}` });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
      clock += 3_000;
    }
    const locked = await attempt(t, 'wrong-again', { 'x-forwarded-for': '203.0.113.77' });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await locked.json()) as { message: string }).message).toMatch(/Too many/);

    const right = await attempt(t, TEST_ADMIN_PASSWORD);
    expect(right.status).toBe(429);
    expect(right.headers.get('set-cookie')).toBeNull();
    const rightRotated = await attempt(t, TEST_ADMIN_PASSWORD, { 'x-forwarded-for': '10.9.8.7' });
    expect(rightRotated.status).toBe(429);

    clock += 61_000;
    const later = await attempt(t, TEST_ADMIN_PASSWORD);
    expect(later.status).toBe(200);
  });
});

describe('15. brute force behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('counts per forwarded client address when the proxy is trusted', async () => {
    const client = { 'x-forwarded-for': '203.0.113.10' };
    for (let i = 0; i < 10; i++) expect((await attempt(t, `bad-${i}`, client)).status).toBe(401);
    expect((await attempt(t, TEST_ADMIN_PASSWORD, client)).status).toBe(429);
    // Another client behind the same proxy is not locked out by the first one.
    const other = await attempt(t, TEST_ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.11' });
    expect(other.status).toBe(200);
  });
});

/** Threats 16-17: odd passwords and bodies. */
describe('16-17. login input', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The limit is not what is under test here.
    t = await startTestApp({ env: { RATE_LIMIT_LOGIN_PER_MINUTE: '0' } });
  });
  afterAll(() => t.close());

  it('16. wrong passwords of length 0, 1, 10,000 and 1 MB are 400/401/413, never 500', async () => {
    const cases: [string, number[]][] = [
      ['', [400]],
      ['x', [401]],
      ['y'.repeat(10_000), [400, 401, 413]],
      ['z'.repeat(1024 * 1024), [413]],
    ];
    for (const [password, allowed] of cases) {
      const started = Date.now();
      const res = await attempt(t, password);
      expect(allowed, `length ${password.length}: ${res.status}`).toContain(res.status);
      expect(res.headers.get('set-cookie')).toBeNull();
      const body = (await res.json()) as { message: string };
      expect(typeof body.message).toBe('string');
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    expect(((await (await attempt(t, '')).json()) as { message: string }).message).toBe(
      'Password is required',
    );
    expect(((await (await attempt(t, 'x')).json()) as { message: string }).message).toBe(
      'Invalid admin password',
    );
  });

  it('17. a password that is not a string, or a missing one, is 400', async () => {
    for (const body of [
      { password: ['x'] },
      {},
      { password: null },
      { password: 12345678 },
      { password: { $ne: '' } },
      [TEST_ADMIN_PASSWORD],
      TEST_ADMIN_PASSWORD,
    ]) {
      const res = await t.request('/api/admin/login', { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('17. a text/plain, form or multipart body is 415, even with the right password', async () => {
    const bodies: [string, string][] = [
      ['text/plain', JSON.stringify({ password: TEST_ADMIN_PASSWORD })],
      ['text/plain;charset=UTF-8', JSON.stringify({ password: TEST_ADMIN_PASSWORD })],
      ['application/x-www-form-urlencoded', `password=${TEST_ADMIN_PASSWORD}`],
      [
        'multipart/form-data; boundary=XyZ',
        `--XyZ\r\nContent-Disposition: form-data; name="password"\r\n\r\n${TEST_ADMIN_PASSWORD}\r\n--XyZ--\r\n`,
      ],
    ];
    for (const [type, body] of bodies) {
      const res = await rawRequest(t.baseUrl, {
        method: 'POST',
        path: '/api/admin/login',
        headers: { 'content-type': type },
        body,
      });
      expect(res.status, type).toBe(415);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // No Content-Type at all, with a body: not JSON either.
    const bare = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/admin/login',
      headers: { 'content-length': '40' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }).padEnd(40, ' '),
    });
    expect([400, 415]).toContain(bare.status);
    expect(bare.headers['set-cookie']).toBeUndefined();
  });
});
