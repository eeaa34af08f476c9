import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures';
import { adminCookie, createUpdate, screenshot } from './support/admin-api';
import {
  dialog,
  header,
  uploadRefusedThroughUppy,
  uploadThroughUppy,
  waitForToast,
} from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import { type RunningServer } from './support/server';

/** Delivery updates on /admin: posting with a real image through Uppy, editing, deleting. */
let server: RunningServer;
let page: Page;
const requests: Request[] = [];
/** Console errors, e.g. a Content-Security-Policy refusal of Uppy's styles or thumbnails. */
const consoleErrors: string[] = [];

const RECIPIENT = 'Black River Community Kitchen';
/** The card's image before the edit (read while no dialog hides the page). */
let firstImageSrc: string | null = null;

useSite({}, async (site) => {
  ({ server, page } = site);
  page.on('request', (r) => requests.push(r));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
});

const uppyRequested = () => requests.some((r) => /upload-dashboard/.test(r.url()));
const updatesSection = () => page.getByRole('region', { name: 'Delivery Updates' });

describe('delivery updates', () => {
  it('keeps Uppy out of the page until an admin opens the upload modal', async () => {
    await page.goto(server.baseUrl);
    await page
      .getByRole('heading', { name: /Delivery Updates/ })
      .first()
      .waitFor();
    await loginThroughUi(page, server.baseUrl);
    await updatesSection().getByText('0 Updates').waitFor();
    await updatesSection().getByText('No Updates Yet').waitFor();
    expect(uppyRequested()).toBe(false);
  });

  it('keeps Publish disabled until an image is uploaded', async () => {
    await header(page).getByRole('button', { name: 'Add update' }).click();
    const form = dialog(page, 'Post Delivery Update');
    await form.waitFor();
    expect(await form.getByRole('button', { name: 'Publish Update' }).isDisabled()).toBe(true);
    await form.getByLabel('Recipient').fill(RECIPIENT);
    expect(await form.getByRole('button', { name: 'Publish Update' }).isDisabled()).toBe(true);
    await screenshot(page, 'admin-post-update-dialog');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("shows the server's reason when it refuses a file (an SVG is not accepted)", async () => {
    const form = dialog(page, 'Post Delivery Update');
    await uploadRefusedThroughUppy(page, form, fixturePath('not-an-image.svg'));
    expect(await form.getByRole('button', { name: 'Publish Update' }).isDisabled()).toBe(true);
    consoleErrors.length = 0; // the refused PUT logs its 415
  });

  it('uploads a real photo through the Uppy modal', async () => {
    const form = dialog(page, 'Post Delivery Update');
    const puts: string[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === 'PUT') puts.push(r.url());
    };
    page.on('request', onRequest);
    await uploadThroughUppy(page, form, fixturePath('delivery.png'), 'admin-upload-image-modal');
    page.off('request', onRequest);
    expect(uppyRequested()).toBe(true);
    await waitForToast(page, 'Image uploaded', 'Now add a caption and publish your update');
    // One plain PUT of the bytes to the signed URL.
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/\/api\/objects\/uploads\/[^?]+\?expires=\d+&signature=/);
    const preview = form.getByRole('img', { name: 'Delivery photo preview' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toBe(puts[0]!.split('?')[0]);
    expect(await form.getByRole('button', { name: 'Publish Update' }).isEnabled()).toBe(true);
    // Uppy's inline styles and blob: thumbnails pass the site's Content-Security-Policy.
    expect(consoleErrors).toEqual([]);
  });

  it('checks the fields and publishes the update', async () => {
    const form = dialog(page, 'Post Delivery Update');
    await form.getByLabel('Recipient').fill('');
    await form.getByRole('button', { name: 'Publish Update' }).click();
    await form.getByText('Recipient is required').waitFor();
    await form.getByText('Container count must be at least 1').waitFor();

    await form.getByLabel('Recipient').fill(RECIPIENT);
    await form.getByLabel('Container Count').fill('1200');
    await form.getByLabel('Delivery Date').fill('2025-01-05');
    await form.getByRole('button', { name: 'Publish Update' }).click();
    await waitForToast(page, 'Update posted', 'Your delivery update has been published.');
    await form.waitFor({ state: 'detached' });

    await updatesSection().getByText('1 Update', { exact: true }).waitFor();
    const card = updatesSection().getByRole('listitem').filter({ hasText: RECIPIENT });
    expect(await card.innerText()).toContain('1,200 units');
    expect(await card.innerText()).toContain('Jan 5, 2025');
    const img = card.getByRole('img', { name: `Delivery to ${RECIPIENT}` });
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    firstImageSrc = await img.getAttribute('src');
  });

  it('says "No changes detected" when an edit changes nothing, without calling the server', async () => {
    await updatesSection()
      .getByRole('button', { name: `Edit update for ${RECIPIENT}` })
      .click();
    const form = dialog(page, 'Edit Delivery Update');
    expect(await form.getByLabel('Recipient').inputValue()).toBe(RECIPIENT);
    expect(await form.getByLabel('Container Count').inputValue()).toBe('1200');
    expect(await form.getByLabel('Delivery Date').inputValue()).toBe('2025-01-05');
    const before = requests.length;
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await form.getByText('No changes detected. Please modify at least one field.').waitFor();
    expect(requests.slice(before).filter((r) => r.method() === 'PATCH')).toHaveLength(0);
    await screenshot(page, 'admin-edit-update-dialog');
  });

  it('edits the update with a new image and sends only the changed fields', async () => {
    const form = dialog(page, 'Edit Delivery Update');
    const card = updatesSection().getByRole('listitem').filter({ hasText: RECIPIENT });
    await uploadThroughUppy(page, form, fixturePath('delivery.jpg'));
    await waitForToast(page, 'Image uploaded', 'New image will be used when you save.');
    await form.getByLabel('Container Count').fill('1500');
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    const body = (await patch).postDataJSON() as { updates: Record<string, unknown> };
    expect(Object.keys(body.updates).sort()).toEqual(['containerCount', 'imageUrl']);
    expect(body.updates.containerCount).toBe(1500);
    await waitForToast(page, 'Update modified');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => card.innerText()).toContain('1,500 units');
    const newSrc = await card.getByRole('img').getAttribute('src');
    expect(newSrc).toBe(body.updates.imageUrl);
    expect(newSrc).not.toBe(firstImageSrc);
  });

  it('deletes an update after confirmation', async () => {
    await createUpdate(server.baseUrl, await adminCookie(server.baseUrl), {
      recipient: 'Savanna-la-Mar Shelter',
      containerCount: 300,
      deliveryDate: '2025-01-03',
    });
    await page.reload();
    await updatesSection().getByText('2 Updates', { exact: true }).waitFor();
    await updatesSection()
      .getByRole('button', { name: 'Delete update for Savanna-la-Mar Shelter' })
      .click();
    const confirm = dialog(page, 'Delete Update');
    expect(await confirm.innerText()).toContain('Savanna-la-Mar Shelter');
    await screenshot(page, 'admin-delete-update-dialog');
    await confirm.getByRole('button', { name: 'Delete Update' }).click();
    await waitForToast(page, 'Update deleted');
    await updatesSection().getByText('1 Update', { exact: true }).waitFor();
    expect(await updatesSection().getByText('Savanna-la-Mar Shelter').count()).toBe(0);
  });

  it('opens the same edit dialog from an update card on the home', async () => {
    await header(page)
      .getByRole('link', { name: /Meals for Recovery/ })
      .click();
    // The page was reloaded since the login, so admin controls start off (they switch on only at
    // login).
    const toggle = header(page).getByRole('button', { name: 'Admin controls' });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await page.getByRole('button', { name: `Edit update for ${RECIPIENT}` }).click();
    const form = dialog(page, 'Edit Delivery Update');
    await form.waitFor();
    await form.getByLabel('Recipient').fill(`${RECIPIENT} (Westmoreland)`);
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await waitForToast(page, 'Update modified');
    await page.getByText(`${RECIPIENT} (Westmoreland)`).waitFor();
    expect(await page.getByText('Savanna-la-Mar Shelter').count()).toBe(0);
  });
});
