import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describe, expect, test } from '../support/fixtures';
import { runMigrations } from '../../server/db/migrate';
import {
  createTestDatabase,
  forgetStoredAdminPassword,
  startTestApp,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../support/test-app';

const isAdmin = async (t: TestApp, cookie: string) =>
  ((await (await t.request('/api/admin/check', { cookie })).json()) as { isAuthenticated: boolean })
    .isAuthenticated;

/**
 * Review finding 9.7 (docs/SECURITY.md): a session made with an old password stayed valid after the
 * password was changed.
 */
// Own apps here: restarts on one database with another ADMIN_PASSWORD.
describe('9.7 sessions end when the configured password changes', () => {
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  beforeAll(async () => {
    own = await createTestDatabase();
    await runMigrations(own.database);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-password-change-'));
  });
  afterAll(async () => {
    await own.database.close();
    await own.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = (password: string) =>
    startTestApp({ database: own.database, dataDir, env: { ADMIN_PASSWORD: password } });

  test('keeps sessions over a restart with the same password, ends them when it changes', async () => {
    const first = await start(TEST_ADMIN_PASSWORD);
    const cookie = await first.login();
    await first.close();

    const same = await start(TEST_ADMIN_PASSWORD);
    expect(await isAdmin(same, cookie)).toBe(true);
    await same.close();

    const changed = await start('a-brand-new-password-456');
    try {
      expect(await isAdmin(changed, cookie)).toBe(false);
      expect((await changed.request('/api/admin/pledges', { cookie })).status).toBe(401);
      // The old password no longer logs in; the new one does.
      const old = await changed.request('/api/admin/login', {
        method: 'POST',
        json: { password: TEST_ADMIN_PASSWORD },
      });
      expect(old.status).toBe(401);
      const fresh = await changed.request('/api/admin/login', {
        method: 'POST',
        json: { password: 'a-brand-new-password-456' },
      });
      expect(fresh.status).toBe(200);
    } finally {
      await changed.close();
    }
  });
});

/**
 * Second review 2.4 (docs/SECURITY.md, threat 52): the README's reset of a lost generated password
 * (delete the stored hash, restart) printed a new password, but the old cookie stayed an admin.
 */
describe('2.4 resetting the generated password ends every session', () => {
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  beforeAll(async () => {
    own = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-password-reset-'));
  });
  afterAll(async () => {
    await own.database.close();
    await own.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  // No ADMIN_PASSWORD: the stored (generated) hash is the password. The template stores the test
  // password's hash, which stands for a generated one here.
  const start = () =>
    startTestApp({ database: own.database, dataDir, env: { ADMIN_PASSWORD: '' } });

  test('2.4 a restart keeps sessions; a restart after deleting the hash ends them', async () => {
    const first = await start();
    const cookie = await first.login();
    const other = await first.login();
    await first.close();

    const same = await start();
    expect(await isAdmin(same, cookie)).toBe(true);
    await same.close();

    // The README: delete the admin_password_hash row of settings, restart.
    await forgetStoredAdminPassword(own.database);
    const reset = await start();
    try {
      for (const c of [cookie, other]) {
        expect(await isAdmin(reset, c)).toBe(false);
        expect((await reset.request('/api/admin/pledges', { cookie: c })).status).toBe(401);
      }
      const old = await reset.request('/api/admin/login', {
        method: 'POST',
        json: { password: TEST_ADMIN_PASSWORD },
      });
      expect(old.status).toBe(401);
    } finally {
      await reset.close();
    }
  });
});

describe('9.7 "Sign out all sessions"', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test('ends every admin session, the caller included', async () => {
    const phone = await t.login();
    const laptop = await t.login();
    const res = await t.request('/api/admin/sessions', { method: 'DELETE', cookie: laptop });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, isAuthenticated: false });
    expect(res.headers.get('set-cookie')).toMatch(/^sid=;/);
    expect(await isAdmin(t, phone)).toBe(false);
    expect(await isAdmin(t, laptop)).toBe(false);
    // A new login works again afterwards.
    expect(await isAdmin(t, await t.login())).toBe(true);
  });

  test('needs a session and a same-origin request', async () => {
    const cookie = await t.login();
    expect((await t.request('/api/admin/sessions', { method: 'DELETE' })).status).toBe(401);
    const cross = await t.request('/api/admin/sessions', {
      method: 'DELETE',
      cookie,
      headers: { origin: 'https://evil.test' },
    });
    expect(cross.status).toBe(403);
    expect(await isAdmin(t, cookie)).toBe(true);
  });
});
