import type { Progress } from '@shared/schemas/progress';
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptsBeforeInteractive } from '../../bench/lib/home-js';
import { formatNumber } from '@shared/format';
import * as api from '../support/api';
import { adminCookie, createUpdate } from './support/admin-api';
import {
  loginThroughUi,
  openBrowser,
  PHONE,
  seriousA11yViolations,
  skipLightbox,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * The first screen rendered on the server (docs/decisions/017-server-rendering.md): readable with
 * JavaScript off, hydrated without a mismatch with it on, and the home's JavaScript within its
 * budget, counted the way `npm run bench` counts it.
 */
const JS_BUDGET_KB = 120;

let server: RunningServer;
let progress: Progress;
let statusUrl: string;

beforeAll(async () => {
  server = await startServer();
  const base = server.baseUrl;
  await api.createPledge(base, { name: 'Marcia Campbell', amount: 2500 });
  await api.createPledge(base, {
    name: 'Hidden Name',
    amount: 30_400,
    currency: 'JMD',
    isAnonymous: true,
  });
  const own = (await api.createPledge(base, {
    name: 'Devon Williams',
    amount: 120,
  })) as unknown as {
    statusUrl: string;
  };
  statusUrl = own.statusUrl;
  await createUpdate(base, await adminCookie(base), {
    recipient: 'Black River Community Kitchen',
    containerCount: 1200,
    deliveryDate: '2025-01-05',
  });
  progress = await api.progress(base);
});

afterAll(async () => {
  await server?.stop();
});

/** Holds back the matching requests (a slow phone network) until the returned function is called. */
async function holdBack(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** How much of the progress bar's fill shows inside the bar, in pixels. */
async function visibleFill(page: Page): Promise<number> {
  const fill = await page.getByTestId('progress-fill').boundingBox();
  const track = await page.getByRole('progressbar', { name: 'Campaign progress' }).boundingBox();
  return fill!.x + fill!.width - track!.x;
}

describe('with JavaScript off', () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await openBrowser({ viewport: PHONE, javaScriptEnabled: false }));
  });
  afterAll(async () => close?.());

  it('the home shows the campaign, its numbers, the pledges and a visible Pledge Now button', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('heading', { level: 1, name: 'Meals for Recovery Jamaica' }).waitFor();
    const card = page.getByText('containers pledged').locator('..');
    expect(await card.innerText()).toContain(formatNumber(progress.currentAmount));
    expect(await page.getByTestId('tile-donors').locator('dd').innerText()).toBe('3');
    const bar = page.getByRole('progressbar', { name: 'Campaign progress' });
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    // The fill cannot grow in without JavaScript: it stands where it ends, not empty.
    const fill = await page.getByTestId('progress-fill').boundingBox();
    const track = await bar.boundingBox();
    expect(fill!.x).toBeGreaterThan(track!.x - track!.width + 1);
    // About 5 % here: drawn at least as a dot as wide as the bar is high, not a few pixels.
    expect(await visibleFill(page)).toBeGreaterThanOrEqual(track!.height - 1);

    const pledgeNow = page.getByRole('button', { name: 'Pledge Now' });
    expect(await pledgeNow.count()).toBe(2);
    for (const button of await pledgeNow.all()) expect(await button.isVisible()).toBe(true);
    // The one under the progress bar is on the first screen of a phone.
    const cta = await pledgeNow.nth(1).boundingBox();
    expect(cta!.y + cta!.height).toBeLessThanOrEqual(PHONE.height);
    // (Playwright's text queries skip <noscript>, whose content shows here.)
    const note = page.locator('noscript p');
    expect(await note.isVisible()).toBe(true);
    expect(await note.innerText()).toBe(
      'The pledge form needs JavaScript. Please turn it on to pledge.',
    );

    await page.getByRole('article', { name: 'Pledge from Marcia Campbell' }).waitFor();
    await page.getByRole('article', { name: 'Pledge from Anonymous' }).waitFor();
    expect(await page.content()).not.toContain('Hidden Name');
    expect(await page.locator('time', { hasText: / ago$/ }).count()).toBe(3);
    await page.getByRole('img', { name: 'Delivery to Black River Community Kitchen' }).waitFor();
    expect(await page.getByRole('contentinfo').innerText()).toContain(
      'Donations are voluntary and non-refundable except as required by law.',
    );
    // No script ran: all of the above came from the server.
    await page.waitForTimeout(500);
    expect(await page.locator('html[data-interactive]').count()).toBe(0);
  });

  it('the 404 page and the donor status page are rendered too', async () => {
    const missing = await page.goto(`${server.baseUrl}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.title()).toBe('404 Page Not Found');
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();

    const wrongToken = await page.goto(`${server.baseUrl}${statusUrl}x`);
    expect(wrongToken?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();

    const own = await page.goto(`${server.baseUrl}${statusUrl}`);
    expect(own?.status()).toBe(200);
    expect(await page.title()).toBe('Your Pledge Status');
    await page.getByRole('heading', { level: 1, name: 'Your Pledge Status' }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain('Thank you, Devon Williams.');
    expect(text).toContain('US$120');
  });
});

/** Console messages that are not the page's own 404 status (the 404 page is served with 404). */
function unexpected(messages: ConsoleMessage[], pageUrl: string): string[] {
  return messages
    .filter((m) => m.type() === 'error' || m.type() === 'warning')
    .filter(
      (m) => !(m.text().startsWith('Failed to load resource') && m.location().url === pageUrl),
    )
    .map((m) => `${m.type()}: ${m.text()}`);
}

describe('with JavaScript on', () => {
  it.each([
    ['the home', '/', 'Meals for Recovery Jamaica'],
    ['the 404 page', '/no-such-page', '404 Page Not Found'],
    ['the donor status page', 'STATUS', 'Your Pledge Status'],
  ])('%s hydrates without a warning and keeps the server’s elements', async (_, path, h1) => {
    const { page, context, close } = await openBrowser({ viewport: PHONE });
    try {
      await skipLightbox(context);
      const messages: ConsoleMessage[] = [];
      const errors: string[] = [];
      page.on('console', (m) => messages.push(m));
      page.on('pageerror', (e) => errors.push(e.message));
      // The server's <h1>, taken before any script runs (module scripts wait for the parser).
      await context.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive')
            (window as { serverH1?: Element | null }).serverH1 = document.querySelector('h1');
        });
      });
      const url = `${server.baseUrl}${path === 'STATUS' ? statusUrl : path}`;
      await page.goto(url);
      await page.waitForFunction(() => document.documentElement.dataset.interactive === 'true');
      expect(
        await page.evaluate(() => {
          const h1 = (window as { serverH1?: Element | null }).serverH1;
          return { text: h1?.textContent, kept: !!h1 && h1 === document.querySelector('h1') };
        }),
      ).toEqual({ text: h1, kept: true });
      // Effects after hydration (relative times, the idle loads) run meanwhile. Not
      // "networkidle": the home keeps its live-progress stream open.
      await page.waitForTimeout(1500);
      expect(unexpected(messages, url)).toEqual([]);
      expect(errors).toEqual([]);
      // The fill has grown in (1 s) to at least a dot, as with JavaScript off.
      if (path === '/') {
        const barHeight = (await page.getByRole('progressbar').boundingBox())!.height;
        expect(await visibleFill(page)).toBeGreaterThanOrEqual(barHeight - 1);
      }
      // Hydrated means working: the header's Pledge Now opens the form.
      await page.getByRole('banner').getByRole('button', { name: 'Pledge Now' }).click();
      await page.getByRole('dialog', { name: 'Make a Pledge' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('before the app is interactive', () => {
  it('the app’s scripts are requested only after the first paint', async () => {
    // Lighthouse's simulation counts a script that arrived before the first paint as something
    // the paint waited for (docs/decisions/017-server-rendering.md).
    const { page, close } = await openBrowser({ viewport: PHONE });
    try {
      await page.goto(server.baseUrl);
      await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
      const { firstPaint, scripts } = await page.evaluate(() => ({
        firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime,
        scripts: performance
          .getEntriesByType('resource')
          .filter((e) => /\/assets\/[^/]+\.js$/.test(e.name))
          .map((e) => ({ name: e.name, startTime: e.startTime })),
      }));
      expect(firstPaint).toBeGreaterThan(0);
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      for (const script of scripts)
        expect(script.startTime, script.name).toBeGreaterThanOrEqual(firstPaint!);
    } finally {
      await close();
    }
  });

  it('a tap on Pledge Now is held and opens the form once the app has started', async () => {
    const { page, context, close } = await openBrowser({ viewport: PHONE });
    try {
      await skipLightbox(context);
      // Hold back the app's first-load script (a slow phone on a poor connection).
      const release = await holdBack(page, /\/assets\/index-[^/]*\.js$/);
      await page.goto(server.baseUrl);
      const pledgeNow = page.getByRole('button', { name: 'Pledge Now' }).first();
      await pledgeNow.click();
      expect(await page.locator('html[data-interactive]').count()).toBe(0);
      expect(await page.getByRole('dialog').count()).toBe(0);
      release();
      await page.getByRole('dialog', { name: 'Make a Pledge' }).waitFor();
      // Held once, replayed once: one dialog, and later taps work as usual.
      expect(await page.getByRole('dialog').count()).toBe(1);
    } finally {
      await close();
    }
  });
  /**
   * A first visit and an immediate tap on Pledge Now: the form must be usable (its fields and
   * Submit Pledge in the accessibility tree), the only dialog, and the campaign lightbox gone, in
   * each order the two can meet:
   * - the lightbox's code arrives after the form opened (a slow connection);
   * - both codes arrive together, so both mount in one render (a fast one: the order that hid the
   *   whole form from screen readers, found 2026-11-26);
   * - the lightbox is already up while the form's code is still loading.
   * Each order is forced by holding back scripts, not left to timing: on a loaded machine the
   * lightbox could otherwise be fully up before the tap, which then (rightly) lands on it.
   */
  /** The dialogs on the page, the lightbox's phase and what is hidden from screen readers. */
  function dialogState(page: Page) {
    return page.evaluate(() => ({
      lightbox:
        document.querySelector('[data-testid="campaign-lightbox"]')?.getAttribute('data-phase') ??
        null,
      dialogs: [...document.querySelectorAll('[role="dialog"]')].map((d) => ({
        label:
          d.getAttribute('aria-labelledby') &&
          document.getElementById(d.getAttribute('aria-labelledby')!)?.textContent,
        hiddenBy: d.closest('[aria-hidden="true"]')?.outerHTML.slice(0, 80) ?? null,
        fields: d.querySelectorAll('input').length,
      })),
      bodyChildren: [...document.body.children].map(
        (c) => `${c.tagName}#${c.id} aria-hidden=${c.getAttribute('aria-hidden')}`,
      ),
      focus: document.activeElement?.outerHTML.slice(0, 80) ?? null,
    }));
  }
  type FirstVisitOrder = 'lightbox after form' | 'together' | 'lightbox before form';
  async function tapPledgeNowOnFirstVisit(order: FirstVisitOrder) {
    const lightboxCode = /\/assets\/campaign-lightbox-[^/]*\.js$/;
    const formCode = /\/assets\/pledge-dialog-[^/]*\.js$/;
    const appCode = /\/assets\/index-[^/]*\.js$/;
    const pledgeNow = (page: Page) => page.getByRole('button', { name: 'Pledge Now' }).first();
    const { page, close } = await openBrowser({ viewport: PHONE, phone: true });
    try {
      const lightboxLoaded = page.waitForResponse(lightboxCode);
      if (order === 'lightbox after form') {
        const releaseLightbox = await holdBack(page, lightboxCode);
        await page.goto(server.baseUrl);
        await pledgeNow(page).click();
        await page.getByRole('dialog', { name: 'Make a Pledge' }).waitFor();
        releaseLightbox();
      } else if (order === 'together') {
        const releaseLightbox = await holdBack(page, lightboxCode);
        const releaseForm = await holdBack(page, formCode);
        await page.goto(server.baseUrl);
        await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
        await pledgeNow(page).click();
        releaseLightbox();
        releaseForm();
      } else {
        // The tap lands before the app starts (held, then replayed), so before the lightbox.
        const releaseApp = await holdBack(page, appCode);
        const releaseForm = await holdBack(page, formCode);
        await page.goto(server.baseUrl);
        await pledgeNow(page).click();
        releaseApp();
        await page.getByTestId('campaign-lightbox').waitFor({ state: 'attached' });
        releaseForm();
      }
      await lightboxLoaded;
      const form = page.getByRole('dialog', { name: 'Make a Pledge' });
      await form.waitFor();
      await page.waitForTimeout(500);
      // Usable now, not once the lightbox closes by itself (30 s).
      await form
        .getByRole('textbox', { name: 'Full Name' })
        .fill('Quick Tapper', { timeout: 5_000 })
        .catch(async (err: Error) => {
          // Seen once in a full run, never alone: say what the page looked like.
          throw new Error(`${err.message}\npage: ${JSON.stringify(await dialogState(page))}`);
        });
      await form.getByRole('textbox', { name: 'Email Address' }).fill('quick@example.test');
      await form.getByRole('spinbutton', { name: 'Pledge Amount' }).fill('20');
      expect(await form.getByRole('button', { name: 'Submit Pledge' }).isVisible()).toBe(true);
      expect(await page.getByRole('dialog').count()).toBe(1);
      // Gone, not waiting behind the form for the donor to close it.
      expect(await page.getByTestId('campaign-lightbox').count()).toBe(0);
    } finally {
      await close();
    }
  }
  it.each<FirstVisitOrder>(['lightbox after form', 'together', 'lightbox before form'])(
    'a first-time visitor who taps Pledge Now at once gets a usable form, not the lightbox over it (%s)',
    async (order) => tapPledgeNowOnFirstVisit(order),
  );
  it("an admin's tap on Admin controls before the app starts turns them on once it has", async () => {
    // The header's admin controls hydrate a frame or two after the rest of the page (a Suspense
    // boundary): replayed at once, this tap was lost every time.
    const { page, context, close } = await openBrowser();
    try {
      await skipLightbox(context);
      await loginThroughUi(page, server.baseUrl);
      const release = await holdBack(page, /\/assets\/[^/]+\.js$/);
      await page.goto(server.baseUrl);
      const toggle = page.getByRole('button', { name: 'Admin controls' });
      await toggle.click();
      expect(await page.locator('html[data-interactive]').count()).toBe(0);
      release();
      await page.locator('button[aria-label="Admin controls"][aria-pressed="true"]').waitFor();
      await page.getByRole('button', { name: 'Mark Paid' }).first().waitFor();
    } finally {
      await close();
    }
  });
});

describe('the home’s JavaScript', () => {
  it(`is at most ${JS_BUDGET_KB} KB gzip before the page is interactive`, async () => {
    // A first visit (the lightbox shows) with an empty cache: every script is downloaded.
    const { page, close } = await openBrowser({ viewport: PHONE });
    try {
      const count = await scriptsBeforeInteractive(page, server.baseUrl);
      expect(count.files.length).toBeGreaterThan(0);
      expect(count.gzipKb, JSON.stringify(count.files)).toBeLessThanOrEqual(JS_BUDGET_KB);
      // Loaded later, not counted: the pledge form (when the browser is idle) and the lightbox.
      await page.getByTestId('campaign-lightbox').waitFor();
      expect(count.files.map((f) => f.path).join(' ')).not.toMatch(/pledge-dialog|lightbox/);
    } finally {
      await close();
    }
  });
});
