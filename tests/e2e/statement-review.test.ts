import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminCookie, screenshot, seedPledges, type PledgeSeed } from './support/admin-api';
import { dialog, statementReview, waitForToast } from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';
import * as api from '../support/api';

/**
 * The treasurer's review of a bank statement (docs/decisions/013-statement-matching.md): dismisses
 * the bank's interest, assigns a cash deposit to a pledge found by name, leaves the tab and comes
 * back to the same ticks and choices, confirms the batch, and finds the rest as it was.
 */
let server: RunningServer;
let page: Page;
let refs: Record<string, string> = {};
let ids: Record<string, string> = {};

const SEED: PledgeSeed[] = [
  { name: 'Jane Brown', email: 'jane@donors.test', amount: 100 },
  { name: 'Devon Clarke', email: 'devon@donors.test', amount: 250 },
  { name: 'Sophia Williams', email: 'sophia@donors.test', amount: 50 },
];

useSite({}, async (site) => {
  ({ server, page } = site);
  ({ refs, ids } = await seedPledges(server.baseUrl, SEED));
  await loginThroughUi(page, server.baseUrl);
});

const { row, tick, confirmButton } = statementReview(() => page);

async function leaveAndReturn() {
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('tab', { name: 'Overview', selected: true }).waitFor();
  await page.getByRole('tab', { name: 'Import bank statement' }).click();
  await page.getByRole('heading', { name: 'Review matches' }).waitFor();
}

describe('reviewing a bank statement', () => {
  it('dismisses, assigns, keeps its place across tabs, and confirms a batch', async () => {
    await page.getByRole('tab', { name: 'Import bank statement' }).click();
    const csv = [
      'Date,Description,Payer,Amount,Currency',
      `03/01/2025,TRF ${refs['Jane Brown']},J BROWN,100.00,USD`,
      `04/01/2025,WIRE ${refs['Devon Clarke']},DEVON CLARKE,250.00,USD`,
      '05/01/2025,CREDIT INTEREST,BANK,1.23,USD',
      '06/01/2025,CASH DEPOSIT BRANCH 12,,50.00,USD',
      '07/01/2025,INCOMING TRANSFER,SOMEONE ELSE,33.00,USD',
    ].join('\n');
    await page.getByLabel('Bank statement (CSV)').setInputFiles({
      name: 'march.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByLabel('Date', { exact: true }).waitFor();
    await page.getByLabel('Date order').selectOption('DMY');
    await page.getByRole('button', { name: 'Import and review' }).click();

    await row('J BROWN').getByText('Certain').waitFor();
    expect(await tick('Confirm US$100 from J BROWN').isChecked()).toBe(true);
    expect(await tick('Confirm US$250 from DEVON CLARKE').isChecked()).toBe(true);
    // Cents are shown; a line with no pledge cannot be ticked.
    await row('CREDIT INTEREST').getByText('US$1.23').waitFor();
    expect(await tick('Confirm US$1.23 from BANK').isDisabled()).toBe(true);
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (2)');

    // The bank's interest is no gift: dismissed with its reason.
    await page.getByRole('button', { name: 'Dismiss US$1.23 from BANK' }).click();
    const dismiss = dialog(page, 'Dismiss this line');
    await dismiss.getByRole('radio', { name: 'Bank interest' }).check();
    await dismiss.getByRole('button', { name: 'Dismiss line' }).click();
    await dismiss.waitFor({ state: 'detached' });
    await row('CREDIT INTEREST').waitFor({ state: 'detached' });

    // A cash deposit names nobody: the treasurer finds the pledge by name and chooses it.
    await page
      .getByRole('button', { name: 'Find a pledge for US$50 from CASH DEPOSIT BRANCH 12' })
      .click();
    const find = dialog(page, 'Find a pledge');
    await find.getByLabel('Search pledges by reference or name').fill('Sophia');
    await find
      .getByRole('button', { name: `Choose Sophia Williams (${refs['Sophia Williams']})` })
      .click();
    await find.waitFor({ state: 'detached' });
    await row('CASH DEPOSIT').getByText('Chosen by you').waitFor();
    await row('CASH DEPOSIT').getByText('exact amount').waitFor();
    expect(await tick('Confirm US$50 from CASH DEPOSIT BRANCH 12').isChecked()).toBe(true);
    // Devon's line waits for another day: unticked by hand.
    await tick('Confirm US$250 from DEVON CLARKE').uncheck();
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (2)');
    await page.getByText('2 lines ticked for 2 pledges').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'admin-statement-review', { fullPage: true });

    // Leaving the tab and coming back finds the same ticks and choices.
    await leaveAndReturn();
    await row('CASH DEPOSIT').getByText('Sophia Williams').waitFor();
    expect(await tick('Confirm US$50 from CASH DEPOSIT BRANCH 12').isChecked()).toBe(true);
    expect(await tick('Confirm US$100 from J BROWN').isChecked()).toBe(true);
    expect(await tick('Confirm US$250 from DEVON CLARKE').isChecked()).toBe(false);
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (2)');

    await confirmButton().click();
    await waitForToast(
      page,
      'Payments confirmed',
      '2 lines matched: 2 pledges confirmed from the statement.',
    );
    await row('J BROWN').waitFor({ state: 'detached' });
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (0)');
    const cookie = await adminCookie(server.baseUrl);
    const pledges = await api.adminPledges(server.baseUrl, cookie);
    const paid = (name: string) => pledges.find((p) => p.id === ids[name])!.isPaid;
    expect([paid('Jane Brown'), paid('Sophia Williams'), paid('Devon Clarke')]).toEqual([
      true,
      true,
      false,
    ]);

    // And again after confirming: what is left is as it was, the dismissed line can come back.
    await leaveAndReturn();
    await row('DEVON CLARKE').waitFor();
    await row('SOMEONE ELSE').getByText('Unmatched').waitFor();
    expect(await tick('Confirm US$250 from DEVON CLARKE').isChecked()).toBe(false);
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (0)');
    await page.getByRole('button', { name: 'Show dismissed lines' }).click();
    const dismissed = page.getByRole('table', { name: 'Dismissed statement lines' });
    await dismissed.getByRole('row').filter({ hasText: 'Bank interest' }).waitFor();
    await dismissed.getByRole('button', { name: 'Restore US$1.23 from BANK' }).click();
    await row('CREDIT INTEREST').getByText('Unmatched').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
