import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../setup/services';
import { afterAll, beforeAll } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../../support/admin-password';
import { startServer, type RunningServer } from './server';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

/**
 * One Chromium per test worker (the e2e project shares modules between its files): starting it
 * costs about a second of CPU, a new context a few milliseconds. Started again if it went away.
 */
let chromiumProcess: Promise<Browser> | undefined;
function sharedChromium(): Promise<Browser> {
  chromiumProcess ??= chromium
    .launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
    .then((browser) => {
      browser.on('disconnected', () => (chromiumProcess = undefined));
      return browser;
    });
  return chromiumProcess;
}

/** A fresh browser context: its own empty localStorage, cookies and cache, like a new profile. */
export async function openBrowser(
  opts: {
    viewport?: { width: number; height: number };
    reducedMotion?: boolean;
    javaScriptEnabled?: boolean;
    /** A phone: touch screen, coarse pointer, mobile viewport rules. */
    phone?: boolean;
  } = {},
) {
  const context: BrowserContext = await (
    await sharedChromium()
  ).newContext({
    viewport: opts.viewport ?? DESKTOP,
    acceptDownloads: true,
    reducedMotion: opts.reducedMotion ? 'reduce' : 'no-preference',
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    ...(opts.phone ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

/** Marks the campaign lightbox as seen, so tests that are not about it are not covered by it. */
export async function skipLightbox(context: BrowserContext) {
  await context.addInitScript(() => localStorage.setItem('hasSeenCampaignContext', 'true'));
}

/**
 * Serious or critical axe violations on the current page (ids and targets, for messages).
 *
 * Legacy mode runs axe in the page itself. The default mode runs it in every frame, then opens a
 * second, blank page in the same browser profile to merge the frames' results there: about
 * 0.65 of the ~1.6 CPU-seconds each check cost (medians on this machine, the same violations and
 * passes either way). Our pages have no iframes, which is all the default mode adds.
 */
export async function seriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Logs in through the real UI: the header's "Admin login" icon and the Admin Access dialog. */
export async function loginThroughUi(page: Page, baseUrl: string, password = TEST_ADMIN_PASSWORD) {
  await page.goto(`${baseUrl}/admin`);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/password/i).fill(password);
  await dialog.getByRole('button', { name: /login/i }).click();
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
}

export interface Site {
  server: RunningServer;
  page: Page;
  context: BrowserContext;
}

/**
 * One production server and one Chromium profile for the whole test file: started before its
 * first test, closed after its last. `ready` runs once both are up (the file's own set-up; most
 * files copy `site.server` and `site.page` into their variables there).
 */
export function useSite(
  opts: Parameters<typeof openBrowser>[0] & {
    lightbox?: boolean;
    /** The server's extra environment, read when it starts (after the file's earlier hooks). */
    env?: () => Record<string, string>;
  },
  ready: (site: Site) => void | Promise<void>,
) {
  let server: RunningServer | undefined;
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  beforeAll(async () => {
    server = await startServer(opts.env?.());
    browser = await openBrowser(opts);
    // The first-visit lightbox covers the page: only the tests about it want it.
    if (!opts.lightbox) await skipLightbox(browser.context);
    await ready({ server, page: browser.page, context: browser.context });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
