import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  loginThroughUi,
  openBrowser,
  seriousA11yViolations,
  skipLightbox,
  useSite,
} from './support/browser';
import { type RunningServer } from './support/server';

/**
 * A donor's whole journey: the "Make a Pledge" dialog (validation, estimate, USD and JMD,
 * anonymous or not, mouse and keyboard), the thank-you page and its download, then the pledge on
 * the home. One server and one browser for the file; the tests run in order and build on each other.
 */
let server: RunningServer;
let page: Page;

useSite({}, async (site) => {
  ({ server, page } = site);
  // Our CSP has no 'unsafe-eval': record any violation (zod's JIT probe was one).
  await site.context.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
});

const cspViolations = () =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

const pledgeDialog = () => page.getByRole('dialog', { name: 'Make a Pledge' });
const pledgeCard = (name: string) => page.getByRole('article', { name: `Pledge from ${name}` });
const donors = () => page.getByTestId('tile-donors').locator('dd');
const toast = (title: string) =>
  page.locator('li[data-swipe-direction][data-state="open"]').filter({ hasText: title });

async function openPledgeDialog(which: 'header' | 'progress' = 'header') {
  await page.goto(server.baseUrl);
  await page
    .getByRole('button', { name: 'Pledge Now' })
    .nth(which === 'header' ? 0 : 1)
    .click();
  await pledgeDialog().waitFor();
  return pledgeDialog();
}

