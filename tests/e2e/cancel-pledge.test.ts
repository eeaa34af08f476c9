import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginThroughUi,
  openBrowser,
  seriousA11yViolations,
  skipLightbox,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * "I can't complete this pledge": the donor cancels from the status page, after a
 * confirmation; the page then says it is cancelled, the public total drops by the pledge, and the
 * admin finds it under the Cancelled filter.
 */
let server: RunningServer;
let page: Page;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer();
  const browser = await openBrowser();
  page = browser.page;
  closeBrowser = browser.close;
  await skipLightbox(browser.context);
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function currentAmount() {
  const res = await fetch(`${server.baseUrl}/api/progress`);
  return ((await res.json()) as { currentAmount: number }).currentAmount;
}

describe('a donor cancels a pledge', () => {
  it('from the status page, with a confirmation; axe stays clean', async () => {
    const before = await currentAmount();
    const res = await fetch(`${server.baseUrl}/api/pledges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cancel Clara', email: 'clara@donors.test', amount: 220 }),
    });
    expect(res.status).toBe(201);
    const { statusUrl } = (await res.json()) as { statusUrl: string };
    expect(await currentAmount()).toBe(before + 2000);

    await page.goto(server.baseUrl + statusUrl);
    await page.getByRole('heading', { name: 'Your Pledge Status' }).waitFor();
    await page.getByRole('button', { name: 'I’ve sent the transfer' }).waitFor();
    await page.getByRole('button', { name: 'I can’t complete this pledge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this pledge?' });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // "Keep my pledge" changes nothing.
    await dialog.getByRole('button', { name: 'Keep my pledge' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await currentAmount()).toBe(before + 2000);

    await page.getByRole('button', { name: 'I can’t complete this pledge' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel my pledge' }).click();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    await page.getByText(/This pledge is cancelled/).waitFor();
    expect(await page.getByRole('button', { name: 'I can’t complete this pledge' }).count()).toBe(
      0,
    );
    expect(await page.getByRole('heading', { name: 'How to pay' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await currentAmount()).toBe(before);

    // A reload (the server-rendered page) says the same.
    await page.reload();
    await page.getByText(/This pledge is cancelled/).waitFor();

    // The admin finds it under the Cancelled filter.
    await loginThroughUi(page, server.baseUrl);
    await page.getByLabel('Status').selectOption('cancelled');
    const row = page.getByRole('row').filter({ hasText: 'Cancel Clara' });
    await row.getByText('Cancelled', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Its e-mails view shows its reminders: none sent, none due (cancelled).
    await row.getByRole('button', { name: 'E-mails to Cancel Clara' }).click();
    const emails = page.getByRole('dialog', { name: 'E-mails' });
    await emails.getByText(/No reminder sent yet\. No further reminder is due\./).waitFor();
    await emails.getByRole('button', { name: 'Pause reminders' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await emails.getByRole('button', { name: 'Close' }).first().click();
    await emails.waitFor({ state: 'detached' });
  });

  it('the admin sees the schedule read-only and pauses every reminder', async () => {
    const panel = page.getByRole('region', { name: 'Reminders' });
    await panel.getByText('Days 7, 21, 42 after the pledge; Lapsed after 60 days').waitFor();
    await panel.getByRole('button', { name: 'Pause all reminders' }).click();
    await panel.getByText(/^Paused since /).waitFor();
    await panel.getByRole('button', { name: 'Resume all reminders' }).click();
    await panel.getByText('Running', { exact: true }).waitFor();
    expect(await panel.getByRole('button', { name: 'Release lapsed pledges' }).isDisabled()).toBe(
      true,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
