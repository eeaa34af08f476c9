import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import * as api from '../../support/api';
import { TEST_ADMIN_PASSWORD } from '../../support/admin-password';

/** Data set-up for the admin end-to-end tests, through the real HTTP API. */

export interface PledgeSeed {
  name: string;
  email: string;
  amount: number;
  currency?: 'USD' | 'JMD';
  isAnonymous?: boolean;
}

/** POST /api/pledges with exactly these donor details. */
export const createPledge = (baseUrl: string, pledge: PledgeSeed) =>
  api.createPledge(baseUrl, { ...pledge });

/**
 * Creates these pledges in order; their payment references and ids by donor name (what the
 * statement tests write into the bank files they import).
 */
export async function seedPledges(baseUrl: string, seeds: PledgeSeed[]) {
  const refs: Record<string, string> = {};
  const ids: Record<string, string> = {};
  for (const p of seeds) {
    const created = await createPledge(baseUrl, p);
    refs[p.name] = created.reference;
    ids[p.name] = created.id;
  }
  return { refs, ids };
}

/** A session cookie ("name=value") for API set-up calls. */
export const adminCookie = (baseUrl: string) => api.login(baseUrl, TEST_ADMIN_PASSWORD);

/** Uploads the sample PNG and posts a delivery update, as an admin would. */
export const createUpdate = api.createUpdate;

const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../docs/screenshots');

/**
 * Saves docs/screenshots/<name>.png when SCREENSHOTS=1 (so an ordinary test run leaves the
 * committed images alone). Animations are settled first.
 */
export async function screenshot(
  page: Page,
  name: string,
  opts: {
    fullPage?: boolean;
    /** Longer animations: the progress fill grows for 1 s. */ settleMs?: number;
  } = {},
) {
  if (!process.env.SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForTimeout(opts.settleMs ?? 350);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: opts.fullPage ?? false,
  });
}
