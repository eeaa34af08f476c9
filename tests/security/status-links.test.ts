import { describe, expect, test } from '../support/fixtures';

let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

/**
 * The donor's status link (/pledge/{id}?t=...) and its API, second review items 2.10 and 2.11
 * (docs/SECURITY.md, threats 58 and 59).
 */
async function ownPledge(
  request: (p: string, init?: RequestInit & { json?: unknown }) => Promise<Response>,
) {
  const res = await request('/api/pledges', {
    method: 'POST',
    json: { name: 'Status Stella', email: 'stella@example.test', amount: 50, currency: 'USD' },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; statusUrl: string };
}

describe('status links', () => {
  test('2.11 the status page may not be stored by the browser (no-store, like the API)', async ({
    app,
  }) => {
    const { statusUrl, id } = await ownPledge(app.request);
    const page = await app.request(statusUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const api = await app.request(`/api/pledges/${id}/status?t=${statusUrl.split('t=')[1]}`);
    expect(api.headers.get('cache-control')).toBe('no-store');
    // A wrong token's 404 page says the same: it is the page of a status address.
    expect((await app.request(`${statusUrl}x`)).headers.get('cache-control')).toBe('no-store');
    // Other pages keep their revalidated caching.
    expect((await app.request('/')).headers.get('cache-control')).toBe('private, no-cache');
  });

  test('2.10 wrong status links are limited per client address (20 a minute), the right one is not', async ({
    app,
  }) => {
    clock += 3_600_000; // a window of its own
    const { id, statusUrl } = await ownPledge(app.request);
    const token = statusUrl.split('t=')[1]!;
    // The donor reloading their own page and API 30 times is never refused.
    for (let i = 0; i < 15; i++) {
      expect((await app.request(statusUrl)).status).toBe(200);
      expect((await app.request(`/api/pledges/${id}/status?t=${token}`)).status).toBe(200);
    }
    // 20 wrong tokens in parallel (page, API and "I've sent it", unknown ids): all looked up ...
    const wrong = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 3 === 0
          ? app.request(`${statusUrl}x${i}`)
          : i % 3 === 1
            ? app.request(`/api/pledges/${id}/status?t=${token}${i}`)
            : app.request(`/api/pledges/${id}/sent`, { method: 'POST', json: { t: `x${i}` } }),
      ),
    );
    expect(wrong.map((r) => r.status)).toEqual(Array(20).fill(404));
    // ... then every status request from that address is refused until the minute ends, the right
    // link too, and a forged X-Forwarded-For does not help (TRUST_PROXY is unset).
    for (const path of [statusUrl, `/api/pledges/${id}/status?t=${token}`, `${statusUrl}y`]) {
      const res = await app.request(path, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(res.status).toBe(429);
      const retry = Number(res.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(await res.text()).toMatch(/Too many wrong status links/);
    }
    // Other public routes are not affected.
    expect((await app.request('/api/progress')).status).toBe(200);
    clock += 61_000;
    expect((await app.request(statusUrl)).status).toBe(200);
  });
});
