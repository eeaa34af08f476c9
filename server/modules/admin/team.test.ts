import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import type { AuditPage } from '@shared/schemas/audit';
import { TEAM_MESSAGES, type TeamMember } from '@shared/schemas/team';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createMember, invitationToken, memberLogin } from '../../../tests/support/team';
import { OWNER_ACCOUNT_ID } from '../../db/schema';

let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

const NEW_PASSWORD = 'a-long-member-passphrase';

/**
 * The owner's team API, invitations through the outbox (single use, 72 hours), and the
 * sessions a disabled account or a new password ends. Threat "invitation replay" in
 * docs/SECURITY.md.
 */
describe('members and invitations', () => {
  test('the owner invites; the link sets a password once; the member signs in', async ({
    app,
    adminClient,
  }) => {
    const email = `new-${Date.now()}@team.example.test`;
    const sent = Date.now() - 1000;
    const res = await adminClient.request('/api/admin/team', {
      method: 'POST',
      json: { name: 'Nia Newcomer', email, role: 'treasurer' },
    });
    expect(res.status).toBe(201);
    const member = (await res.json()) as TeamMember;
    expect(member).toMatchObject({
      name: 'Nia Newcomer',
      email,
      role: 'treasurer',
      status: 'invited',
    });

    // An invited member has no password yet: no sign-in.
    const early = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email, password: NEW_PASSWORD },
    });
    expect(early.status).toBe(401);

    const token = await invitationToken(app, email, sent);
    const peek = await app.request('/api/team/invitation', { method: 'POST', json: { token } });
    expect(await peek.json()).toEqual({ name: 'Nia Newcomer', email, reset: false });

    const short = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: 'short-pass1' },
    });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { message: string }).message).toContain(
      TEAM_MESSAGES.passwordTooShort,
    );
    const set = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(set.status).toBe(200);
    // Single use: the same link again, even with another password, is refused.
    const again = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: 'another-long-password' },
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: TEAM_MESSAGES.linkInvalid });
    expect(
      (await app.request('/api/team/invitation', { method: 'POST', json: { token } })).status,
    ).toBe(404);

    const cookie = await memberLogin(app, email, NEW_PASSWORD);
    const check = await app.request('/api/admin/check', { cookie });
    expect(await check.json()).toEqual({
      isAuthenticated: true,
      account: { name: 'Nia Newcomer', role: 'treasurer' },
    });
    const list = await adminClient.request('/api/admin/team');
    const listed = ((await list.json()) as { members: TeamMember[] }).members;
    expect(listed.find((m) => m.id === member.id)?.status).toBe('active');
    expect(listed.find((m) => m.id === OWNER_ACCOUNT_ID)).toMatchObject({
      role: 'owner',
      status: 'active',
    });

    // The trail: who invited, and the member setting their password.
    const activity = await adminClient.request(`/api/admin/activity?actor=${member.id}`);
    const mine = ((await activity.json()) as AuditPage).items.map((e) => e.action);
    expect(mine).toEqual(['admin.login', 'team.password_set']);
    const owners = await adminClient.request(`/api/admin/activity?actor=${OWNER_ACCOUNT_ID}`);
    const invite = ((await owners.json()) as AuditPage).items.find(
      (e) => e.action === 'team.invite' && e.targetId === member.id,
    );
    expect(invite?.actor).toMatchObject({ name: 'Owner', role: 'owner' });
  });

  test('a link expires after 72 hours; a new link replaces the old one', async ({
    app,
    adminClient,
  }) => {
    const email = `late-${Date.now()}@team.example.test`;
    const sent = Date.now() - 1000;
    const res = await adminClient.request('/api/admin/team', {
      method: 'POST',
      json: { name: 'Leo Late', email, role: 'viewer' },
    });
    const { id } = (await res.json()) as TeamMember;
    const first = await invitationToken(app, email, sent);
    clock += 72 * 3600_000 + 60_000;
    const expired = await app.request('/api/team/password', {
      method: 'POST',
      json: { token: first, password: NEW_PASSWORD },
    });
    expect(expired.status).toBe(404);

    const owner = await app.login();
    const resentAt = Date.now();
    const resent = await app.request(`/api/admin/team/${id}/invitation`, {
      method: 'POST',
      cookie: owner,
    });
    expect(resent.status).toBe(200);
    const second = await invitationToken(app, email, resentAt, first);
    expect(second).not.toBe(first);
    clock += 71 * 3600_000;
    const ok = await app.request('/api/team/password', {
      method: 'POST',
      json: { token: second, password: NEW_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect((await memberLogin(app, email, NEW_PASSWORD)).startsWith('sid=')).toBe(true);
  });

  test('disabling ends the member’s sessions at once; a new password ends them too', async ({
    app,
  }) => {
    const owner = await app.login();
    const m = await createMember(app, 'treasurer');
    const signedIn = async (cookie: string) =>
      (
        (await (await app.request('/api/admin/check', { cookie })).json()) as {
          isAuthenticated: boolean;
        }
      ).isAuthenticated;

    // A reset link: setting the new password signs out every session of the account.
    const a = await m.login();
    const sent = Date.now() - 1;
    await app.request(`/api/admin/team/${m.id}/invitation`, { method: 'POST', cookie: owner });
    const token = await invitationToken(app, m.email, sent);
    expect(await signedIn(a)).toBe(true);
    await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(await signedIn(a)).toBe(false);
    expect(await signedIn(owner)).toBe(true);

    const b = await memberLogin(app, m.email, NEW_PASSWORD);
    const off = await app.request(`/api/admin/team/${m.id}`, {
      method: 'PATCH',
      json: { disabled: true },
      cookie: owner,
    });
    expect(((await off.json()) as TeamMember).status).toBe('disabled');
    expect(await signedIn(b)).toBe(false);
    const refused = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: NEW_PASSWORD },
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: ADMIN_MESSAGES.invalidMemberLogin });
    // Re-enabled: the same password works again.
    await app.request(`/api/admin/team/${m.id}`, {
      method: 'PATCH',
      json: { disabled: false },
      cookie: owner,
    });
    expect(await signedIn(await memberLogin(app, m.email, NEW_PASSWORD))).toBe(true);
  });

  test('a new role applies from the next request, and is an audit entry', async ({ app }) => {
    const owner = await app.login();
    const m = await createMember(app, 'viewer');
    const cookie = await m.login();
    expect((await app.request('/api/pledges/export', { cookie })).status).toBe(403);
    const changed = await app.request(`/api/admin/team/${m.id}`, {
      method: 'PATCH',
      json: { role: 'treasurer' },
      cookie: owner,
    });
    expect(changed.status).toBe(200);
    const exported = await app.request('/api/pledges/export', { cookie });
    expect(exported.status).toBe(200);
    await exported.body?.cancel();
    const log = await app.request(`/api/admin/activity?limit=10`, { cookie: owner });
    const entry = ((await log.json()) as AuditPage).items.find(
      (e) => e.action === 'team.role' && e.targetId === m.id,
    );
    expect(entry?.details).toMatchObject({ before: 'viewer', after: 'treasurer' });
  });

  test('the owner’s account is not changed here; e-mails are unique; no one becomes owner', async ({
    app,
  }) => {
    // A fresh session: the tests above moved the clock past the file's first one.
    const cookie = await app.login();
    const adminClient = {
      request: (p: string, init: Parameters<typeof app.request>[1] = {}) =>
        app.request(p, { cookie, ...init }),
    };
    const own = await adminClient.request(`/api/admin/team/${OWNER_ACCOUNT_ID}`, {
      method: 'PATCH',
      json: { disabled: true },
    });
    expect(own.status).toBe(400);
    expect(await own.json()).toEqual({ message: TEAM_MESSAGES.ownerFixed });
    const m = await createMember(app, 'editor');
    const dup = await adminClient.request('/api/admin/team', {
      method: 'POST',
      json: { name: 'Twin', email: m.email.toUpperCase(), role: 'viewer' },
    });
    expect(dup.status).toBe(409);
    const owner = await adminClient.request('/api/admin/team', {
      method: 'POST',
      json: { name: 'Sneaky', email: 'sneaky@team.example.test', role: 'owner' },
    });
    expect(owner.status).toBe(400);
    const promote = await adminClient.request(`/api/admin/team/${m.id}`, {
      method: 'PATCH',
      json: { role: 'owner' },
    });
    expect(promote.status).toBe(400);
  });
});
