import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { screenshot } from './admin-api';

/**
 * The visible toasts. Found by Radix's markup, not by role: while a modal dialog is open the
 * toast region sits under aria-hidden (Radix announces each toast in a separate live region).
 */
function toasts(page: Page) {
  return page.locator('li[data-swipe-direction][data-state="open"]');
}

/** Waits for a toast with this title (and description, when given). */
export async function waitForToast(page: Page, title: string, description?: string) {
  const toast = toasts(page)
    .filter({ hasText: title })
    .filter({ hasText: description ?? title });
  await toast.first().waitFor();
  return toast.first();
}

export function header(page: Page) {
  return page.getByRole('banner');
}

export function dialog(page: Page, name: string) {
  return page.getByRole('dialog', { name });
}

/**
 * The statement review's rows, tick boxes and confirm button (Import bank statement tab); `page`
 * is read at each call, so a file can make these before its browser starts.
 */
export function statementReview(page: () => Page) {
  return {
    // Rows of the review table only: the file's sample table above it shows raw lines too
    // (a refund among them) for a moment after an import.
    row: (text: string) =>
      page()
        .getByRole('table', { name: 'Statement lines and proposed pledges' })
        .getByRole('row')
        .filter({ hasText: text }),
    tick: (name: string) => page().getByRole('checkbox', { name }),
    confirmButton: () => page().getByRole('button', { name: /^Confirm selected \(\d+\)$/ }),
  };
}

/** Opens the upload modal from a form dialog, picks a file and uploads it. */
export async function uploadThroughUppy(
  page: Page,
  form: ReturnType<typeof dialog>,
  file: string,
  shot?: string,
) {
  await form.getByTestId('button-upload-image').click();
  const modal = dialog(page, 'Upload Image');
  await modal.waitFor();
  await modal.locator('.uppy-Dashboard-inner').waitFor();
  await modal.locator('input.uppy-Dashboard-input').first().setInputFiles(file);
  const upload = modal.getByRole('button', { name: 'Upload 1 file' });
  await upload.waitFor();
  if (shot) await screenshot(page, shot);
  await upload.click();
  // The modal closes by itself once the upload completes.
  await modal.waitFor({ state: 'detached' });
}

/**
 * Uploads a file the server refuses (an SVG) through the modal: the "Upload failed" toast gives
 * the server's reason, and the modal stays open until its own close button closes it (and only it).
 */
export async function uploadRefusedThroughUppy(
  page: Page,
  form: ReturnType<typeof dialog>,
  file: string,
) {
  await form.getByTestId('button-upload-image').click();
  const modal = dialog(page, 'Upload Image');
  await modal.locator('input.uppy-Dashboard-input').first().setInputFiles(file);
  await modal.getByRole('button', { name: 'Upload 1 file' }).click();
  await waitForToast(page, 'Upload failed', 'Only PNG, JPEG, WebP or GIF images can be uploaded.');
  await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
  await modal.waitFor({ state: 'detached' });
  await form.waitFor();
}

/**
 * Logout from the admin header, waiting for the server's answer so that the next page load does
 * not race it, then for the home page.
 */
export async function logOutFromHeader(page: Page, site: string) {
  const done = page.waitForResponse((r) => r.url().endsWith('/api/admin/logout'));
  await header(page).getByRole('button', { name: 'Logout' }).click();
  await done;
  await page.waitForURL(`${site}/`);
}

/** Opens the signed-in account's "Two-factor sign-in" settings from the admin header. */
export async function openSecuritySettings(page: Page) {
  await header(page).getByRole('button', { name: 'Two-factor sign-in' }).click();
  const settings = dialog(page, 'Two-factor sign-in');
  await settings.waitFor();
  return settings;
}

/**
 * Chromium's virtual authenticator (DevTools protocol) on `page`, which answers its WebAuthn calls
 * as a platform authenticator with user verification: what a passkey test signs with.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}
