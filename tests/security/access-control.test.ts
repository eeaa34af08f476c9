import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '../support/fixtures';
import { adminPledge, everything, uploadImage } from '../support/api';
import { listRoutes } from './support/routes';
import { rawRequest } from '../support/http';
import { sleep } from '../support/net';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Mutating routes anyone may call: pledging, logging in and out, and the signed upload PUT. */
const PUBLIC_WRITES = new Set([
  'POST /api/pledges',
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'PUT /api/objects/uploads/:id',
  // "I've sent the transfer": no session, but the status link's token (404 without it;
  // docs/decisions/014-email-outbox.md).
  'POST /api/pledges/:id/sent',
  // "I can't complete this pledge": the same token.
  'POST /api/pledges/:id/cancel',
  // "Erase my personal data": the same token in the body.
  'POST /api/pledges/:id/erase',
  // Delivery news: the status page's choice (the status link's token in the body) and the
  // one-click unsubscribe (RFC 8058: mail programs POST without a session; the link's own HMAC
  // token; server/modules/news/news.test.ts).
  'POST /api/pledges/:id/news',
  'POST /api/news/unsubscribe',
  // A team invitation's link: no session, the link's token (404 without it;
  // server/modules/admin/team.test.ts).
  'POST /api/team/invitation',
  'POST /api/team/password',
  // The sign-in's second step: no session yet, the step's own cookie (401 without it;
  // server/modules/admin/two-factor.test.ts).
  'POST /api/admin/login/second-factor',
  'POST /api/admin/login/passkey-options',
]);
/** Reads that expose admin data. */
const ADMIN_READS = ['/api/admin/pledges', '/api/pledges/export'];