/** Holds POST /api/pledges for a moment (the real server still answers), to see the busy state. */
async function slowDownPledges(ms: number) {
  await page.route('**/api/pledges', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
  return () => page.unroute('**/api/pledges');
}

describe('pledge dialog', () => {
  it('shows the schema messages inline and keeps the dialog open', async () => {
    const dialog = await openPledgeDialog();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Valid email is required').waitFor();
    await dialog.getByText('Pledge amount must be at least $1').waitFor();
    // The first invalid field gets the focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pledge-name');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByLabel('Full Name').fill('Test Person');
    await dialog.getByLabel('Email Address').fill('not-an-email');
    await dialog.getByLabel('Pledge Amount').fill('0');
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await expect.poll(() => dialog.getByText('Name is required').count()).toBe(0);
    await dialog.getByText('Valid email is required').waitFor();
    await dialog.getByText('Pledge amount must be at least $1').waitFor();

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const res = await fetch(`${server.baseUrl}/api/progress`);
    expect(((await res.json()) as { pledgeCount: number }).pledgeCount).toBe(0);
  });

  it('shows the server message in "Pledge Failed", or the fallback when the network fails', async () => {
    const dialog = await openPledgeDialog();
    await dialog.getByLabel('Full Name').fill('Network Trouble');
    await dialog.getByLabel('Email Address').fill('trouble@example.com');
    await dialog.getByLabel('Pledge Amount').fill('25');

    // The real server refuses a body the form would never send: its own message is shown.
    await page.route('**/api/pledges', (route) =>
      route.continue({
        postData: JSON.stringify({ ...route.request().postDataJSON(), amount: 0 }),
      }),
    );
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await toast('Pledge Failed').filter({ hasText: 'Pledge amount must be at least $1' }).waitFor();
    await page.unroute('**/api/pledges');

    await page.route('**/api/pledges', (route) => route.abort('failed'));
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await toast('Pledge Failed')
      .filter({ hasText: 'Unable to submit your pledge. Please try again.' })
      .waitFor();
    await page.unroute('**/api/pledges');
    // Still open, with what the donor typed.
    expect(await dialog.getByLabel('Full Name').inputValue()).toBe('Network Trouble');
    expect(page.url()).toBe(`${server.baseUrl}/`);
  });
});

describe('a USD pledge with the mouse, not anonymous', () => {
  it('estimates, submits ("Submitting..."), and lands on the thank-you page', async () => {
    const dialog = await openPledgeDialog('progress');
    const amount = dialog.getByLabel('Pledge Amount');
    expect(await amount.getAttribute('placeholder')).toBe('100');
    await dialog.getByText('US$', { exact: true }).waitFor();
    await dialog.getByLabel('Full Name').fill('Alice Brown');
    await dialog.getByLabel('Email Address').fill('alice@example.com');
    await amount.fill('250');
    const estimate = dialog.getByTestId('pledge-estimate');
    expect(await estimate.innerText()).toMatch(/2,272 meal containers/); // floor(250 / 0.11)
    expect(await estimate.innerText()).toContain('0.454%');

    const restore = await slowDownPledges(600);
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    const busy = dialog.getByRole('button', { name: 'Submitting...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await page.waitForURL(`${server.baseUrl}/payment-instructions`);
    await restore();
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Pledge' }).waitFor();
    expect(await pledgeDialog().count()).toBe(0);
    // The form's code (zod, react-hook-form) ran on this page without breaking the CSP.
    expect(await cspViolations()).toEqual([]);
  });

  it('shows the bank details and saves them as GreenBox-Payment-Instructions.txt', async () => {
    const main = page.getByRole('main');
    const text = await main.innerText();
    for (const detail of [
      'USD Wire Transfer',
      'Island Hope Relief Trust (DEMO)',
      'Caribbean Demo Bank Ltd.',
      'Half Way Tree Branch, Kingston 10',
      '000-123-456-7',
      'Savings',
      'DEMOJMKN',
      'Example Correspondent Bank N.A.',
      '100 Example Plaza, New York, NY 10001, USA',
      'EXMPUS33',
      '021000000',
      'JMD Local Bank Transfer',
      '000-765-432-1',
      'donations@example.org',
      // The amount to send, and the reference alone in the note.
      'Amount to transfer: US$250',
      'put only your payment reference',
    ])
      expect(text).toContain(detail);
    expect(text).not.toContain('please e-mail your confirmation');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Instructions' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('GreenBox-Payment-Instructions.txt');
    const file = readFileSync((await download.path())!, 'utf8');
    for (const detail of [
      'Island Hope Relief Trust (DEMO)',
      'Account Number: 000-123-456-7',
      'Account Type: Savings',
      'SWIFT Code: DEMOJMKN',
      'Example Correspondent Bank N.A.',
      '100 Example Plaza, New York, NY 10001, USA',
      'SWIFT Code: EXMPUS33',
      'ABA Number: 021000000',
      'Account Number: 000-765-432-1',
      'donations@example.org',
      'AMOUNT TO TRANSFER\n  US$250',
      'put only your payment reference',
    ])
      expect(file).toContain(detail);
    expect(file).not.toContain('CONFIRMATION');
  });

  it('shows the pledge on the home with its name, and the Donors tile counts it', async () => {
    await page.getByRole('link', { name: 'Return to Campaign' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    const card = pledgeCard('Alice Brown');
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toContain('US$250');
    expect(text).toContain('less than a minute ago');
    expect(await donors().innerText()).toBe('1');
    expect(await page.getByRole('heading', { name: 'Be the First Supporter' }).count()).toBe(0);
    expect(await page.getByRole('main').innerText()).toMatch(/2,272\s+containers pledged/);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('a JMD pledge with the keyboard only, anonymous', () => {
  it('goes from Pledge Now to the thank-you page without the mouse', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('heading', { name: 'Recent Pledges' }).waitFor();
    const focusedName = () =>
      page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    for (let i = 0; i < 10 && (await focusedName()) !== 'Pledge Now'; i++)
      await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Pledge Now');
    await page.keyboard.press('Enter');
    const dialog = pledgeDialog();
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('pledge-name');

    await page.keyboard.type('Bob Campbell');
    await page.keyboard.press('Tab');
    await page.keyboard.type('BOB@example.com');
    await page.keyboard.press('Tab'); // the currency toggle: USD is pressed
    expect(await dialog.getByRole('button', { name: 'USD' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.keyboard.press('Tab'); // JMD
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('button', { name: 'JMD' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await dialog.getByRole('button', { name: 'USD' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await dialog.getByText('J$', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Pledge Amount').getAttribute('placeholder')).toBe('15200');
    await page.keyboard.press('Tab');
    await page.keyboard.type('15200');
    const estimate = dialog.getByTestId('pledge-estimate');
    expect(await estimate.innerText()).toMatch(/909 meal containers/); // floor(15200 / 16.72)
    expect(await estimate.innerText()).toContain('0.182%');
    await page.keyboard.press('Tab'); // the anonymous checkbox (the honeypot is skipped)
    await page.keyboard.press('Space');
    expect(await dialog.getByLabel('Make my pledge anonymous').isChecked()).toBe(true);
    await page.keyboard.press('Tab'); // the delivery news box: reached, and left unticked
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pledge-news');
    expect(await dialog.getByLabel('E-mail me when containers are delivered').isChecked()).toBe(
      false,
    );
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Submit Pledge');
    await page.keyboard.press('Enter');

    await page.waitForURL(`${server.baseUrl}/payment-instructions`);
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Pledge' }).waitFor();
  });

  it('shows "Anonymous" on the home, never the name, and counts a second donor', async () => {
    await page.getByRole('link', { name: 'Return to Campaign' }).click();
    const card = pledgeCard('Anonymous');
    await card.waitFor();
    expect(await card.innerText()).toContain('J$15,200');
    expect(await page.content()).not.toContain('Bob Campbell');
    expect(await donors().innerText()).toBe('2');
    // 2,272 + 909 containers; newest first.
    expect(await page.getByRole('main').innerText()).toMatch(/3,181\s+containers pledged/);
    const names = await page
      .getByRole('article', { name: /^Pledge from / })
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names).toEqual(['Pledge from Anonymous', 'Pledge from Alice Brown']);
  });

  it('a fresh page load shows the same (from the embedded data)', async () => {
    await page.reload();
    await pledgeCard('Anonymous').waitFor();
    await pledgeCard('Alice Brown').waitFor();
    expect(await donors().innerText()).toBe('2');
  });
});

describe('pledge cards in admin mode', () => {
  it('show Pending and "Mark Paid"; confirming turns the card Paid', async () => {
    const admin = await openBrowser();
    try {
      await skipLightbox(admin.context);
      const p = admin.page;
      await loginThroughUi(p, server.baseUrl);
      await p.goto(server.baseUrl);
      const card = p.getByRole('article', { name: 'Pledge from Alice Brown' });
      await card.waitFor();
      // A fresh page starts with the controls off; the header's toggle turns them on.
      expect(await card.getByText('Pending').count()).toBe(0);
      await p.getByRole('button', { name: 'Admin controls' }).click();
      await card.getByText('Pending').waitFor();
      await card.getByRole('button', { name: 'Mark Paid' }).click();
      await p
        .locator('li[data-swipe-direction][data-state="open"]')
        .filter({ hasText: 'Payment confirmed' })
        .filter({ hasText: 'Pledge payment has been marked as paid.' })
        .waitFor();
      await card.getByText('Paid', { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: 'Mark Paid' }).count()).toBe(0);
      // The anonymous donor's card still reads "Anonymous" for the admin.
      await p
        .getByRole('article', { name: 'Pledge from Anonymous' })
        .getByText('Pending')
        .waitFor();
      expect(await seriousA11yViolations(p)).toEqual([]);
      await p.getByRole('button', { name: 'Admin controls' }).click();
      await card.getByText('Paid', { exact: true }).waitFor({ state: 'detached' });
    } finally {
      await admin.close();
    }
  });
});
