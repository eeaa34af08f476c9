import type { BrowserContext, Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { openBrowser, skipLightbox } from '../e2e/support/browser';
import { type TestApp } from '../support/test-app';
import { describe, expect, test } from '../support/fixtures';
import { createPledge, uploadImage } from '../support/api';
import { jpegHtmlPolyglot } from '../support/images';

/** Each payload calls alert(): any dialog at all means a script ran. */
const PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(2)</script>',
  '"><svg onload=alert(3)>',
  "'><iframe src=javascript:alert(4)>",
  '</script><script>alert(5)</script>',
  '<a href="javascript:alert(6)">click</a>',
  '{{constructor.constructor("alert(7)")()}}',
];

/** Threats 20 and 32: hostile names and images in a real browser (Chromium). */
describe('XSS in Chromium', () => {
  let t: TestApp;
  let cookie: string;
  let context: BrowserContext;
  let page: Page;
  let close: () => Promise<void>;
  const dialogs: string[] = [];
  let polyglotUrl = '';

  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    for (const name of PAYLOADS) await createPledge(t, { name });
    const imageUrl = await uploadImage(t, cookie);
    for (const recipient of PAYLOADS.slice(0, 3)) {
      const res = await t.request('/api/updates', {
        method: 'POST',
        cookie,
        json: { imageUrl, recipient, containerCount: 7, deliveryDate: '2025-01-05' },
      });
      expect(res.status).toBe(201);
    }
    polyglotUrl = await uploadImage(t, cookie, await jpegHtmlPolyglot(), 'image/jpeg');
    ({ context, page, close } = await openBrowser());
    await skipLightbox(context);
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  /** The payload is on the page as text, and not as markup. */
  async function expectShownAsText(names: string[]) {
    for (const name of names) {
      await expect
        .poll(() => page.getByText(name, { exact: true }).count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
    }
    const injected = await page.evaluate(() => ({
      imgX: document.querySelectorAll('img[src="x"]').length,
      svg: document.querySelectorAll('svg[onload]').length,
      iframes: document.querySelectorAll('iframe').length,
      jsLinks: Array.from(document.querySelectorAll('a')).filter((a) =>
        a.href.startsWith('javascript:'),
      ).length,
      inlineScripts: Array.from(document.querySelectorAll('script')).filter(
        (s) => !s.src && s.type !== 'application/json',
      ).length,
    }));
    expect(injected).toEqual({ imgX: 0, svg: 0, iframes: 0, jsLinks: 0, inlineScripts: 0 });
  }

  test('20. names and recipients are shown as text on the home page; no dialog fires', async () => {
    await page.goto(`${t.baseUrl}/`);
    // The home shows the 8 newest pledges and the delivery updates.
    await expectShownAsText([...PAYLOADS.slice(0, 7), ...PAYLOADS.slice(0, 3)]);
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    // Control: the detector does see a dialog when one opens.
    await page.evaluate(() => alert('control'));
    expect(dialogs).toEqual(['alert: control']);
    dialogs.length = 0;
  });

  test('20. names are shown as text in the admin table; no dialog fires', async () => {
    await context.addCookies([
      { name: 'sid', value: cookie.slice('sid='.length), url: t.baseUrl, httpOnly: true },
    ]);
    await page.goto(`${t.baseUrl}/admin`);
    await page.getByRole('table').waitFor({ timeout: 15_000 });
    await expectShownAsText(PAYLOADS);
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
  });

  test('32. opening an uploaded polyglot image runs no script', async () => {
    const res = await page.goto(polyglotUrl);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('image/webp');
    await page.waitForTimeout(500);
    const html = await page.content();
    expect(html).not.toMatch(/<script>alert|onerror=alert/);
    expect(dialogs).toEqual([]);
  });
});
