import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/admin-api';
import {
  openBrowser,
  PHONE,
  seriousA11yViolations,
  skipLightbox,
  useSite,
} from './support/browser';
import type { RunningServer } from './support/server';

/**
 * "Share the campaign" on the thank-you page: the networks' share pages and "Copy link" on a
 * computer, the system share sheet (Web Share API) on a phone. The message carries the pledge's
 * containers and the home's canonical address (PUBLIC_URL), never the donor's reference or link.
 */
const PUBLIC_URL = 'https://relief.example.org';
let server: RunningServer;
let page: Page;
let site: Parameters<Parameters<typeof useSite>[1]>[0];

useSite({ env: () => ({ PUBLIC_URL }) }, (s) => {
  site = s;
  ({ server, page } = s);
});

/** Pledges US$110 (1,000 containers) through the dialog and lands on the thank-you page. */
async function pledge(p: Page, name: string) {
  await p.goto(server.baseUrl);
  await p.getByRole('button', { name: 'Pledge Now' }).first().click();
  const dialog = p.getByRole('dialog', { name: 'Make a Pledge' });
  await dialog.getByLabel('Full Name').fill(name);
  await dialog.getByLabel('Email Address').fill(`${name.replace(/\W/g, '.')}@example.com`);
  await dialog.getByLabel('Pledge Amount').fill('110');
  await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
  await p.getByRole('heading', { name: 'Thank You for Your Pledge' }).waitFor();
  return (await p.getByTestId('payment-reference').innerText()).trim();
}

const MESSAGE =
  'I just pledged 1,000 meal containers for families recovering from the hurricane in Jamaica with Meals for Recovery Jamaica. Every US$0.11 or J$16.72 provides one. Join me:';

describe('share on the thank-you page', () => {
  it('offers WhatsApp, Facebook and X with the prefilled message, and Copy link, on a computer', async () => {
    const reference = await pledge(page, 'Share Donor');
    const section = page.getByRole('region', { name: 'Share the campaign' });
    await section.waitFor();
    const whatsapp = section.getByRole('link', { name: 'Share on WhatsApp (opens in a new tab)' });
    const facebook = section.getByRole('link', { name: 'Share on Facebook (opens in a new tab)' });
    const x = section.getByRole('link', { name: 'Share on X (opens in a new tab)' });

    const wa = new URL((await whatsapp.getAttribute('href'))!);
    expect(wa.origin + wa.pathname).toBe('https://wa.me/');
    expect(wa.searchParams.get('text')).toBe(`${MESSAGE} ${PUBLIC_URL}/`);
    const fb = new URL((await facebook.getAttribute('href'))!);
    expect(fb.searchParams.get('u')).toBe(`${PUBLIC_URL}/`);
    const tw = new URL((await x.getAttribute('href'))!);
    expect(tw.origin + tw.pathname).toBe('https://x.com/intent/post');
    expect(tw.searchParams.get('text')).toBe(MESSAGE);
    expect(tw.searchParams.get('url')).toBe(`${PUBLIC_URL}/`);
    for (const link of [whatsapp, facebook, x]) {
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
      const href = (await link.getAttribute('href'))!;
      // Nothing private: not the reference, not the status page, not the donor.
      expect(decodeURIComponent(href)).not.toContain(reference);
      expect(decodeURIComponent(href)).not.toContain('/pledge/');
      expect(decodeURIComponent(href)).not.toContain('Share Donor');
    }
    // No "Share" sheet button where the browser has none.
    expect(await section.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);

    await site.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.baseUrl,
    });
    await section.getByRole('button', { name: 'Copy link' }).click();
    await section.getByRole('button', { name: 'Link copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${PUBLIC_URL}/`);
    await page.getByRole('status').filter({ hasText: 'Link to the campaign copied' }).waitFor();

    expect(await seriousA11yViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'share-desktop');
  });

  it('uses the system share sheet on a phone', async () => {
    const phone = await openBrowser({ viewport: PHONE, phone: true });
    try {
      await skipLightbox(phone.context);
      // Chromium on Linux has no share sheet: record what the page hands to it instead.
      await phone.context.addInitScript(() => {
        const calls: ShareData[] = [];
        (window as unknown as { shareCalls: ShareData[] }).shareCalls = calls;
        Object.defineProperty(navigator, 'share', {
          configurable: true,
          value: async (data: ShareData) => {
            calls.push(data);
          },
        });
      });
      const p = phone.page;
      await pledge(p, 'Phone Donor');
      const section = p.getByRole('region', { name: 'Share the campaign' });
      await section.getByRole('button', { name: 'Share', exact: true }).click();
      await expect
        .poll(() => p.evaluate(() => (window as unknown as { shareCalls: ShareData[] }).shareCalls))
        .toEqual([{ title: 'Meals for Recovery Jamaica', text: MESSAGE, url: `${PUBLIC_URL}/` }]);
      // The network buttons are not shown next to the sheet.
      expect(await section.getByRole('link').count()).toBe(0);
      expect(await seriousA11yViolations(p)).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await screenshot(p, 'share-phone');
    } finally {
      await phone.close();
    }
  });
});
