import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/admin-api';
import { useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * The API reference at /api/docs, in a browser, from the production build: Swagger UI runs under
 * the site's Content-Security-Policy (no inline script), and none of it is in the home's
 * JavaScript.
 */
let server: RunningServer;
let page: Page;
useSite({}, (s) => {
  ({ server, page } = s);
});

describe('the API reference in a browser', () => {
  it('renders every module and operation with no Content-Security-Policy violation', async () => {
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    const res = await page.goto(`${server.baseUrl}/api/docs`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: /pledge API/ }).waitFor();
    for (const tag of ['pledges', 'statements', 'admin', 'pages']) {
      await expect(
        page.getByRole('heading', { name: new RegExp(`^${tag}\\b`) }).count(),
      ).resolves.toBe(1);
    }
    await page.getByText('Make a pledge', { exact: true }).first().click();
    await page.getByText('Idempotency-Key', { exact: true }).first().waitFor();
    await expect(page.getByText('422', { exact: true }).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'api-docs', { fullPage: false });
    expect(refused).toEqual([]);
  });

  it('keeps Swagger UI out of the public pages’ JavaScript', async () => {
    const home = await (await fetch(server.baseUrl)).text();
    // The boot script, the app's entry and every chunk the home names for prefetching.
    const scripts = new Set([...home.matchAll(/"(\/[\w/.-]+\.js)"/g)].map((m) => m[1]!));
    expect(scripts.size).toBeGreaterThan(5);
    for (const src of scripts) {
      const js = await (await fetch(server.baseUrl + src)).text();
      expect(js, src).not.toContain('SwaggerUI');
    }
  });
});
