import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { isSignedIn, uploadImage } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import {
  createTestDatabase,
  forgetStoredAdminPassword,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../../../tests/support/test-app';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { settings } from '../../db/schema';

// The session's lifetime and the login rate limit (a clock the tests move): session-clock.test.ts.

/** The session cookie's value ("sid=<token>") and its attributes from a Set-Cookie header. */
function parseSetCookie(header: string | null) {
  expect(header).toBeTruthy();
  const [pair, ...attrs] = header!.split(';').map((s) => s.trim());
  return { pair: pair!, attrs: attrs.map((a) => a.toLowerCase()) };
}

const login = (t: TestApp, password: unknown, cookie?: string) =>
  t.request('/api/admin/login', { method: 'POST', json: { password }, cookie });

const check = (t: TestApp, cookie?: string) => isSignedIn(t, cookie);

describe('admin session', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test('reports not authenticated without a cookie, and is never cached', async () => {
    const res = await t.request('/api/admin/check');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ isAuthenticated: false });
  });

  test('logs in with the right password and sets an HttpOnly, SameSite=Lax, Path=/ cookie', async () => {
    const res = await login(t, TEST_ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ ok: true, isAuthenticated: true });
    const { pair, attrs } = parseSetCookie(res.headers.get('set-cookie'));
    expect(pair).toMatch(/^sid=[A-Za-z0-9_-]{43}$/);
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    expect(attrs).toContain(`max-age=${12 * 3600}`);
    // Plain http here: a Secure cookie would never come back.
    expect(attrs).not.toContain('secure');
    expect(await check(t, pair)).toBe(true);
  });

  test('issues a new token at every login', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) tokens.add(await t.login());
    expect(tokens.size).toBe(3);
    for (const cookie of tokens) expect(await check(t, cookie)).toBe(true);
  });

  test('rotates the session at login: the cookie the browser had before is revoked', async () => {
    const before = await t.login();
    const res = await login(t, TEST_ADMIN_PASSWORD, before);
    expect(res.status).toBe(200);
    const after = parseSetCookie(res.headers.get('set-cookie')).pair;
    expect(after).not.toBe(before);
    expect(await check(t, before)).toBe(false);
    expect(await check(t, after)).toBe(true);
  });

  test('revokes the session at logout: the old cookie then gets 401', async () => {
    const cookie = await t.login();
    expect((await t.request('/api/admin/pledges', { cookie })).status).toBe(200);

    const res = await t.request('/api/admin/logout', { method: 'POST', cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isAuthenticated: false });
    const { pair, attrs } = parseSetCookie(res.headers.get('set-cookie'));
    expect(pair).toBe('sid=');
    expect(attrs.some((a) => a.startsWith('expires=') || a === 'max-age=0')).toBe(true);

    expect(await check(t, cookie)).toBe(false);
    const again = await t.request('/api/admin/pledges', { cookie });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ message: 'Admin session required' });
  });

  test('answers logout without a session too (the client logs out whatever happens)', async () => {
    const res = await t.request('/api/admin/logout', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isAuthenticated: false });
  });

  test('refuses a wrong password with "Invalid admin password" and sets no cookie', async () => {
    const res = await login(t, 'not-the-password');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid admin password' });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  test.each([
    ['an empty password', { password: '' }],
    ['no password', {}],
    ['a number', { password: 12345678 }],
    ['null', { password: null }],
  ])('answers "Password is required" for %s', async (_what, body) => {
    const res = await t.request('/api/admin/login', { method: 'POST', json: body });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Password is required');
  });

  test('compares passwords of any length without failing (hashes of both sides)', async () => {
    for (const password of ['x', TEST_ADMIN_PASSWORD + 'x', 'é'.repeat(4000)]) {
      const res = await login(t, password);
      expect(res.status).toBe(401);
    }
    // Past the schema's bound: still a clean 4xx, never a 500.
    const long = await login(t, 'y'.repeat(5000));
    expect(long.status).toBe(400);
    const huge = await login(t, 'z'.repeat(20_000));
    expect(huge.status).toBe(413);
  });

  test('treats a made-up or malformed cookie as no session', async () => {
    for (const cookie of ['sid=' + 'A'.repeat(43), 'sid=short', 'sid=%00%01', 'sid=']) {
      expect(await check(t, cookie)).toBe(false);
      expect((await t.request('/api/admin/pledges', { cookie })).status).toBe(401);
    }
  });
});

