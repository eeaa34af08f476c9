import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminCookie, screenshot, seedPledges, type PledgeSeed } from './support/admin-api';
import { dialog, statementReview, waitForToast } from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';
import type { AdminPledge } from '@shared/schemas/pledge';
import * as api from '../support/api';

/**
 * A treasurer's day with two real export layouts: a header-less checking export with
 * month-first dates and signed amounts (its first row is a payment), then a transaction history
 * with Direction and Status columns (a refund quoting a reference goes out, a transfer was
 * cancelled). The treasurer dismisses the bank's interest, assigns a cash deposit to a pledge found
 * by name, confirms a batch, leaves and returns to the tab, and every donor whose payment was
 * recorded from the statements gets a receipt in the outbox; importing the first file again adds
 * nothing, and undoing the second import reverses its payment.
 */
let server: RunningServer;
let page: Page;
let refs: Record<string, string> = {};
let ids: Record<string, string> = {};

const SEED: PledgeSeed[] = [
  { name: 'Jane Brown', email: 'jane.day@donors.test', amount: 100 },
  { name: 'Devon Clarke', email: 'devon.day@donors.test', amount: 250 },
  { name: 'Sophia Williams', email: 'sophia.day@donors.test', amount: 50 },
];

useSite({}, async (site) => {
  ({ server, page } = site);
  ({ refs, ids } = await seedPledges(server.baseUrl, SEED));
  await loginThroughUi(page, server.baseUrl);
});

const { row, confirmButton } = statementReview(() => page);
const summary = () => page.getByRole('status').filter({ hasText: 'in the file' });

async function choose(name: string, csv: string) {
  await page.getByLabel('Bank statement (CSV)').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
}

/** The receipts written to DATA_DIR/outbox (no SMTP_URL), by recipient. */
async function receiptsTo(): Promise<Map<string, string>> {
  const dir = path.join(server.dataDir, 'outbox');
  const out = new Map<string, string>();
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return out; // no e-mail written yet
  }
  for (const f of files) {
    const mail = await simpleParser(readFileSync(path.join(dir, f)));
    const to = mail.to && 'value' in mail.to ? mail.to.value[0]?.address : undefined;
    if (to && mail.subject?.startsWith('Receipt:')) out.set(to, mail.text ?? '');
  }
  return out;
}

