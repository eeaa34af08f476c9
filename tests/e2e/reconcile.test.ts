import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReference } from '@shared/payment-reference';
import { loginThroughUi, openBrowser, skipLightbox } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { screenshot } from './support/admin-api';

/**
 * Reconciliation end to end (records 012 and 013): a donor pledges and sees and copies the payment
 * reference; an admin imports a bank statement that carries it, reviews the proposed match,
 * confirms the batch, sees the home page's received part grow and the Activity tab list the
 * confirmation.
 */
let server: RunningServer;
let page: Page;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
let reference = '';

beforeAll(async () => {
  server = await startServer();
  const browser = await openBrowser();
  page = browser.page;
  context = browser.context;
  closeBrowser = browser.close;
  await skipLightbox(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.baseUrl,
  });
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const receivedText = () => page.locator('#progress-received-text');

describe('reconciling a bank transfer', () => {
  it('a donor pledges, sees the payment reference in large type and copies it', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('button', { name: 'Pledge Now' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Make a Pledge' });
    await dialog.getByLabel('Full Name').fill('Jane Brown');
    await dialog.getByLabel('Email Address').fill('jane@donors.test');
    await dialog.getByLabel('Pledge Amount').fill('100');
    await dialog.getByRole('button', { name: 'Submit Pledge' }).click();
    await page.waitForURL('**/payment-instructions');
    const shown = page.getByTestId('payment-reference');
    reference = (await shown.textContent())!.trim();
    expect(parseReference(reference)).toBe(reference);
    await expect
      .poll(() => page.getByText('Put this reference in the payment note').count())
      .toBe(1);
    await page.getByRole('button', { name: 'Copy reference' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    // The home shows nothing received yet.
    await page.goto(server.baseUrl);
    await expect.poll(async () => receivedText().textContent()).toContain('0 received');
  });

  it('an admin imports a statement, confirms the match, and sees it on the home and in Activity', async () => {
    await loginThroughUi(page, server.baseUrl);
    await page.getByRole('tab', { name: 'Import bank statement' }).click();
    const csv = [
      'Date,Description,Payer,Amount,Currency',
      `03/01/2025,"TRF ${reference.toLowerCase().replace(/-/g, ' ')} thanks",J BROWN,100.00,USD`,
      '04/01/2025,INCOMING TRANSFER,SOMEONE ELSE,33.00,USD',
    ].join('\n');
    await page.getByLabel('Bank statement (CSV)').setInputFiles({
      name: 'statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByLabel('Date', { exact: true }).waitFor();
    await page.getByLabel('Date order').selectOption('DMY');
    await page.getByRole('button', { name: 'Import and review' }).click();
    const row = page.getByRole('row').filter({ hasText: 'J BROWN' });
    await row.getByText('Certain').waitFor();
    await expect.poll(() => row.textContent()).toContain(reference);
    const tick = page.getByRole('checkbox', { name: 'Confirm US$100 from J BROWN' });
    expect(await tick.isChecked()).toBe(true);
    // The unmatched line is listed, cannot be ticked, and says why.
    const other = page.getByRole('row').filter({ hasText: 'SOMEONE ELSE' });
    await other.getByText('Unmatched').waitFor();
    // For a person checking the review table by eye (SCREENSHOTS=1).
    await screenshot(page, 'admin-reconcile-review', { fullPage: true });
    await page.getByRole('button', { name: 'Confirm selected (1)' }).click();
    await page.getByText('1 pledge confirmed from the statement.').first().waitFor();
    // Still there for later.
    await other.waitFor();

    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByLabel('Filter by pledge').fill(reference);
    const entry = page.getByRole('row').filter({ hasText: 'Confirmed payment' });
    await entry.first().waitFor();
    await expect.poll(() => entry.first().textContent()).toContain('(bank statement)');

    await page.goto(server.baseUrl);
    await expect.poll(async () => receivedText().textContent()).toContain('909 received');
  });
});
