import type { Page } from 'playwright-core';

/**
 * The visible toasts. Found by Radix's markup, not by role: while a modal dialog is open the
 * toast region sits under aria-hidden (Radix announces each toast in a separate live region).
 */
export function toasts(page: Page) {
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
