import { simpleParser } from 'mailparser';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForToast } from './support/admin-ui';
import {
  loginThroughUi,
  openBrowser,
  PHONE,
  seriousA11yViolations,
  skipLightbox,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * The donor's status page (docs/decisions/014-email-outbox.md). A pledge made in the browser leads
 * from the thank-you page (and from the e-mail, written as an .eml file since no SMTP_URL is set)
 * to /pledge/{id}?t=...; a wrong or missing token shows the ordinary 404 page; "I've sent the
 * transfer" shows in the admin table as "Donor says sent", where the admin also sees the e-mails
 * and can resend them.
 */
let server: RunningServer;
let page: Page;
let closeBrowser: () => Promise<void>;
let statusUrl: string;

beforeAll(async () => {
  server = await startServer({ MAIL_POLL_MS: '200' });
  const browser = await openBrowser();
  page = browser.page;
  closeBrowser = browser.close;
  await skipLightbox(browser.context);
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function emlFor(email: string) {
  const dir = path.join(server.dataDir, 'outbox');
  const deadline = Date.now() + 20_000;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    } catch {
      /* no e-mail written yet */
    }
    for (const f of files) {
      const mail = await simpleParser(readFileSync(path.join(dir, f)));
      if (mail.to && 'value' in mail.to && mail.to.value[0]?.address === email) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no .eml for ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('donor status page', () => {
  it('is linked from the thank-you page and from the e-mail, and passes axe', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('button', { name: 'Pledge Now' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Make a Pledge' });
    await dialog.getByLabel('Full Name').fill('Status Donor');
    await dialog.getByLabel('Email Address').fill('status.donor@example.com');
    await dialog.getByLabel('Pledge Amount').fill('1250');
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await page.getByRole('heading', { name: 'Thank You for Your Pledge' }).waitFor();
    const link = page.getByRole('link', { name: 'Open your pledge status page' });
    statusUrl = (await link.getAttribute('href'))!;
    expect(statusUrl).toMatch(/^\/pledge\/[0-9a-f-]{36}\?t=[\w-]{40,}$/);
    // A reload of the thank-you page keeps the link.
    await page.reload();
    expect(await link.getAttribute('href')).toBe(statusUrl);

    const mail = await emlFor('status.donor@example.com');
    expect(mail.text).toContain(`http://localhost:`);
    expect(mail.text).toContain(statusUrl);

    await link.click();
    await page.getByRole('heading', { name: 'Your Pledge Status' }).waitFor();
    expect(await page.title()).toBe('Your Pledge Status');
    await page.getByText('Pending', { exact: true }).waitFor();
    await page.getByText('US$1,250').first().waitFor();
    await page.getByText('11,363').waitFor();
    await page.getByRole('heading', { name: 'USD Wire Transfer' }).waitFor();
    await page.getByRole('button', { name: 'Download Instructions' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the ordinary 404 page for a wrong or missing token', async () => {
    const unknown = await page.goto(`${server.baseUrl}/no-such-page`);
    expect(unknown!.status()).toBe(404);
    const id = statusUrl.split('/')[2]!.split('?')[0]!;
    for (const url of [`/pledge/${id}?t=not-the-token`, `/pledge/${id}`]) {
      const res = await page.goto(server.baseUrl + url);
      expect(res!.status(), url).toBe(404);
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      expect(await page.getByText('Your Pledge Status').count()).toBe(0);
      expect(await page.getByText('Status Donor').count()).toBe(0);
      expect(await page.title()).toBe('404 Page Not Found');
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('records "I\'ve sent the transfer", on a phone too, and the admin sees the flag', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(server.baseUrl + statusUrl);
    await page.getByRole('button', { name: 'I’ve sent the transfer' }).click();
    await page.getByText(/You told us on .* that you sent the transfer/).waitFor();
    expect(await page.getByRole('button', { name: 'I’ve sent the transfer' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.reload();
    await page.getByText(/You told us on .* that you sent the transfer/).waitFor();

    await page.setViewportSize({ width: 1440, height: 900 });
    await loginThroughUi(page, server.baseUrl);
    const row = page.getByRole('row').filter({ hasText: 'Status Donor' });
    await row.getByText('Donor says sent').waitFor();

    // The e-mails of the pledge, and "Resend instructions".
    await row.getByRole('button', { name: 'E-mails to Status Donor' }).click();
    const emails = page.getByRole('dialog', { name: 'E-mails' });
    await emails.getByText('Payment instructions').waitFor();
    await emails
      .getByText(/^Sent /)
      .first()
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await emails.getByRole('button', { name: 'Resend instructions' }).click();
    await waitForToast(page, 'Instructions queued');
    await expect.poll(() => emails.getByText(/^Sent /).count(), { timeout: 15_000 }).toBe(2);

    // Paid: the status page says so and no longer offers the button.
    await emails.getByRole('button', { name: 'Close' }).first().click();
    await emails.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Mark Paid' }).click();
    await row.getByText('Paid', { exact: true }).waitFor();
    await page.goto(server.baseUrl + statusUrl);
    await page.getByText('Paid', { exact: true }).waitFor();
    await page.getByText('Your payment has arrived', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'I’ve sent the transfer' }).count()).toBe(0);
    const receipt = await (async () => {
      const dir = path.join(server.dataDir, 'outbox');
      const deadline = Date.now() + 20_000;
      for (;;) {
        for (const f of readdirSync(dir)) {
          const m = await simpleParser(readFileSync(path.join(dir, f)));
          if (m.subject?.startsWith('Receipt')) return m;
        }
        if (Date.now() > deadline) throw new Error('no receipt .eml');
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(receipt.text).toContain('We have received your payment of US$1,250');
  });
});
