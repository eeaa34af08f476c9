import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../support/api';
import { adminCookie } from './support/admin-api';
import { waitForToast } from './support/admin-ui';
import {
  loginThroughUi,
  openBrowser,
  seriousA11yViolations,
  skipLightbox,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * In the browser: the home's three stages (pledged, received, delivered) and the
 * server-rendered "Where the money goes", with JavaScript on and off; a donor downloads and erases
 * their data from the status page.
 */
let server: RunningServer;
let donor: { id: string; statusUrl: string; name: string; email: string };

beforeAll(async () => {
  server = await startServer();
  const cookie = await adminCookie(server.baseUrl);
  const body = api.pledgeBody({ name: 'Petra Ledger', email: 'petra@ledger.test', amount: 1100 });
  const created = (await api.createPledge(server.baseUrl, body)) as unknown as {
    id: string;
    statusUrl: string;
  };
  donor = { ...created, name: body.name as string, email: body.email as string };
  const confirmed = await fetch(`${server.baseUrl}/api/pledges/${created.id}/confirm`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ amountReceived: 1100 }),
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  await api.createUpdate(server.baseUrl, cookie, {
    recipient: 'Savanna-la-Mar Kitchen',
    containerCount: 4_000,
    deliveryDate: '2025-01-06',
  });
});

afterAll(async () => {
  await server?.stop();
});

async function checkLedger(page: Page) {
  await page.getByRole('heading', { level: 1, name: 'Where the money goes' }).waitFor();
  const stages = page.getByRole('list', { name: 'Pledged, received, delivered' });
  expect(await stages.innerText()).toMatch(/Delivered\s*4,000/);
  expect(await stages.innerText()).toMatch(/Received\s*10,000/);
  expect(await page.getByText('Savanna-la-Mar Kitchen').count()).toBe(1);
  expect(await page.getByRole('img', { name: 'Delivery to Savanna-la-Mar Kitchen' }).count()).toBe(
    1,
  );
  expect(await page.locator('table').innerText()).toContain('US$1,100');
}

describe.each([true, false])('JavaScript %s', (javaScriptEnabled) => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const browser = await openBrowser({ javaScriptEnabled });
    ({ page, close } = browser);
    await skipLightbox(browser.context);
  });
  afterAll(async () => close?.());

  it('the home shows delivered, received and pledged, and leads to Where the money goes', async () => {
    await page.goto(server.baseUrl);
    const bar = page.getByRole('progressbar', { name: 'Campaign progress' });
    const described = page.locator(`#${await bar.getAttribute('aria-describedby')}`);
    const text = await described.innerText();
    expect(text).toContain('4,000 delivered');
    expect(text).toContain('10,000 received');
    await page.getByRole('link', { name: 'Where the money goes' }).first().click();
    await page.waitForURL('**/where-the-money-goes');
    await checkLedger(page);
    if (javaScriptEnabled) expect(await seriousA11yViolations(page)).toEqual([]);
    // The footer links back to the notice.
    await page.getByRole('link', { name: 'Privacy notice' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy notice' }).waitFor();
    if (javaScriptEnabled) expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('a donor’s data on the status page', () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const browser = await openBrowser();
    ({ page, close } = browser);
    await skipLightbox(browser.context);
  });
  afterAll(async () => close?.());

  it('says how far delivery has come, downloads the data, and erases it after a confirmation', async () => {
    await page.goto(server.baseUrl + donor.statusUrl);
    await page.getByRole('heading', { name: 'Your Pledge Status' }).waitFor();
    await page
      .getByText('So far 4,000 of the 10,000 containers paid for have been delivered.')
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download my data' }).click(),
    ]);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      pledge: { id: string; email: string; name: string };
    };
    expect(data.pledge).toMatchObject({ id: donor.id, email: donor.email, name: donor.name });

    await page.getByRole('button', { name: 'Erase my personal data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase your personal data?' });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Erase my data' }).click();
    await page.getByText('Your name and e-mail address have been erased.').waitFor();
    // The link is ended: the same address is now the 404 page.
    const res = await page.goto(server.baseUrl + donor.statusUrl);
    expect(res!.status()).toBe(404);
    const pledges = (await (await fetch(`${server.baseUrl}/api/pledges?limit=50`)).json()) as {
      name: string;
    }[];
    expect(pledges.map((p) => p.name)).not.toContain(donor.name);
  });
});

describe('the admin’s donor data panel', () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const browser = await openBrowser();
    ({ page, close } = browser);
    await skipLightbox(browser.context);
  });
  afterAll(async () => close?.());

  it('shows when retention anonymises, and erases every pledge of an address', async () => {
    await api.createPledge(server.baseUrl, api.pledgeBody({ email: 'letter@donor.test' }));
    await api.createPledge(server.baseUrl, api.pledgeBody({ email: 'Letter@Donor.test' }));
    await loginThroughUi(page, server.baseUrl);
    await page.getByRole('tab', { name: 'Activity' }).click();
    // config/campaign.json: ends 2027-06-30, 365 days of retention.
    await page.getByText(/anonymised on June 29, 2028/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Erase every pledge of an e-mail address').fill('letter@donor.test');
    await page.getByRole('button', { name: 'Erase donor data' }).click();
    await page
      .getByRole('dialog', { name: 'Erase this donor’s data?' })
      .getByRole('button', { name: 'Erase' })
      .click();
    await waitForToast(page, 'Donor data erased', '2 pledges erased.');
    const log = page.getByRole('table', { name: 'Admin activity, newest first' });
    await log.getByText('Erased donor data').first().waitFor();
    expect(await log.innerText()).not.toContain('letter@donor.test');
  });
});
