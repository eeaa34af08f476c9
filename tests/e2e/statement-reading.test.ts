import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughUi, openBrowser, skipLightbox } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * Reading statements in the browser: a header-less export keeps its first
 * payment and shows its first rows; a history with Direction and Status columns skips money out
 * and the cancelled transfer and says so; the mapping is saved under its name and recognised.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/statements');
let server: RunningServer;
let page: Page;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer();
  const browser = await openBrowser();
  page = browser.page;
  closeBrowser = browser.close;
  await skipLightbox(browser.context);
  await loginThroughUi(page, server.baseUrl);
  await page.getByRole('tab', { name: 'Import bank statement' }).click();
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const choose = (name: string) =>
  page.getByLabel('Bank statement (CSV)').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: readFileSync(path.join(FIXTURES, name)),
  });

describe('reading a bank statement', () => {
  it('a header-less export: its first row is a transaction, shown under the pickers', async () => {
    await choose('us-checking-headerless.csv');
    const sample = page.getByRole('table', { name: 'The first 5 lines of the file' });
    await sample.waitFor();
    expect(await sample.textContent()).toContain('ZELLE FROM JANE BROWN');
    const firstRow = page.getByRole('checkbox', { name: 'The first row is a transaction' });
    expect(await firstRow.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByLabel('Date', { exact: true }).inputValue()).toBe('Column 1');
    await page.getByLabel('Currency of the whole statement').selectOption('USD');
    await page.getByLabel('Name of this mapping').fill('US checking');
    await page.getByRole('button', { name: 'Import and review' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'in the file' });
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      '5 incoming transfers in the file: 5 new, 0 imported before',
    );
    expect(await summary.textContent()).toContain('2 lines skipped: 2 money out.');
    expect(await page.getByRole('alert').filter({ hasText: 'Line 8' }).textContent()).toContain(
      'Line 8: "01/32/2025" is not a date',
    );
    await page.getByRole('row').filter({ hasText: 'ZELLE FROM JANE BROWN' }).first().waitFor();
  });

  it('a history with Direction and Status: money out and the cancelled transfer are skipped', async () => {
    await choose('fintech-direction-status.csv');
    await page.getByLabel('Direction (in / out)').waitFor();
    expect(await page.getByLabel('Direction (in / out)').inputValue()).toBe('Direction');
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('Status');
    await page.getByRole('button', { name: 'Import and review' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'in the file' });
    await expect
      .poll(() => summary.textContent())
      .toContain('3 lines skipped: 2 money out, 1 not completed.');
    // Scoped to the review table: the file's sample (which shows the refund line) can still be
    // on screen for a moment after the summary appears.
    const review = page.getByRole('table', { name: 'Statement lines and proposed pledges' });
    await review.getByRole('row').filter({ hasText: 'Devon Clarke' }).first().waitFor();
    expect(await review.getByRole('row').filter({ hasText: 'Refund' }).count()).toBe(0);
    expect(await review.getByRole('row').filter({ hasText: 'Sophia Williams' }).count()).toBe(0);
  });

  it('the next header-less file of that account is recognised by its saved mapping', async () => {
    await page.getByLabel('Bank statement (CSV)').setInputFiles({
      name: 'next.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('"02/03/2025","75.00","*","","ZELLE FROM KEMAR LEWIS",\r\n'),
    });
    await page.getByText('Recognised as "US checking".').waitFor();
    expect(await page.getByLabel('Saved mapping').locator('option:checked').textContent()).toBe(
      'US checking',
    );
  });
});