describe("a treasurer's day with two export layouts", () => {
  it('reads both files right, reviews, confirms, and every donor paid gets a receipt', async () => {
    await page.getByRole('tab', { name: 'Import bank statement' }).click();

    // 1. A header-less checking export (month-first dates, signed amounts, a trailing comma).
    const checking = [
      `"11/20/2026","100.00","*","","ZELLE FROM JANE BROWN ${refs['Jane Brown']}",`,
      `"11/21/2026","-20.00","*","","DEBIT CARD PURCHASE",`,
      `"11/22/2026","0.45","*","","INTEREST PAYMENT",`,
      `"11/23/2026","50.00","*","","CASH DEPOSIT BRANCH 12",`,
    ].join('\r\n');
    await choose('checking.csv', checking);
    const firstRow = page.getByRole('checkbox', { name: 'The first row is a transaction' });
    await firstRow.waitFor();
    expect(await firstRow.getAttribute('aria-checked')).toBe('true');
    await page.getByLabel('Currency of the whole statement').selectOption('USD');
    await page.getByLabel('Name of this mapping').fill('Checking USD');
    await page.getByRole('button', { name: 'Import and review' }).click();
    await expect.poll(() => summary().textContent()).toContain('3 incoming transfers in the file');
    await row('ZELLE FROM JANE BROWN').getByText('Certain').waitFor();

    // 2. A transaction history with Direction and Status columns.
    const history = [
      'ID,Status,Direction,Finished on,Source name,Amount,Currency,Reference',
      `T-1,COMPLETED,IN,2026-11-24,Devon Clarke,100.00,USD,${refs['Devon Clarke']}`,
      `T-2,CANCELLED,IN,2026-11-24,Sophia Williams,50.00,USD,${refs['Sophia Williams']}`,
      `T-3,COMPLETED,OUT,2026-11-25,Jane Brown,100.00,USD,Refund ${refs['Jane Brown']}`,
    ].join('\n');
    await choose('history.csv', history);
    await page.getByLabel('Direction (in / out)').waitFor();
    await page.getByLabel('Date', { exact: true }).selectOption('Finished on');
    await page.getByLabel('Date order').selectOption('YMD');
    await page.getByRole('button', { name: 'Import and review' }).click();
    await expect
      .poll(() => summary().textContent())
      .toContain('2 lines skipped: 1 money out, 1 not completed.');
    await row('Devon Clarke').getByText('Certain').waitFor();
    // The refund and the cancelled transfer never reach the review.
    expect(await row('Refund').count()).toBe(0);
    expect(await row('T-2').count()).toBe(0);
    await row('Devon Clarke').getByText('short by US$150').waitFor();

    // 3. The bank's interest is dismissed; the cash deposit is Sophia's, found by name.
    await page.getByRole('button', { name: 'Dismiss US$0.45 from INTEREST PAYMENT' }).click();
    const dismiss = dialog(page, 'Dismiss this line');
    await dismiss.getByRole('radio', { name: 'Bank interest' }).check();
    await dismiss.getByRole('button', { name: 'Dismiss line' }).click();
    await row('INTEREST PAYMENT').waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: 'Find a pledge for US$50 from CASH DEPOSIT BRANCH 12' })
      .click();
    const find = dialog(page, 'Find a pledge');
    await find.getByLabel('Search pledges by reference or name').fill('Sophia');
    await find
      .getByRole('button', { name: `Choose Sophia Williams (${refs['Sophia Williams']})` })
      .click();
    await row('CASH DEPOSIT').getByText('Chosen by you').waitFor();
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (3)');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'admin-treasurer-day-review', { fullPage: true });

    // 4. Leave the tab and come back: the ticks and the choice are still there.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('tab', { name: 'Import bank statement' }).click();
    await row('CASH DEPOSIT').getByText('Sophia Williams').waitFor();
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (3)');

    // 5. Confirm the batch: three lines, three pledges, three receipts.
    await confirmButton().click();
    await waitForToast(
      page,
      'Payments confirmed',
      '3 lines matched: 3 pledges confirmed from the statement.',
    );
    await expect.poll(() => confirmButton().textContent()).toBe('Confirm selected (0)');
    const cookie = await adminCookie(server.baseUrl);
    const states = async () => {
      const all = (await api.adminPledges(server.baseUrl, cookie)) as unknown as AdminPledge[];
      return Object.fromEntries(
        Object.entries(ids).map(([name, id]) => [name, all.find((p) => p.id === id)!.paymentState]),
      );
    };
    expect(await states()).toEqual({
      'Jane Brown': 'paid',
      'Devon Clarke': 'part-paid',
      'Sophia Williams': 'paid',
    });
    await expect
      .poll(async () => [...(await receiptsTo()).keys()].sort(), { timeout: 20_000 })
      .toEqual(['devon.day@donors.test', 'jane.day@donors.test', 'sophia.day@donors.test']);
    expect((await receiptsTo()).get('devon.day@donors.test')).toContain(refs['Devon Clarke']);

    // 6. The same checking file again adds nothing and confirms nothing.
    await choose('checking-again.csv', checking);
    await page.getByRole('button', { name: 'Import and review' }).click();
    await expect
      .poll(() => summary().textContent())
      .toContain('3 incoming transfers in the file: 0 new, 3 imported before');

    // 7. Undoing the history import reverses Devon's payment (and only it).
    const recent = page.getByRole('table', { name: 'Statement files imported, newest first' });
    await recent.getByRole('button', { name: 'Undo import of history.csv' }).click();
    const undo = dialog(page, 'Undo this import?');
    await undo.getByRole('button', { name: 'Undo import' }).click();
    await waitForToast(page, 'Import undone');
    expect(await states()).toEqual({
      'Jane Brown': 'paid',
      'Devon Clarke': 'pending',
      'Sophia Williams': 'paid',
    });
    await screenshot(page, 'admin-treasurer-day-undone', { fullPage: true });
  });
});
