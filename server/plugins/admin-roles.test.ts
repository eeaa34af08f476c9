import {
  ADMIN_ROLES,
  ADMIN_ROUTE_ROLES,
  forbiddenMessage,
  maskEmail,
  type AdminRole,
} from '@shared/admin-roles';
import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import { MISSING_ID } from '../../tests/support/api';
import { describe, expect, test } from '../../tests/support/fixtures';
import { createMember, type Member } from '../../tests/support/team';

/**
 * The role table (shared/admin-roles.ts) walked in full. Every admin route × every role,
 * and no session: the roles it names get past the auth hook (whatever the route then answers to
 * an empty body: 200, 400, 404, 415), every other role gets 403 with the table's message, and no
 * session gets 401. Threat "privilege escalation between roles" in docs/SECURITY.md.
 */
const ROUTES = Object.keys(ADMIN_ROUTE_ROLES).map((key) => {
  const [method, pattern] = key.split(' ') as [string, string];
  return { key, method, path: pattern.replace(/:id\b/g, MISSING_ID) };
});

describe('the role table', () => {
  test('names every admin route the app has, and only those', async ({ app }) => {
    // The reverse (an admin route missing from the table) stops the app at start-up.
    for (const { key, method } of ROUTES) {
      const url = key.slice(method.length + 1);
      expect(app.app.hasRoute({ method: method as 'GET', url }), key).toBe(true);
    }
  });

  test('every route × every role, and no session', async ({ app }) => {
    const members: Partial<Record<AdminRole, Member>> = {};
    for (const role of ADMIN_ROLES)
      if (role !== 'owner') members[role] = await createMember(app, role);
    const signIn = (role: AdminRole) => (role === 'owner' ? app.login() : members[role]!.login());
    const outcomes: string[] = [];
    // One session per role, signed in again only after the owner's DELETE /api/admin/sessions
    // (which ends every session). One at a time: the login gate admits two checks per client
    // address at once.
    const cookies: Partial<Record<AdminRole, string>> = {};
    const signInAll = async () => {
      for (const role of ADMIN_ROLES) cookies[role] = await signIn(role);
    };
    await signInAll();
    for (const { key, method, path } of ROUTES) {
      const call = (cookie?: string) =>
        app.request(path, {
          method,
          cookie,
          ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
        });
      const anonymous = await call();
      expect(anonymous.status, `${key} without a session`).toBe(401);
      expect(((await anonymous.json()) as { message: string }).message).toBe(
        ADMIN_MESSAGES.unauthorized,
      );
      // The owner last: its DELETE /api/admin/sessions would end the others' sessions.
      for (const role of [...ADMIN_ROLES].reverse()) {
        const res = await call(cookies[role]);
        const allowed = ADMIN_ROUTE_ROLES[key]!.includes(role);
        if (allowed) {
          expect([401, 403], `${key} as ${role}: ${res.status}`).not.toContain(res.status);
          await res.body?.cancel();
        } else {
          expect(res.status, `${key} as ${role}`).toBe(403);
          expect(((await res.json()) as { message: string }).message).toBe(forbiddenMessage(role));
        }
        outcomes.push(`${key} ${role} ${allowed ? 'allowed' : 'refused'}`);
      }
      if (key === 'DELETE /api/admin/sessions') await signInAll();
    }
    // The walk covered the whole table: 5 outcomes (4 roles and no session) per route.
    expect(outcomes).toHaveLength(ROUTES.length * ADMIN_ROLES.length);
    // The owner may call everything; a viewer changes nothing but their own password and second
    // factors.
    expect(ROUTES.every(({ key }) => ADMIN_ROUTE_ROLES[key]!.includes('owner'))).toBe(true);
    const viewerMay = ROUTES.filter(({ key }) => ADMIN_ROUTE_ROLES[key]!.includes('viewer'));
    expect(viewerMay.length).toBeGreaterThan(1);
    expect(
      viewerMay.filter(
        (r) =>
          r.method !== 'GET' &&
          r.key !== 'POST /api/admin/password' &&
          !r.path.startsWith('/api/admin/security/'),
      ),
    ).toEqual([]);
  });
});

describe('what each role sees', () => {
  test('the viewer sees donors e-mails masked, the treasurer in full; neither may export', async ({
    app,
    pledge,
  }) => {
    const { id } = await pledge({ email: 'jane.masked@example.test' });
    const viewer = await createMember(app, 'viewer');
    const treasurer = await createMember(app, 'treasurer');
    const editor = await createMember(app, 'editor');
    const emailOf = async (cookie: string, path: string) => {
      const r = await app.request(path, { cookie });
      expect(r.status, path).toBe(200);
      type Row = { id: string; email?: string };
      const body = (await r.json()) as Row[] | { items: Row[] };
      const items = Array.isArray(body) ? body : body.items;
      return items.find((p) => p.id === id)?.email;
    };
    const viewerCookie = await viewer.login();
    const treasurerCookie = await treasurer.login();
    expect(await emailOf(viewerCookie, '/api/admin/pledges?pageSize=100')).toBe(
      maskEmail('jane.masked@example.test'),
    );
    expect(maskEmail('jane.masked@example.test')).toBe('j•••@example.test');
    expect(await emailOf(viewerCookie, '/api/pledges?limit=500')).toBe('j•••@example.test');
    expect(await emailOf(treasurerCookie, '/api/admin/pledges?pageSize=100')).toBe(
      'jane.masked@example.test',
    );
    // The editor may not read the dashboard; the public list gives it no e-mail at all.
    expect(await emailOf(await editor.login(), '/api/pledges?limit=500')).toBeUndefined();
    expect((await app.request('/api/pledges/export', { cookie: viewerCookie })).status).toBe(403);
  });

  test('/api/admin/check says who is signed in', async ({ app }) => {
    const editor = await createMember(app, 'editor', { name: 'Eddie Editor' });
    const r = await app.request('/api/admin/check', { cookie: await editor.login() });
    expect(await r.json()).toEqual({
      isAuthenticated: true,
      account: { name: 'Eddie Editor', role: 'editor' },
    });
    const owner = await app.request('/api/admin/check', { cookie: await app.login() });
    expect(await owner.json()).toEqual({
      isAuthenticated: true,
      account: { name: 'Owner', role: 'owner' },
    });
  });
});

describe('the goal is the owner’s', () => {
  test('an editor adjusts progress and may send the current goal back, not a new one', async ({
    app,
    progress,
  }) => {
    const editor = await createMember(app, 'editor');
    const cookie = await editor.login();
    const { goalAmount } = await progress();
    const put = (json: object, c = cookie) =>
      app.request('/api/progress', { method: 'PUT', json, cookie: c });
    expect((await put({ manualAdjustment: 3 })).status).toBe(200);
    expect((await put({ manualAdjustment: 4, goalAmount })).status).toBe(200);
    const refused = await put({ manualAdjustment: 5, goalAmount: goalAmount + 1000 });
    expect(refused.status).toBe(403);
    expect(await progress()).toMatchObject({ goalAmount });
    expect(
      (await put({ manualAdjustment: 0, goalAmount: goalAmount + 1000 }, await app.login())).status,
    ).toBe(200);
    expect(await progress()).toMatchObject({ goalAmount: goalAmount + 1000 });
    expect((await put({ manualAdjustment: 0, goalAmount }, await app.login())).status).toBe(200);
  });
});
