import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { containersFor } from '@shared/containers';
import { createPledge, screenshot, type PledgeSeed } from './support/admin-api';
import { dialog, header, waitForToast } from './support/admin-ui';
import { DESKTOP, PHONE, loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import { type RunningServer } from './support/server';

/** Pledge management on /admin: stats, Mark Paid, edit, delete, search/filter/sort, paging, CSV, progress. */
let server: RunningServer;
let page: Page;

// Created in this order, so the default sort (date, newest first) is the reverse.
const SEED: PledgeSeed[] = [
  { name: 'Alice Brown', email: 'alice@example.com', amount: 250 },
  { name: 'Bob Campbell', email: 'bob@example.com', amount: 15200, currency: 'JMD' },
  { name: 'Carla Dunn', email: 'carla@example.com', amount: 1000, isAnonymous: true },
  { name: 'Derek Evans', email: 'derek@example.org', amount: 50 },
];

useSite({}, async (site) => {
  ({ server, page } = site);
  for (const p of SEED) await createPledge(server.baseUrl, p);
  await loginThroughUi(page, server.baseUrl);
});

const table = () => page.getByRole('table');
const bodyRows = () => table().locator('tbody tr');
const row = (name: string) => bodyRows().filter({ hasText: name });

/** The Name column, top to bottom, once the table shows exactly `expected` rows. */
async function namesInTable(expected?: number): Promise<string[]> {
  if (expected !== undefined) await expect.poll(() => bodyRows().count()).toBe(expected);
  const cells = await bodyRows().locator('td:first-child').allInnerTexts();
  return cells.map((t) => t.replace(/\s*Anonymous$/, '').trim());
}

async function expectNames(names: string[]) {
  await expect.poll(() => namesInTable()).toEqual(names);
}

function statCard(label: string) {
  return page.getByRole('group', { name: label, exact: true });
}

async function statText(label: string) {
  const text = (await statCard(label).innerText()).replace(label, '');
  return text
    .trim()
    .split(/\s*\n\s*/)
    .join('\n');
}

async function progressNow(): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/progress`);
  return ((await res.json()) as { currentAmount: number }).currentAmount;
}

describe('pledge management', () => {
  it('shows the four stat cards with per-currency totals', async () => {
    await expect.poll(() => statText('Total Pledges')).toBe('4');
    expect(await statText('Total Amount')).toBe('US$1,300\nJ$15,200');
    expect(await statText('Paid Pledges')).toBe('0');
    expect(await statText('Pending Pledges')).toBe('4');
    await screenshot(page, 'admin-dashboard');
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (process.env.SCREENSHOTS) {
      await page.setViewportSize(PHONE);
      await screenshot(page, 'admin-dashboard-phone', { fullPage: true });
      await page.setViewportSize(DESKTOP);
    }
  });

  it('lists pledges newest first with the admin columns', async () => {
    expect(await namesInTable(4)).toEqual([
      'Derek Evans',
      'Carla Dunn',
      'Bob Campbell',
      'Alice Brown',
    ]);
    const headers = await table().locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([
      'Name',
      'Email',
      'Amount',
      'Status',
      'Date',
      'Reference',
      'Actions',
    ]);
    const carla = row('Carla Dunn');
    expect(await carla.getByText('Anonymous', { exact: true }).isVisible()).toBe(true);
    expect(await carla.innerText()).toContain('carla@example.com');
    expect(await carla.innerText()).toContain('US$1,000');
    expect(await row('Bob Campbell').innerText()).toContain('J$15,200');
    expect(await row('Alice Brown').getByText('Pending', { exact: true }).isVisible()).toBe(true);
    expect(await row('Alice Brown').innerText()).toMatch(/ago/);
    expect(
      await page.getByRole('button', { name: 'Edit pledge from Alice Brown' }).isVisible(),
    ).toBe(true);
    expect(
      await page.getByRole('button', { name: 'Delete pledge from Alice Brown' }).isVisible(),
    ).toBe(true);
    expect(await table().locator('th[aria-sort="descending"]').innerText()).toContain('Date');
  });

  it('sorts by amount and by date from the column headers', async () => {
    await table().getByRole('button', { name: 'Amount' }).click();
    // Amounts as stored (the server sorts the number, whatever the currency).
    await expectNames(['Bob Campbell', 'Carla Dunn', 'Alice Brown', 'Derek Evans']);
    await table().getByRole('button', { name: 'Amount' }).click();
    await expectNames(['Derek Evans', 'Alice Brown', 'Carla Dunn', 'Bob Campbell']);
    await table().getByRole('button', { name: 'Date' }).click();
    await expectNames(['Derek Evans', 'Carla Dunn', 'Bob Campbell', 'Alice Brown']);
    await table().getByRole('button', { name: 'Date' }).click();
    await expectNames(['Alice Brown', 'Bob Campbell', 'Carla Dunn', 'Derek Evans']);
    await table().getByRole('button', { name: 'Date' }).click();
    await expectNames(['Derek Evans', 'Carla Dunn', 'Bob Campbell', 'Alice Brown']);
  });

  it('searches by name or e-mail and shows the empty state', async () => {
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('bob');
    await expectNames(['Bob Campbell']);
    await search.fill('EXAMPLE.ORG');
    await expectNames(['Derek Evans']);
    await search.fill('nobody-like-this');
    await page.getByText('No pledges found matching your criteria.').waitFor();
    await search.fill('');
    await expectNames(['Derek Evans', 'Carla Dunn', 'Bob Campbell', 'Alice Brown']);
  });

  it('marks a pledge paid from the table', async () => {
    await row('Alice Brown').getByRole('button', { name: 'Mark Paid' }).click();
    await waitForToast(page, 'Payment confirmed', 'Pledge payment has been marked as paid.');
    await row('Alice Brown').getByText('Paid', { exact: true }).waitFor();
    expect(await row('Alice Brown').getByRole('button', { name: 'Mark Paid' }).count()).toBe(0);
    await expect.poll(() => statText('Paid Pledges')).toBe('1');
    expect(await statText('Pending Pledges')).toBe('3');
  });

  it('filters by status', async () => {
    const status = page.getByLabel('Status');
    expect(await status.locator('option').allInnerTexts()).toEqual([
      'All Statuses',
      'Paid Only',
      'Pending Only',
      // Pledges the donor cancelled, and lapsed ones.
      'Cancelled',
      'Lapsed',
    ]);
    await status.selectOption({ label: 'Paid Only' });
    await expectNames(['Alice Brown']);
    await status.selectOption({ label: 'Pending Only' });
    await expectNames(['Derek Evans', 'Carla Dunn', 'Bob Campbell']);
    await status.selectOption({ label: 'All Statuses' });
    await expectNames(['Derek Evans', 'Carla Dunn', 'Bob Campbell', 'Alice Brown']);
  });

  it('marks a pledge paid from its card on the home, with admin controls on', async () => {
    await header(page)
      .getByRole('link', { name: /Meals for Recovery/ })
      .click();
    const card = page.getByRole('article', { name: 'Pledge from Derek Evans' });
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Mark Paid' }).click();
    await waitForToast(page, 'Payment confirmed', 'Pledge payment has been marked as paid.');
    await card.getByText('Paid', { exact: true }).waitFor();
    await page.goto(`${server.baseUrl}/admin`);
    await row('Derek Evans').getByText('Paid', { exact: true }).waitFor();
    await expect.poll(() => statText('Paid Pledges')).toBe('2');
  });

  it('refuses an edited amount that is not a whole number of at least 1', async () => {
    await page.getByRole('button', { name: 'Edit pledge from Bob Campbell' }).click();
    const edit = dialog(page, 'Edit Pledge');
    expect(await edit.getByLabel('Name').inputValue()).toBe('Bob Campbell');
    expect(await edit.getByLabel('Email').inputValue()).toBe('bob@example.com');
    expect(await edit.getByLabel('Amount').inputValue()).toBe('15200');
    await screenshot(page, 'admin-edit-pledge-dialog');
    for (const bad of ['0', '1.5', '']) {
      await edit.getByLabel('Amount').fill(bad);
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await waitForToast(page, 'Invalid amount', 'Please enter a valid amount (minimum $1)');
    }
    expect(await edit.isVisible()).toBe(true);
  });

  it('edits a pledge: name, e-mail and amount; totals follow', async () => {
    const before = await progressNow();
    const edit = dialog(page, 'Edit Pledge');
    await edit.getByLabel('Name').fill('Robert Campbell');
    await edit.getByLabel('Email').fill('robert@example.com');
    await edit.getByLabel('Amount').fill('20000');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await waitForToast(page, 'Pledge updated');
    await edit.waitFor({ state: 'detached' });
    const robert = row('Robert Campbell');
    await robert.waitFor();
    expect(await robert.innerText()).toContain('robert@example.com');
    expect(await robert.innerText()).toContain('J$20,000');
    await expect.poll(() => statText('Total Amount')).toBe('US$1,300\nJ$20,000');
    expect(await progressNow()).toBe(
      before - containersFor(15200, 'JMD') + containersFor(20000, 'JMD'),
    );
  });

  it('deletes a pledge after confirmation', async () => {
    await page.getByRole('button', { name: 'Delete pledge from Carla Dunn' }).click();
    const confirm = dialog(page, 'Delete Pledge');
    expect(await confirm.innerText()).toContain('US$1,000 from Carla Dunn');
    await screenshot(page, 'admin-delete-pledge-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await row('Carla Dunn').count()).toBe(1);

    await page.getByRole('button', { name: 'Delete pledge from Carla Dunn' }).click();
    await confirm.getByRole('button', { name: 'Delete Pledge' }).click();
    await waitForToast(page, 'Pledge deleted');
    await expectNames(['Derek Evans', 'Robert Campbell', 'Alice Brown']);
    await expect.poll(() => statText('Total Pledges')).toBe('3');
    await expect.poll(() => statText('Total Amount')).toBe('US$300\nJ$20,000');
  });

  it('exports every pledge as pledges.csv', async () => {
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const confirm = dialog(page, 'Export Pledges');
    await confirm.waitFor();
    await screenshot(page, 'admin-export-dialog');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      confirm.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    await waitForToast(page, 'Export successful', 'Pledges CSV has been downloaded');
    expect(download.suggestedFilename()).toBe('pledges.csv');
    const rows = parse(readFileSync(await download.path()), { columns: true }) as Record<
      string,
      string
    >[];
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['Alice Brown', 'Derek Evans', 'Robert Campbell']);
    expect(byName['Robert Campbell']).toMatchObject({
      email: 'robert@example.com',
      amount: '20000',
      currency: 'JMD',
      status: 'Pending',
    });
    expect(byName['Alice Brown']).toMatchObject({ amount: '250', currency: 'USD', status: 'Paid' });
    expect(byName['Alice Brown']!.paymentConfirmedAt).not.toBe('');
  });

  it('applies a manual progress adjustment that the home shows', async () => {
    const pledged = await progressNow();
    await header(page).getByRole('button', { name: 'Admin settings' }).click();
    const panel = dialog(page, 'Admin Panel');
    await panel.getByText('Current Progress (Auto-calculated)').waitFor();
    expect(await panel.innerText()).toContain(`${pledged.toLocaleString('en-US')} containers`);
    const input = panel.getByLabel('Manual Adjustment');
    expect(await input.inputValue()).toBe('0');
    expect(await panel.innerText()).toContain('Add or subtract containers (e.g., +500 or -100)');
    await input.fill('2.5');
    await panel.getByRole('button', { name: 'Update Progress' }).click();
    await panel.getByText('Manual adjustment must be an integer').waitFor();
    await input.fill('500');
    await screenshot(page, 'admin-progress-dialog');
    await panel.getByRole('button', { name: 'Update Progress' }).click();
    await waitForToast(
      page,
      'Progress Updated',
      'The campaign progress has been successfully updated.',
    );
    await panel.waitFor({ state: 'detached' });
    expect(await progressNow()).toBe(pledged + 500);

    // Prefilled with the stored adjustment the next time; Cancel changes nothing.
    await header(page).getByRole('button', { name: 'Admin settings' }).click();
    await expect
      .poll(() => dialog(page, 'Admin Panel').getByLabel('Manual Adjustment').inputValue())
      .toBe('500');
    await dialog(page, 'Admin Panel').getByRole('button', { name: 'Cancel' }).click();

    await page.goto(server.baseUrl);
    const expected = (pledged + 500).toLocaleString('en-US');
    await page.getByText(expected, { exact: true }).first().waitFor();
  });

  it('pages through many pledges 25 at a time', async () => {
    for (let i = 1; i <= 25; i++) {
      await createPledge(server.baseUrl, {
        name: `Paging Donor ${String(i).padStart(2, '0')}`,
        email: `donor${i}@example.net`,
        amount: 10 + i,
      });
    }
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByText('Showing 1–25 of 28 pledges').waitFor();
    expect(await namesInTable(25)).toContain('Paging Donor 25');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 26–28 of 28 pledges').waitFor();
    await expectNames(['Derek Evans', 'Robert Campbell', 'Alice Brown']);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 of 2').waitFor();
  });
});
