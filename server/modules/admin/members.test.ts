import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import type { AuditPage } from '@shared/schemas/audit';
import { TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-password';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createMember, MEMBER_PASSWORD } from '../../../tests/support/team';
import { OWNER_ACCOUNT_ID } from '../../db/schema';
import * as repo from './repo';

// Addresses from X-Forwarded-For, so the per-account limit can be met from many addresses.
test.override('appOptions', { env: { TRUST_PROXY: 'true' } });

const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** Team members sign in with e-mail and password at the owner's login. */
describe('member sign-in', () => {
  test('right e-mail and password sign in; wrong ones get one message for both', async ({
    app,
  }) => {
    const m = await createMember(app, 'treasurer');
    const login = (json: object, ip: string) =>
      app.request('/api/admin/login', { method: 'POST', json, headers: from(ip) });
    // The e-mail is matched without regard to case or surrounding spaces.
    const ok = await login(
      { email: ` ${m.email.toUpperCase()} `, password: MEMBER_PASSWORD },
      '198.51.100.1',
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/^sid=/);
    for (const body of [
      { email: m.email, password: 'not-the-password' },
      { email: 'nobody@team.example.test', password: MEMBER_PASSWORD },
      // The owner's password is no member's.
      { email: m.email, password: TEST_ADMIN_PASSWORD },
    ]) {
      const res = await login(body, '198.51.100.2');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: ADMIN_MESSAGES.invalidMemberLogin });
    }
    // The owner's path is the spec's: password alone, its own message.
    const owner = await login({ password: 'wrong' }, '198.51.100.3');
    expect(await owner.json()).toEqual({ message: ADMIN_MESSAGES.invalidPassword });
    expect((await login({ password: TEST_ADMIN_PASSWORD }, '198.51.100.3')).status).toBe(200);
  });

  test('a disabled member cannot sign in, and their open sessions end at once', async ({ app }) => {
    const m = await createMember(app, 'editor');
    const cookie = await m.login();
    const check = async () =>
      (
        (await (await app.request('/api/admin/check', { cookie })).json()) as {
          isAuthenticated: boolean;
        }
      ).isAuthenticated;
    expect(await check()).toBe(true);
    await repo.updateAccount(app.database.db, m.id, { disabledAt: app.config.now() });
    expect(await check()).toBe(false);
    const res = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: MEMBER_PASSWORD },
      headers: from('198.51.100.20'),
    });
    expect(res.status).toBe(401);
  });

  test('failed sign-ins count per account across addresses as well as per address', async ({
    app,
  }) => {
    const m = await createMember(app, 'viewer');
    const other = await createMember(app, 'viewer');
    const limit = app.config.rateLimitLoginPerMinute;
    // Three times one address's limit, each from its own address (none reaches its own limit).
    for (let i = 0; i < limit * 3; i++) {
      const res = await app.request('/api/admin/login', {
        method: 'POST',
        json: { email: m.email, password: `wrong-${i}` },
        headers: from(`203.0.113.${i + 1}`),
      });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const locked = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: MEMBER_PASSWORD },
      headers: from('192.0.2.200'),
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another account, from a fresh address, is not locked by it.
    const fine = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: other.email, password: MEMBER_PASSWORD },
      headers: from('192.0.2.201'),
    });
    expect(fine.status).toBe(200);
  });
});

describe('the audit log says who', () => {
  test('entries carry the acting account, its role then, and filter by person', async ({
    app,
    pledge,
  }) => {
    const treasurer = await createMember(app, 'treasurer', { name: 'Tess Treasurer' });
    const cookie = await treasurer.login();
    const { id } = await pledge();
    const confirmed = await app.request(`/api/pledges/${id}/confirm`, {
      method: 'PUT',
      json: {},
      cookie,
    });
    expect(confirmed.status).toBe(200);
    // A later change of role does not rewrite what the entry says.
    await repo.updateAccount(app.database.db, treasurer.id, { role: 'viewer' });
    const owner = await app.login();
    const res = await app.request(`/api/admin/activity?actor=${treasurer.id}`, { cookie: owner });
    expect(res.status).toBe(200);
    const page = (await res.json()) as AuditPage;
    expect(page.items.map((e) => e.action)).toEqual(['pledge.confirm', 'admin.login']);
    for (const e of page.items) {
      expect(e.actor).toEqual({
        accountId: treasurer.id,
        name: 'Tess Treasurer',
        role: 'treasurer',
      });
    }
    const mine = await app.request(`/api/admin/activity?actor=${OWNER_ACCOUNT_ID}&limit=1`, {
      cookie: owner,
    });
    const [ownerEntry] = ((await mine.json()) as AuditPage).items;
    expect(ownerEntry).toMatchObject({
      action: 'admin.login',
      actor: { accountId: OWNER_ACCOUNT_ID, name: 'Owner', role: 'owner' },
    });
  });

  test('a failed member sign-in is an entry naming the account tried', async ({ app }) => {
    const m = await createMember(app, 'editor');
    await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: 'wrong-password' },
      headers: from('198.51.100.40'),
    });
    const res = await app.request('/api/admin/activity?limit=5', { cookie: await app.login() });
    const failed = ((await res.json()) as AuditPage).items.find(
      (e) => e.action === 'admin.login.failed' && e.targetId === m.id,
    );
    expect(failed).toMatchObject({
      targetType: 'admin_account',
      actor: null,
      details: { email: m.email },
    });
  });
});
