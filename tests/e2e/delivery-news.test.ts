import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { fixturePath } from '../fixtures';
import { adminCookie, screenshot } from './support/admin-api';
import { dialog, header, uploadThroughUppy, waitForToast } from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * Delivery news by consent, as people use it: a donor ticks "E-mail me when containers are
 * delivered" in the pledge dialog, the admin posts an update and chooses "Notify 1 subscriber by
 * e-mail", the e-mail arrives over real SMTP with one-click unsubscribe headers, and the donor
 * unsubscribes by its link (a page with a button: opening the link changes nothing).
 */
let smtp: TestSmtp;
let server: RunningServer;
let page: Page;

const DONOR = 'news.donor@example.com';
const RECIPIENT = 'Lucea Community Kitchen';
let statusUrl: string;
let unsubscribePath: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

useSite(
  {
    env: () => ({
      ...smtp.env,
      MAIL_POLL_MS: '200',
    }),
  },
  (site) => {
    ({ server, page } = site);
  },
);

const isNews = (m: ParsedMail) => m.subject?.startsWith('Delivered:') === true;

async function subscribers(): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/admin/news/subscribers`, {
    headers: { cookie: await adminCookie(server.baseUrl) },
  });
  return ((await res.json()) as { count: number }).count;
}

describe('delivery news by e-mail', () => {
  it('a donor ticks the unticked box in the pledge dialog', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('button', { name: 'Pledge Now' }).first().click();
    const form = page.getByRole('dialog', { name: 'Make a Pledge' });
    const box = form.getByRole('checkbox', { name: 'E-mail me when containers are delivered' });
    expect(await box.getAttribute('aria-checked')).toBe('false');
    await form.getByLabel('Full Name').fill('Nadia Campbell');
    await form.getByLabel('Email Address').fill(DONOR);
    await form.getByLabel('Pledge Amount').fill('250');
    await box.click();
    expect(await box.getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'pledge-dialog-delivery-news');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/api/pledges') && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Submit Pledge' }).click();
    expect((await created).request().postDataJSON()).toMatchObject({ deliveryNews: true });
    await page.getByRole('heading', { name: 'Thank You for Your Pledge' }).waitFor();
    statusUrl = (await page
      .getByRole('link', { name: 'Open your pledge status page' })
      .getAttribute('href'))!;
    expect(await subscribers()).toBe(1);
  });

  it('the admin posts an update and chooses to notify the 1 subscriber', async () => {
    await loginThroughUi(page, server.baseUrl);
    await header(page).getByRole('button', { name: 'Add update' }).click();
    const form = dialog(page, 'Post Delivery Update');
    const notify = form.getByRole('checkbox', { name: 'Notify 1 subscriber by e-mail' });
    await notify.waitFor();
    // Off until the admin chooses it.
    expect(await notify.getAttribute('aria-checked')).toBe('false');
    await uploadThroughUppy(page, form, fixturePath('delivery.png'));
    await waitForToast(page, 'Image uploaded');
    await form.getByLabel('Recipient').fill(RECIPIENT);
    await form.getByLabel('Container Count').fill('800');
    await form.getByLabel('Delivery Date').fill('2026-11-20');
    await notify.click();
    expect(await notify.getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'admin-post-update-notify');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const posted = page.waitForResponse(
      (r) => r.url().endsWith('/api/updates') && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Publish Update' }).click();
    expect((await posted).request().postDataJSON()).toMatchObject({ notifySubscribers: true });
    await waitForToast(
      page,
      'Update posted',
      'Your delivery update has been published. 1 subscriber will get it by e-mail.',
    );
  });

  it('the e-mail arrives over SMTP with its unsubscribe link and one-click headers', async () => {
    const deadline = Date.now() + 20_000;
    let news: ParsedMail | undefined;
    while (!(news = smtp.received.find(isNews))) {
      if (Date.now() > deadline) throw new Error('no delivery news arrived');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(news.to && 'value' in news.to ? news.to.value[0]!.address : '').toBe(DONOR);
    expect(news.subject).toBe(`Delivered: 800 meal containers to ${RECIPIENT}`);
    expect(news.text).toContain('Dear Nadia,');
    const line = (name: string) =>
      news.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, ' ');
    const link = /^List-Unsubscribe: <(http[^>]+)>$/.exec(line('list-unsubscribe')!)![1]!;
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(news.text).toContain(link);
    const url = new URL(link);
    expect(url.pathname).toBe('/api/news/unsubscribe');
    unsubscribePath = url.pathname + url.search;
  });

  it('the donor unsubscribes by the link: a page with a button, then done', async () => {
    await page.goto(server.baseUrl + unsubscribePath);
    await page.getByRole('heading', { name: 'Delivery news by e-mail' }).waitFor();
    // Opening the link (as a mail scanner does) unsubscribes nobody.
    expect(await subscribers()).toBe(1);
    await screenshot(page, 'news-unsubscribe-page');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await subscribers()).toBe(0);
  });

  it('the status page shows the choice and subscribes again', async () => {
    await page.goto(server.baseUrl + statusUrl);
    const card = page.getByRole('region', { name: 'Delivery news' });
    await card.getByText('We do not e-mail you about deliveries.').waitFor();
    await card.getByRole('button', { name: 'E-mail me when containers are delivered' }).click();
    await card.getByText('We e-mail you when containers are delivered.').waitFor();
    await screenshot(page, 'status-delivery-news', { fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await subscribers()).toBe(1);
    await card.getByRole('button', { name: 'Unsubscribe from delivery news' }).click();
    await card.getByText('We do not e-mail you about deliveries.').waitFor();
    expect(await subscribers()).toBe(0);
  });
});
