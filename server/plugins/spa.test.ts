import { vi } from 'vitest';
import { describe, expect, test } from '../../tests/support/fixtures';

/**
 * The pages' HTML (docs/decisions/017-server-rendering.md): the first screen rendered into #root
 * from the same snapshot as the embedded data, cached per snapshot version and per public or
 * admin view, re-rendered after a minute for its relative times; the donor status page rendered
 * per request; the admin and thank-you pages left to the browser.
 */
const rootOf = (html: string) =>
  /<div id="root">(.*?)<\/div>\s*<script type="application\/json"/s.exec(html)?.[1] ?? '';
const dataOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="initial-data">(.*?)<\/script>/s.exec(html)![1]!,
  ) as {
    renderedAt: string;
    notFound?: boolean;
    isAuthenticated?: boolean;
    pledgeStatus?: { name: string };
  };
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('server-rendered pages', () => {
  test('the home: rendered from the snapshot, the same bytes until a change, then the new pledge', async ({
    app,
    pledge,
  }) => {
    await pledge({ name: 'Rendered Donor One' });
    const first = await (await app.request('/')).text();
    const root = rootOf(first);
    expect(root).toContain('<h1');
    expect(root).toContain('Meals for Recovery Jamaica');
    expect(root).toContain('Rendered Donor One');
    expect(root).toContain('Pledge Now');
    expect(titleOf(first)).toBe('Meals for Recovery Jamaica — Pledge meal containers');
    // Cached: a second request is the same page (same render time, same bytes).
    expect(await (await app.request('/')).text()).toBe(first);

    await pledge({ name: 'Rendered Donor Two' });
    const next = await (await app.request('/')).text();
    expect(next).not.toBe(first);
    expect(rootOf(next)).toContain('Rendered Donor Two');
  });

  test('is rendered again after a minute without a change, so "x minutes ago" stays true', async ({
    app,
  }) => {
    const before = await (await app.request('/')).text();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      const after = await (await app.request('/')).text();
      expect(
        Date.parse(dataOf(after).renderedAt) - Date.parse(dataOf(before).renderedAt),
      ).toBeGreaterThanOrEqual(61_000);
    } finally {
      vi.useRealTimers();
    }
  });

  test('an admin session gets its own rendering, with the admin header controls', async ({
    app,
    adminClient,
  }) => {
    const publicRoot = rootOf(await (await app.request('/')).text());
    const adminRoot = rootOf(await (await adminClient.request('/')).text());
    expect(publicRoot).not.toContain('Admin tools');
    expect(publicRoot).toContain('aria-label="Admin login"');
    expect(adminRoot).toContain('aria-label="Admin tools"');
    expect(adminRoot).toContain('aria-label="Logout"');
  });

  test('an admin who follows a broken link stays the admin on the 404 page', async ({
    app,
    adminClient,
  }) => {
    const res = await adminClient.request('/no-such-page');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(dataOf(html)).toMatchObject({ notFound: true, isAuthenticated: true });
    expect(rootOf(html)).toContain('aria-label="Admin tools"');
    // An API address that does not exist is still a plain 404, session or not.
    expect((await adminClient.request('/api/no-such-call')).status).toBe(404);
    // And a visitor's 404 page has no admin in it.
    const visitor = await (await app.request('/no-such-page')).text();
    expect(dataOf(visitor)).toMatchObject({ notFound: true, isAuthenticated: false });
  });

  test('an unknown address: status 404 and the rendered 404 page', async ({ app }) => {
    const res = await app.request('/no-such-page');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(titleOf(html)).toBe('404 Page Not Found');
    expect(rootOf(html)).toContain('404 Page Not Found');
    expect(dataOf(html).notFound).toBe(true);
  });

  test('the donor status page: rendered for its donor only; a wrong token is the 404 page', async ({
    app,
  }) => {
    const links: Record<string, string> = {};
    for (const name of ['Status Donor Ann', 'Status Donor Ben']) {
      const res = await app.request('/api/pledges', {
        method: 'POST',
        json: {
          name,
          email: `${name.replace(/ /g, '.')}@donors.test`,
          amount: 100,
          currency: 'USD',
        },
      });
      links[name] = ((await res.json()) as { statusUrl: string }).statusUrl;
    }
    for (const [name, url] of Object.entries(links)) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(titleOf(html)).toBe('Your Pledge Status');
      expect(rootOf(html)).toContain(name);
      expect(dataOf(html).pledgeStatus?.name).toBe(name);
      // Never a page cached for another donor (the embedded recent pledges list both names).
      const other = name === 'Status Donor Ann' ? 'Status Donor Ben' : 'Status Donor Ann';
      expect(rootOf(html)).not.toContain(other);
    }
    const wrong = await app.request(`${links['Status Donor Ann']}x`);
    expect(wrong.status).toBe(404);
    const html = await wrong.text();
    expect(rootOf(html)).toContain('404 Page Not Found');
    expect(rootOf(html)).not.toContain('Status Donor Ann');
    expect(dataOf(html).pledgeStatus).toBeUndefined();
  });

  test('the admin and thank-you pages are left to the browser (an empty root)', async ({ app }) => {
    for (const path of ['/admin', '/payment-instructions']) {
      const html = await (await app.request(path)).text();
      expect(rootOf(html), path).toBe('');
      expect(dataOf(html).renderedAt).toBeTruthy();
    }
  });
});