/** Threats 5-7: admin actions without (or with a forged) session. */
describe('access control', () => {
  let pledgeId: string;
  let updateId: string;
  let imageUrl: string;

  test.beforeAll(async ({ app: t, adminClient: { cookie }, pledge, update }) => {
    ({ id: pledgeId } = await pledge({ name: 'Victim Vera' }));
    imageUrl = await uploadImage(t, cookie);
    ({ id: updateId } = await update({ imageUrl, recipient: 'Shelter A', containerCount: 10 }));
  });

  /** A body that would succeed with a session, so only the missing session stops it. */
  function attack(method: string, url: string) {
    const path = url
      .replace('/api/pledges/:id', `/api/pledges/${pledgeId}`)
      .replace('/api/updates/:id', `/api/updates/${updateId}`);
    const bodies: Record<string, unknown> = {
      'PUT /api/progress': { manualAdjustment: 999, goalAmount: 5 },
      'PATCH /api/pledges/:id': { updates: { name: 'Hacked', amount: 999999 } },
      'PUT /api/pledges/:id/confirm': {},
      'POST /api/updates': {
        imageUrl,
        recipient: 'Hacked',
        containerCount: 1,
        deliveryDate: '2025-01-01',
      },
      'PATCH /api/updates/:id': { updates: { recipient: 'Hacked' } },
      'POST /api/objects/upload': {},
    };
    return { path, json: bodies[`${method} ${url}`] };
  }

  const forgedCookies = [
    undefined,
    'sid=',
    'sid=garbage',
    `sid=${'A'.repeat(43)}`,
    `sid=${Buffer.from(randomUUID() + randomUUID())
      .toString('base64url')
      .slice(0, 43)}`,
  ];

  test('5. every mutating admin call without a valid session is 401, and nothing changes', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const routes = listRoutes(t.app).filter(
      (r) => r.url.startsWith('/api/') && MUTATING.has(r.method),
    );
    const adminWrites = routes.filter((r) => !PUBLIC_WRITES.has(`${r.method} ${r.url}`));
    // The known admin writes are all there (the route tree was read correctly).
    expect(adminWrites.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      expect.arrayContaining([
        'DELETE /api/pledges/:id',
        'DELETE /api/updates/:id',
        'PATCH /api/pledges/:id',
        'PATCH /api/updates/:id',
        'POST /api/objects/upload',
        'POST /api/updates',
        'PUT /api/pledges/:id/confirm',
        'PUT /api/progress',
      ]),
    );

    const before = await everything(t, cookie);
    for (const route of adminWrites) {
      for (const forged of forgedCookies) {
        const { path, json } = attack(route.method, route.url);
        const res = await t.request(path, { method: route.method, json, cookie: forged });
        expect(res.status, `${route.method} ${path} cookie=${forged}`).toBe(401);
        expect(await res.json()).toEqual({ message: 'Admin session required' });
      }
    }
    for (const url of ADMIN_READS) {
      for (const forged of forgedCookies) {
        const res = await t.request(url, { cookie: forged });
        expect(res.status, `${url} ${forged}`).toBe(401);
      }
    }
    // Without a session the list is the public one: no e-mail, no payment state.
    const anonList = await (await t.request('/api/pledges')).text();
    expect(anonList).not.toContain('@');
    expect(anonList).not.toContain('isPaid');

    expect(await everything(t, cookie)).toEqual(before);
    expect((await adminPledge(t, cookie, pledgeId))?.isPaid).toBe(false);
  });

  test('6. malformed ids are 400, unknown ids 404, and a second confirm changes nothing', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const malformed = [
      'abc',
      '123',
      '00000000-0000-0000-0000-00000000000g',
      `${pledgeId}x`,
      `${pledgeId.slice(0, -1)}`,
      "1'%20OR%20'1'%3D'1",
      '%00',
      '%2e%2e',
      'null',
      '-1',
      'a'.repeat(150),
    ];
    const unknown = randomUUID();
    const targets = [
      (id: string) => ({ method: 'PUT', path: `/api/pledges/${id}/confirm`, json: {} }),
      (id: string) => ({
        method: 'PATCH',
        path: `/api/pledges/${id}`,
        json: { updates: { name: 'X' } },
      }),
      (id: string) => ({ method: 'DELETE', path: `/api/pledges/${id}`, json: undefined }),
      (id: string) => ({
        method: 'PATCH',
        path: `/api/updates/${id}`,
        json: { updates: { recipient: 'X' } },
      }),
      (id: string) => ({ method: 'DELETE', path: `/api/updates/${id}`, json: undefined }),
    ];
    const before = await everything(t, cookie);
    for (const target of targets) {
      for (const id of malformed) {
        const { method, path, json } = target(id);
        const res = await rawRequest(t.baseUrl, {
          method,
          path,
          headers: { cookie, 'content-type': 'application/json' },
          body: json === undefined ? undefined : JSON.stringify(json),
        });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(JSON.parse(res.body).message).toMatch(/^Invalid (pledge|update) id$/);
      }
      const { method, path, json } = target(unknown);
      const res = await t.request(path, { method, cookie, json });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await everything(t, cookie)).toEqual(before);

    const first = await t.request(`/api/pledges/${pledgeId}/confirm`, {
      method: 'PUT',
      cookie,
      json: {},
    });
    expect(first.status).toBe(200);
    const confirmedAt = ((await first.json()) as { paymentConfirmedAt: string }).paymentConfirmedAt;
    expect(confirmedAt).toBeTruthy();
    await sleep(20);
    const second = await t.request(`/api/pledges/${pledgeId}/confirm`, {
      method: 'PUT',
      cookie,
      json: {},
    });
    expect(second.status).toBe(200);
    expect(((await second.json()) as { paymentConfirmedAt: string }).paymentConfirmedAt).toBe(
      confirmedAt,
    );
    expect((await adminPledge(t, cookie, pledgeId))?.paymentConfirmedAt).toBe(confirmedAt);
  });

  test('7. a session cookie with one character changed is refused', async ({ app: t }) => {
    const good = await t.login();
    const token = good.slice('sid='.length);
    expect((await t.request('/api/admin/pledges', { cookie: good })).status).toBe(200);
    const positions = [0, 1, 21, 41, 42];
    for (const i of positions) {
      const c = token[i] === 'A' ? 'B' : 'A';
      const forged = `sid=${token.slice(0, i)}${c}${token.slice(i + 1)}`;
      const res = await t.request('/api/admin/pledges', { cookie: forged });
      expect(res.status, `position ${i}`).toBe(401);
      const check = await t.request('/api/admin/check', { cookie: forged });
      expect(await check.json()).toEqual({ isAuthenticated: false });
    }
    // Longer, shorter, and case-flipped variants too.
    for (const forged of [`${good}A`, good.slice(0, -1), `sid=${token.toUpperCase()}`]) {
      expect((await t.request('/api/admin/pledges', { cookie: forged })).status).toBe(401);
    }
    // The real one still works: the attempts did not lock it out or revoke it.
    expect((await t.request('/api/admin/pledges', { cookie: good })).status).toBe(200);
  });
});
