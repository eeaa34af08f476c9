import { describe, expect, test } from '../support/fixtures';
import { TEST_ADMIN_PASSWORD } from '../support/test-app';
import { createPledge, everything } from '../support/api';
import { rawRequest } from '../support/http';

/** What a foreign page can make the admin's browser send (cookies included: SameSite=Lax only stops some). */
const CROSS_SITE: Record<string, string>[] = [
  { origin: 'https://evil.test' },
  { origin: 'null' },
  { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  // Same host name, other scheme or port: another origin.
  { origin: 'https://127.0.0.1' },
];

/** Threats 18-19: cross-site request forgery. */
describe('CSRF', () => {
  let pledgeId: string;
  test.beforeAll(async ({ app: t }) => {
    ({ id: pledgeId } = await createPledge(t));
  });

  test('18. with an admin cookie, a cross-site mutating request is 403 and changes nothing', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const before = await everything(t, cookie);
    const calls: { method: string; path: string; json?: unknown }[] = [
      { method: 'PUT', path: '/api/progress', json: { manualAdjustment: 4242 } },
      { method: 'PUT', path: `/api/pledges/${pledgeId}/confirm`, json: {} },
      { method: 'PATCH', path: `/api/pledges/${pledgeId}`, json: { updates: { name: 'CSRF' } } },
      { method: 'DELETE', path: `/api/pledges/${pledgeId}` },
      { method: 'POST', path: '/api/objects/upload', json: {} },
      { method: 'POST', path: '/api/admin/logout' },
    ];
    for (const call of calls) {
      for (const headers of CROSS_SITE) {
        const res = await t.request(call.path, {
          method: call.method,
          cookie,
          headers,
          json: call.json,
        });
        expect(res.status, `${call.method} ${call.path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(await everything(t, cookie)).toEqual(before);
    // Logout was refused too: the session is alive.
    expect((await t.request('/api/admin/pledges', { cookie })).status).toBe(200);
  });

  test('18. a classic HTML form post (text/plain, urlencoded, multipart) is refused', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const before = await everything(t, cookie);
    const forms: [string, string][] = [
      ['text/plain', '{"manualAdjustment":5151,"x":"="}'],
      ['application/x-www-form-urlencoded', 'manualAdjustment=5151'],
      [
        'multipart/form-data; boundary=B',
        '--B\r\nContent-Disposition: form-data; name="manualAdjustment"\r\n\r\n5151\r\n--B--\r\n',
      ],
    ];
    for (const [type, body] of forms) {
      // Even without Origin (old browsers, some privacy extensions): the body type is refused.
      for (const extra of [{}, { origin: 'https://evil.test' }] as Record<string, string>[]) {
        const res = await rawRequest(t.baseUrl, {
          method: 'PUT',
          path: '/api/progress',
          headers: { 'content-type': type, cookie, ...extra },
          body,
        });
        expect([403, 415], `${type} ${JSON.stringify(extra)}`).toContain(res.status);
      }
      const pledge = await rawRequest(t.baseUrl, {
        method: 'POST',
        path: '/api/pledges',
        headers: { 'content-type': type, origin: 'https://evil.test' },
        body,
      });
      expect([403, 415]).toContain(pledge.status);
    }
    expect(await everything(t, cookie)).toEqual(before);
  });

  test('18. our own pages still work: same origin, or no Origin (same-origin GET-less clients)', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const res = await t.request('/api/progress', {
      method: 'PUT',
      cookie,
      headers: { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' },
      json: { manualAdjustment: 3 },
    });
    expect(res.status).toBe(200);
  });

  test('19. a cross-site login post is 403 and sets no cookie', async ({ app: t }) => {
    for (const headers of CROSS_SITE) {
      const res = await t.request('/api/admin/login', {
        method: 'POST',
        headers,
        json: { password: TEST_ADMIN_PASSWORD },
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });
});
