import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures';
import { startS3Server, type S3TestServer } from '../support/s3-server';
import { screenshot } from './support/admin-api';
import {
  dialog,
  header,
  uploadRefusedThroughUppy,
  uploadThroughUppy,
  waitForToast,
} from './support/admin-ui';
import { loginThroughUi, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * With object storage on, the admin's photo goes from Chromium straight to the bucket (a real
 * s3rver with CORS rules), the server checks and stores it there, and the home shows it from the
 * site's own URL. The page's Content-Security-Policy must let the PUT through.
 */
let s3: S3TestServer;
let server: RunningServer;
let page: Page;
const consoleErrors: string[] = [];
const RECIPIENT = 'Port Antonio Community Kitchen';

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
useSite({ env: () => s3.env() }, (site) => {
  ({ server, page } = site);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
});

describe('photo upload with object storage', () => {
  it("shows the server's reason when it refuses what reached the bucket (an SVG)", async () => {
    await loginThroughUi(page, server.baseUrl);
    await page.goto(server.baseUrl);
    await header(page).getByRole('button', { name: 'Add update' }).click();
    const form = dialog(page, 'Post Delivery Update');
    await uploadRefusedThroughUppy(page, form, fixturePath('not-an-image.svg'));
    expect(await s3.keys()).toEqual([]);
    expect(await form.getByRole('button', { name: 'Publish Update' }).isDisabled()).toBe(true);
    consoleErrors.length = 0; // the refused completion logs its 415
  });

  it('uploads the photo to the bucket from the browser and publishes the update', async () => {
    const form = dialog(page, 'Post Delivery Update');
    await form.waitFor();

    const puts: Request[] = [];
    const completions: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r);
      if (r.method() === 'POST' && /\/complete\?/.test(r.url())) completions.push(r);
    });
    await uploadThroughUppy(page, form, fixturePath('delivery.png'));
    await waitForToast(page, 'Image uploaded', 'Now add a caption and publish your update');

    // One PUT straight to the bucket, then the server's completion.
    expect(puts.map((r) => new URL(r.url()).origin)).toEqual([s3.endpoint]);
    expect(new URL(puts[0]!.url()).pathname).toMatch(new RegExp(`^/${s3.bucket}/incoming/`));
    expect(completions).toHaveLength(1);
    const id = new URL(puts[0]!.url()).pathname.split('/').pop()!;
    const preview = form.getByRole('img', { name: 'Delivery photo preview' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toBe(`${server.baseUrl}/api/objects/uploads/${id}`);
    expect(await s3.keys(`images/${id}/`)).toHaveLength(4);
    expect(await s3.keys('incoming/')).toEqual([]);

    await form.getByLabel('Recipient').fill(RECIPIENT);
    await form.getByLabel('Container Count').fill('800');
    await form.getByLabel('Delivery Date').fill('2025-02-10');
    await form.getByRole('button', { name: 'Publish Update' }).click();
    await waitForToast(page, 'Update posted', 'Your delivery update has been published.');
    await form.waitFor({ state: 'detached' });
    // The CSP let the PUT to the bucket through (a refusal is a console error).
    expect(consoleErrors).toEqual([]);
  });

  it('shows the photo on the home, served from the bucket through the site', async () => {
    await page.goto(server.baseUrl);
    const img = page.getByRole('img', { name: `Delivery to ${RECIPIENT}` });
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toMatch(
      new RegExp(`^${server.baseUrl}/api/objects/uploads/[0-9a-f-]{36}`),
    );
    await screenshot(page, 'home-update-from-object-storage');
    expect(consoleErrors).toEqual([]);
  });
});
