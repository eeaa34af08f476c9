import { simpleParser } from 'mailparser';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AuditPage } from '@shared/schemas/audit';
import {
  TEAM_MESSAGES,
  maskIp,
  type ActivityPerson,
  type AdminSession,
  type InvitationInfo,
} from '@shared/schemas/team';
import { forbiddenMessage } from '@shared/admin-roles';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createMember, invitationToken, memberLogin } from '../../../tests/support/team';
import type { TestApp } from '../../../tests/support/test-app';
import { OWNER_ACCOUNT_ID } from '../../db/schema';
import { isCommonPassword } from './common-passwords';

let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

/** Each test starts in a new rate-limit minute (the app, and so its counters, is the file's). */
function nextMinute() {
  clock += 61_000;
}

const NEW_PASSWORD = 'a-fresh-member-passphrase';

async function signedIn(app: TestApp, cookie: string): Promise<boolean> {
  const res = await app.request('/api/admin/check', { cookie });
  return ((await res.json()) as { isAuthenticated: boolean }).isAuthenticated;
}

/** The subjects of the outbox's .eml files to one address. */
async function subjectsTo(app: TestApp, email: string): Promise<string[]> {
  const dir = path.join(app.dataDir, 'outbox');
  const out: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.eml'))) {
    const parsed = await simpleParser(readFileSync(path.join(dir, f)));
    const to = [parsed.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address));
    if (to.includes(email)) out.push(parsed.subject ?? '');
  }
  return out;
}

/** A reset link for an existing member, sent by the owner and read from the outbox. */
async function resetLink(app: TestApp, owner: string, id: string, email: string) {
  const sent = Date.now() - 1;
  const res = await app.request(`/api/admin/team/${id}/invitation`, {
    method: 'POST',
    cookie: owner,
  });
  expect(res.status).toBe(200);
  return invitationToken(app, email, sent);
}

/**
 * The rest of the accounts: reset links, the common-password list, members changing
 * their own password, the owner's session list, and the rate limits of the join page. Threats
 * "invitation replay" and "privilege escalation between roles" in docs/SECURITY.md.
 */
describe('reset links and the common-password list', () => {
  test('a reset link says so, works once, and ends the member’s sessions', async ({ app }) => {
    nextMinute();
    const owner = await app.login();
    const m = await createMember(app, 'editor');
    const before = await m.login();
    const token = await resetLink(app, owner, m.id, m.email);

    // The e-mail says what it is: a reset, not an invitation.
    expect(await subjectsTo(app, m.email)).toEqual([
      expect.stringMatching(/^Reset your password for the .+ admin$/),
    ]);
    const peek = await app.request('/api/team/invitation', { method: 'POST', json: { token } });
    expect((await peek.json()) as InvitationInfo).toEqual({
      name: m.name,
      email: m.email,
      reset: true,
    });
    // The old password still works until the new one is set.
    expect(await signedIn(app, before)).toBe(true);
    const set = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(set.status).toBe(200);
    expect(await signedIn(app, before)).toBe(false);
    const old = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: m.password },
    });
    expect(old.status).toBe(401);
    expect(await signedIn(app, await memberLogin(app, m.email, NEW_PASSWORD))).toBe(true);

    // Replayed: refused with the message the page shows.
    const replay = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: 'yet-another-long-passphrase' },
    });
    expect(replay.status).toBe(404);
    expect(await replay.json()).toEqual({ message: TEAM_MESSAGES.linkInvalid });
  });

  test('a reset link expires after 72 hours', async ({ app }) => {
    nextMinute();
    const owner = await app.login();
    const m = await createMember(app, 'viewer');
    const token = await resetLink(app, owner, m.id, m.email);
    clock += 72 * 3600_000 + 1000;
    const late = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ message: TEAM_MESSAGES.linkInvalid });
    expect(await signedIn(app, await m.login())).toBe(true);
  });

  test('a common password is refused, and the link still works after', async ({ app }) => {
    nextMinute();
    const owner = await app.login();
    const m = await createMember(app, 'treasurer');
    const token = await resetLink(app, owner, m.id, m.email);
    for (const password of ['qazwsxedcrfv', 'Password123456', 'sunshine2026!!']) {
      const res = await app.request('/api/team/password', {
        method: 'POST',
        json: { token, password },
      });
      expect(res.status, password).toBe(400);
      expect(await res.json()).toEqual({ message: TEAM_MESSAGES.passwordCommon });
    }
    const ok = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(ok.status).toBe(200);
  });

  test('the list: exact entries ignoring case, and listed words padded with digits', async () => {
    expect(await isCommonPassword('QAZWSXEDCRFV')).toBe(true);
    expect(await isCommonPassword('123qweasdzxc')).toBe(true);
    expect(await isCommonPassword('!!monkey123456')).toBe(true);
    expect(await isCommonPassword('a-fresh-member-passphrase')).toBe(false);
    expect(await isCommonPassword('monkey-orchid-ladder')).toBe(false);
  });
});

