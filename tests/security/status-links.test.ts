import { describe, expect, test } from '../support/fixtures';

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
});
