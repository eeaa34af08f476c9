import { Secret, TOTP } from 'otpauth';
import type { AuditPage } from '@shared/schemas/audit';
import { TEAM_MESSAGES, type TeamMember } from '@shared/schemas/team';
import { TWO_FACTOR_MESSAGES, type TotpSetup } from '@shared/schemas/two-factor';
import { TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-password';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { softwarePasskey } from '../../../tests/support/software-passkey';
import { createMember, type Member } from '../../../tests/support/team';
import type { TestApp } from '../../../tests/support/test-app';
import { OWNER_ACCOUNT_ID } from '../../db/schema';

// Re-authentication before weakening one's own second factors, and the owner clearing a member's
// (docs/decisions/023-two-factor.md).

let clock = Date.parse('2026-11-26T15:00:05Z');
test.override('appOptions', { now: () => new Date(clock), env: { TRUST_PROXY: 'true' } });

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);
const codeAt = (secret: string, at = clock) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });
const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message;

async function setUpTotp(app: TestApp, cookie: string) {
  const started = await app.request('/api/admin/security/totp', { method: 'POST', cookie });
  const { secret } = (await started.json()) as TotpSetup;
  const confirmed = await app.request('/api/admin/security/totp/confirm', {
    method: 'POST',
    json: { code: codeAt(secret) },
    cookie,
  });
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

async function addPasskey(app: TestApp, cookie: string) {
  const key = softwarePasskey();
  const opts = await app.request('/api/admin/security/passkeys/options', {
    method: 'POST',
    cookie,
  });
  const res = await app.request('/api/admin/security/passkeys', {
    method: 'POST',
    json: { name: 'Phone', response: key.register(await opts.json(), new URL(app.baseUrl).origin) },
    cookie,
  });
  expect(res.status).toBe(200);
  const status = await app.request('/api/admin/security', { cookie });
  return ((await status.json()) as { passkeys: { id: string }[] }).passkeys[0]!.id;
}

/** Both steps of a member's sign-in with TOTP: the session cookie. */
async function signInWithCode(app: TestApp, m: Member, secret: string) {
  const res = await app.request('/api/admin/login', {
    method: 'POST',
    json: { email: m.email, password: m.password },
  });
  const ok = await app.request('/api/admin/login/second-factor', {
    method: 'POST',
    json: { method: 'totp', code: codeAt(secret) },
    cookie: cookieOf(res, 'sid_2fa')!,
  });
  expect(ok.status).toBe(200);
  return cookieOf(ok, 'sid')!;
}

async function activity(app: TestApp, actor: string) {
  const res = await app.request(`/api/admin/activity?actor=${actor}&limit=50`, {
    cookie: await app.login(),
  });
  return ((await res.json()) as AuditPage).items;
}

describe('re-authentication before weakening one’s own second factors', () => {
  test('removing the app needs the current password or a current code', async ({ app }) => {
    const m = await createMember(app, 'treasurer', { name: 'Rhea Reauth' });
    const cookie = await m.login();
    const { secret } = await setUpTotp(app, cookie);
    const remove = (json?: object) =>
      app.request('/api/admin/security/totp', {
        method: 'DELETE',
        cookie,
        ...(json ? { json } : {}),
      });

    // The session alone (a computer left signed in) is not enough.
    for (const body of [undefined, {}, { currentPassword: '' }]) {
      const bare = await remove(body);
      expect(bare.status).toBe(400);
    }
    expect(await messageOf(await remove({}))).toBe(TWO_FACTOR_MESSAGES.reauthRequired);
    const wrong = await remove({ currentPassword: 'not-my-password-at-all' });
    expect(wrong.status).toBe(400);
    expect(await messageOf(wrong)).toBe(TWO_FACTOR_MESSAGES.reauthWrong);
    // A code already used at set-up (same 30 s) cannot confirm: codes are single use here too.
    expect((await remove({ code: codeAt(secret) })).status).toBe(400);
    let status = await app.request('/api/admin/security', { cookie });
    expect(await status.json()).toMatchObject({ totp: true });

    clock += 30_000;
    const ok = await remove({ code: codeAt(secret) });
    expect(ok.status).toBe(200);
    status = await app.request('/api/admin/security', { cookie });
    expect(await status.json()).toMatchObject({ totp: false, recoveryCodesLeft: 0 });

    const entries = await activity(app, m.id);
    expect(entries.filter((e) => e.action === 'admin.reauth.failed').map((e) => e.details)).toEqual(
      [{ method: 'totp' }, { method: 'password' }],
    );
    expect(entries[0]).toMatchObject({
      action: 'admin.second_factor.removed',
      actor: { accountId: m.id, name: 'Rhea Reauth', role: 'treasurer' },
    });
  });

  test('new recovery codes and removing a passkey ask too; the owner gives ADMIN_PASSWORD', async ({
    app,
  }) => {
    const owner = await app.login();
    const passkeyId = await addPasskey(app, owner);
    const { secret } = await setUpTotp(app, owner);
    const codes = (json?: object) =>
      app.request('/api/admin/security/recovery-codes', {
        method: 'POST',
        cookie: owner,
        ...(json ? { json } : {}),
      });
    expect((await codes()).status).toBe(400);
    expect((await codes({ currentPassword: 'wrong-owner-password' })).status).toBe(400);
    const made = await codes({ currentPassword: TEST_ADMIN_PASSWORD });
    expect(made.status).toBe(200);
    expect(((await made.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);

    const removeKey = (json?: object) =>
      app.request(`/api/admin/security/passkeys/${passkeyId}`, {
        method: 'DELETE',
        cookie: owner,
        ...(json ? { json } : {}),
      });
    expect((await removeKey({ currentPassword: 'wrong-owner-password' })).status).toBe(400);
    clock += 30_000;
    expect((await removeKey({ code: codeAt(secret) })).status).toBe(200);
    // Leave the owner with the password alone for the other tests of this file.
    expect(
      (
        await app.request('/api/admin/security/totp', {
          method: 'DELETE',
          cookie: owner,
          json: { currentPassword: TEST_ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(200);
  });

  test('wrong proofs meet the per-account limit of wrong codes', async ({ app }) => {
    const m = await createMember(app, 'viewer');
    const cookie = await m.login();
    await setUpTotp(app, cookie);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.request('/api/admin/security/recovery-codes', {
        method: 'POST',
        cookie,
        json: { currentPassword: `guess-number-${i}` },
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('the owner clears a member’s second factors', () => {
  test('app, passkeys and codes go, the member’s sessions end, audited; password alone after', async ({
    app,
  }) => {
    const m = await createMember(app, 'treasurer', { name: 'Lost Phone' });
    const setupCookie = await m.login();
    const { secret, recoveryCodes } = await setUpTotp(app, setupCookie);
    await addPasskey(app, setupCookie);
    clock += 30_000;
    const memberSid = await signInWithCode(app, m, secret);
    const owner = await app.login();

    const team = async () =>
      (
        (await (await app.request('/api/admin/team', { cookie: owner })).json()) as {
          members: TeamMember[];
        }
      ).members;
    expect((await team()).find((x) => x.id === m.id)?.secondFactor).toBe(true);

    const clear = (id: string, cookie = owner) =>
      app.request(`/api/admin/team/${id}/second-factors`, { method: 'DELETE', cookie });
    // Only the owner: the member cannot clear their own (nor anyone's) this way.
    expect((await clear(m.id, memberSid)).status).toBe(403);
    const res = await clear(m.id);
    expect(res.status).toBe(200);
    expect((await team()).find((x) => x.id === m.id)?.secondFactor).toBe(false);
    // Signed out everywhere.
    const check = await app.request('/api/admin/check', { cookie: memberSid });
    expect(await check.json()).toEqual({ isAuthenticated: false });
    // The password alone opens a session now; the old recovery codes are gone.
    const login = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: m.password },
    });
    expect(await login.json()).toEqual({ ok: true, isAuthenticated: true });
    const sid = cookieOf(login, 'sid')!;
    const status = await app.request('/api/admin/security', { cookie: sid });
    expect(await status.json()).toMatchObject({ totp: false, passkeys: [], recoveryCodesLeft: 0 });
    expect(recoveryCodes).toHaveLength(10);

    const entries = await activity(app, OWNER_ACCOUNT_ID);
    expect(entries.find((e) => e.action === 'team.second_factors.cleared')).toMatchObject({
      targetId: m.id,
      details: { name: 'Lost Phone', totp: true, passkeys: ['Phone'] },
      actor: { accountId: OWNER_ACCOUNT_ID, role: 'owner' },
    });

    // Nothing left to clear, the owner's own, an unknown member.
    const again = await clear(m.id);
    expect(again.status).toBe(409);
    expect(await messageOf(again)).toBe(TEAM_MESSAGES.noSecondFactor);
    const self = await clear(OWNER_ACCOUNT_ID);
    expect(self.status).toBe(400);
    expect(await messageOf(self)).toBe(TEAM_MESSAGES.ownerFactors);
    expect((await clear('7d4f3c1e-9a2b-4c5d-8e6f-0a1b2c3d4e5f')).status).toBe(404);
  });

  test('while a second factor is required, the cleared member is led to set one up', async ({
    app,
  }) => {
    const owner = await app.login();
    await setUpTotp(app, owner);
    const on = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: true },
      cookie: owner,
    });
    expect(on.status).toBe(200);
    const m = await createMember(app, 'editor');
    const first = await m.login();
    await setUpTotp(app, first);

    // The owner's own session was opened before the factor, so it stays valid.
    expect(
      (
        await app.request(`/api/admin/team/${m.id}/second-factors`, {
          method: 'DELETE',
          cookie: owner,
        })
      ).status,
    ).toBe(200);
    const login = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: m.password },
    });
    expect(await login.json()).toEqual({
      ok: true,
      isAuthenticated: false,
      secondFactorSetup: true,
    });
    // Back to optional for the tests after this one.
    const off = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: false },
      cookie: owner,
    });
    expect(off.status).toBe(200);
  });
});

describe('a viewer’s search', () => {
  test('does not match on donors’ e-mails it sees masked (no address rebuilt by searching)', async ({
    app,
    pledge,
  }) => {
    await pledge({ name: 'Quincy Search', email: 'zed.hidden@example.test' });
    const viewer = await (await createMember(app, 'viewer')).login();
    const treasurer = await (await createMember(app, 'treasurer')).login();
    const found = async (cookie: string, search: string) => {
      const res = await app.request(
        `/api/admin/pledges?search=${encodeURIComponent(search)}&pageSize=100`,
        { cookie },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { name: string }[]; total: number };
      return body.items.map((p) => p.name);
    };
    expect(await found(treasurer, 'zed.hid')).toEqual(['Quincy Search']);
    expect(await found(viewer, 'zed.hid')).toEqual([]);
    // Names and references still find the pledge for the viewer.
    expect(await found(viewer, 'Quincy')).toEqual(['Quincy Search']);
  });
});