describe('rate limits of the join page', () => {
  test('one link is tried at most 5 times a minute, then 429 with Retry-After', async ({ app }) => {
    nextMinute();
    const owner = await app.login();
    const m = await createMember(app, 'viewer');
    const token = await resetLink(app, owner, m.id, m.email);
    for (let i = 0; i < 5; i++) {
      const res = await app.request('/api/team/password', {
        method: 'POST',
        json: { token, password: 'password12345678' },
      });
      expect(res.status).toBe(400);
    }
    const stopped = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(stopped.status).toBe(429);
    expect(stopped.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await stopped.json()).toEqual({ message: TEAM_MESSAGES.tooManyAttempts });
    // A minute later the same link works (it was never used).
    nextMinute();
    const later = await app.request('/api/team/password', {
      method: 'POST',
      json: { token, password: NEW_PASSWORD },
    });
    expect(later.status).toBe(200);
  });

  test('one address is stopped after 10 tries a minute, whatever the links', async ({ app }) => {
    nextMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.request('/api/team/password', {
        method: 'POST',
        json: { token: `guessed-token-${i}`, password: NEW_PASSWORD },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(404), 429]);
  });
});

describe('members change their own password', () => {
  test('current password first; the change ends the other sessions, not this one', async ({
    app,
  }) => {
    nextMinute();
    const m = await createMember(app, 'treasurer');
    const here = await m.login();
    const elsewhere = await m.login();
    const change = (json: unknown, cookie = here) =>
      app.request('/api/admin/password', { method: 'POST', json, cookie });

    const wrong = await change({ currentPassword: 'not-my-password', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: TEAM_MESSAGES.currentPasswordWrong });
    const common = await change({ currentPassword: m.password, newPassword: 'iloveyou123456' });
    expect(await common.json()).toEqual({ message: TEAM_MESSAGES.passwordCommon });
    const short = await change({ currentPassword: m.password, newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(await signedIn(app, elsewhere)).toBe(true);

    const ok = await change({ currentPassword: m.password, newPassword: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    expect(await signedIn(app, here)).toBe(true);
    expect(await signedIn(app, elsewhere)).toBe(false);
    expect(await signedIn(app, await memberLogin(app, m.email, NEW_PASSWORD))).toBe(true);
    const old = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: m.password },
    });
    expect(old.status).toBe(401);

    const owner = await app.login();
    const log = await app.request(`/api/admin/activity?actor=${m.id}`, { cookie: owner });
    const actions = ((await log.json()) as AuditPage).items.map((e) => e.action);
    expect(actions).toContain('team.password_changed');
  });

  test('wrong current passwords are limited per account; the owner’s lives on the server', async ({
    app,
  }) => {
    nextMinute();
    const m = await createMember(app, 'viewer');
    const cookie = await m.login();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.request('/api/admin/password', {
        method: 'POST',
        json: { currentPassword: `guess-${i}`, newPassword: NEW_PASSWORD },
        cookie,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);

    const owner = await app.login();
    const res = await app.request('/api/admin/password', {
      method: 'POST',
      json: { currentPassword: 'anything-at-all', newPassword: NEW_PASSWORD },
      cookie: owner,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: TEAM_MESSAGES.ownerPassword });
  });
});

describe('the owner’s session list', () => {
  test('lists who is signed in; ends one member’s sessions; others may not', async ({ app }) => {
    nextMinute();
    const owner = await app.login();
    const t = await createMember(app, 'treasurer');
    const v = await createMember(app, 'viewer');
    const tCookie = await t.login();
    const vCookie = await v.login();

    const res = await app.request('/api/admin/sessions', { cookie: owner });
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: AdminSession[] };
    const ofT = sessions.filter((s) => s.accountId === t.id);
    expect(ofT).toHaveLength(1);
    expect(ofT[0]).toMatchObject({ name: t.name, role: 'treasurer', current: false });
    expect(ofT[0]!.clientIp).toMatch(/\.x$|:…$/);
    expect(sessions.find((s) => s.current)?.accountId).toBe(OWNER_ACCOUNT_ID);
    // Nothing in the answer is a credential.
    expect(JSON.stringify(sessions)).not.toContain(tCookie.split('=')[1]!);

    // Only the owner sees or ends sessions.
    for (const cookie of [tCookie, vCookie]) {
      const list = await app.request('/api/admin/sessions', { cookie });
      expect(list.status).toBe(403);
      const end = await app.request(`/api/admin/team/${v.id}/sessions`, {
        method: 'DELETE',
        cookie,
      });
      expect(end.status).toBe(403);
      expect(await end.json()).toEqual({
        message: forbiddenMessage(cookie === tCookie ? 'treasurer' : 'viewer'),
      });
    }

    const end = await app.request(`/api/admin/team/${t.id}/sessions`, {
      method: 'DELETE',
      cookie: owner,
    });
    expect(end.status).toBe(200);
    expect(await signedIn(app, tCookie)).toBe(false);
    expect(await signedIn(app, vCookie)).toBe(true);
    expect(await signedIn(app, owner)).toBe(true);
    const after = (await (await app.request('/api/admin/sessions', { cookie: owner })).json()) as {
      sessions: AdminSession[];
    };
    expect(after.sessions.some((s) => s.accountId === t.id)).toBe(false);

    const log = await app.request(`/api/admin/activity?limit=5`, { cookie: owner });
    const entry = ((await log.json()) as AuditPage).items.find(
      (e) => e.action === 'team.sessions.revoke',
    );
    expect(entry).toMatchObject({ targetId: t.id, actor: { role: 'owner' } });
    const unknown = await app.request(
      '/api/admin/team/00000000-0000-4000-8000-00000000abcd/sessions',
      { method: 'DELETE', cookie: owner },
    );
    expect(unknown.status).toBe(404);
  });

  test('the Activity filter lists the people the log names', async ({ app }) => {
    nextMinute();
    const m = await createMember(app, 'editor');
    const cookie = await m.login();
    const viewer = await createMember(app, 'viewer');
    const res = await app.request('/api/admin/activity/people', { cookie: await viewer.login() });
    expect(res.status).toBe(200);
    const { people } = (await res.json()) as { people: ActivityPerson[] };
    expect(people).toContainEqual({ id: m.id, name: m.name, role: 'editor' });
    // An editor does not read the activity.
    expect((await app.request('/api/admin/activity/people', { cookie })).status).toBe(403);
  });

  test('addresses are masked to a network', () => {
    expect(maskIp('203.0.113.57')).toBe('203.0.113.x');
    expect(maskIp('::ffff:198.51.100.7')).toBe('198.51.100.x');
    expect(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:…');
    expect(maskIp(null)).toBeNull();
  });
});
