import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { samplePng } from '../../fixtures';
import { E2E_ADMIN_PASSWORD } from './server';

/** Data set-up for the admin end-to-end tests, through the real HTTP API. */

export interface PledgeSeed {
  name: string;
  email: string;
  amount: number;
  currency?: 'USD' | 'JMD';
  isAnonymous?: boolean;
}

export async function createPledge(baseUrl: string, pledge: PledgeSeed) {
  const res = await fetch(`${baseUrl}/api/pledges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ currency: 'USD', isAnonymous: false, ...pledge }),
  });
  if (res.status !== 201) throw new Error(`pledge: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** A session cookie ("name=value") for API set-up calls. */
export async function adminCookie(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: E2E_ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login: ${res.status}`);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

/** Uploads the sample PNG and posts a delivery update, as an admin would. */
export async function createUpdate(
  baseUrl: string,
  cookie: string,
  update: { recipient: string; containerCount: number; deliveryDate: string },
) {
  const signed = await fetch(`${baseUrl}/api/objects/upload`, {
    method: 'POST',
    headers: { cookie },
  });
  const { uploadURL } = (await signed.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, {
    method: 'PUT',
    body: new Uint8Array(samplePng()),
    headers: { 'content-type': 'image/png' },
  });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
  const res = await fetch(`${baseUrl}/api/updates`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ imageUrl: uploadURL.split('?')[0], ...update }),
  });
  if (res.status !== 201) throw new Error(`update: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; imageUrl: string };
}

const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../docs/screenshots');

/**
 * Saves docs/screenshots/<name>.png when SCREENSHOTS=1 (so an ordinary test run leaves the
 * committed images alone). Animations are settled first.
 */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  if (!process.env.SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForTimeout(350);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: opts.fullPage ?? false,
  });
}