describe('generated admin password (no ADMIN_PASSWORD)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  test('is generated once, reported once, stored as a hash, and accepted at login', async () => {
    const { database, drop } = await createTestDatabase();
    cleanups.push(async () => {
      await database.close();
      await drop();
    });
    await forgetStoredAdminPassword(database);
    // A folder of its own: the two database projects run this file at the same time.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-admin-generated-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(config.adminPassword).toBeUndefined();

    const seen: string[] = [];
    const first = await buildApp({ config, database, onGeneratedPassword: (p) => seen.push(p) });
    await first.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^[A-Za-z0-9]{24}$/);

    // A restart on the same data keeps the password and prints nothing.
    const second = await buildApp({ config, database, onGeneratedPassword: (p) => seen.push(p) });
    try {
      expect(seen).toHaveLength(1);
      const ok = await second.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { password: seen[0] },
      });
      expect(ok.statusCode).toBe(200);
      const bad = await second.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { password: TEST_ADMIN_PASSWORD },
      });
      expect(bad.statusCode).toBe(401);
    } finally {
      await second.close();
    }

    // Only a slow hash is stored, never the password itself.
    const values = JSON.stringify(await database.db.select().from(settings));
    expect(values).not.toContain(seen[0]);
    // At the app's own cost (the test databases' cheaper hash is only theirs).
    expect(values).toMatch(/"scrypt\$16384\$8\$1\$/);
  });
});

/** Every admin call of the API, with a body that would change something if it were accepted. */
function adminCalls(ids: { pledge: string; update: string; imageUrl: string }) {
  return [
    ['PUT', '/api/progress', { manualAdjustment: 999, goalAmount: 7 }],
    ['PUT', `/api/pledges/${ids.pledge}/confirm`, {}],
    ['PATCH', `/api/pledges/${ids.pledge}`, { updates: { name: 'Mallory', amount: 5000 } }],
    ['DELETE', `/api/pledges/${ids.pledge}`, undefined],
    ['GET', '/api/pledges/export', undefined],
    ['GET', '/api/admin/pledges', undefined],
    [
      'POST',
      '/api/updates',
      { imageUrl: ids.imageUrl, recipient: 'X', containerCount: 5, deliveryDate: '2025-01-05' },
    ],
    ['PATCH', `/api/updates/${ids.update}`, { updates: { recipient: 'Mallory' } }],
    ['DELETE', `/api/updates/${ids.update}`, undefined],
    ['POST', '/api/objects/upload', undefined],
  ] as const;
}

describe('admin calls without a session', () => {
  let t: TestApp;
  let cookie: string;
  let ids: { pledge: string; update: string; imageUrl: string };
  /** Everything an admin can see, to prove that nothing changed. */
  const state = async () => {
    const [pledges, progress, updates] = await Promise.all([
      t.request('/api/pledges', { cookie }).then((r) => r.json()),
      t.request('/api/progress').then((r) => r.json()),
      t.request('/api/updates').then((r) => r.json()),
    ]);
    return { pledges, progress, updates };
  };

  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    const pledge = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Ann', email: 'ann@example.org', amount: 110 },
    });
    const imageUrl = await uploadImage(t, cookie);
    const update = await t.request('/api/updates', {
      method: 'POST',
      cookie,
      json: { imageUrl, recipient: 'Shelter', containerCount: 10, deliveryDate: '2025-01-05' },
    });
    ids = { pledge: (await pledge.json()).id, update: (await update.json()).id, imageUrl };
  });

  test('answers 401 on every admin call and changes nothing', async () => {
    const before = await state();
    const revoked = await t.login();
    await t.request('/api/admin/logout', { method: 'POST', cookie: revoked });

    for (const sessionCookie of [undefined, revoked, 'sid=forged']) {
      for (const [method, url, body] of adminCalls(ids)) {
        const res = await t.request(url, { method, json: body, cookie: sessionCookie });
        expect(res.status, `${method} ${url} with ${sessionCookie}`).toBe(401);
        expect(await res.json()).toEqual({ message: 'Admin session required' });
        expect(res.headers.get('set-cookie')).toBeNull();
      }
    }
    expect(await state()).toEqual(before);
  });

  test('answers 401 before reading the body (a wrong content type is not even parsed)', async () => {
    const res = await t.request('/api/progress', {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'manualAdjustment=1',
    });
    expect(res.status).toBe(401);
  });

  test('lets the same calls through with a session (the list above is really admin-only)', async () => {
    for (const [method, url] of adminCalls(ids).filter(([m]) => m === 'GET')) {
      expect((await t.request(url, { method, cookie })).status).toBe(200);
    }
  });
});
