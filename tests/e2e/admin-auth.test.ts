import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminCookie, screenshot } from './support/admin-api';
import { dialog, header, waitForToast } from './support/admin-ui';
import { seriousA11yViolations, useSite } from './support/browser';
import { TEST_ADMIN_PASSWORD } from '../support/admin-password';
import type { RunningServer } from './support/server';

/** Sign-in, the header's admin controls, an expired session and logout, in Chromium. */
let server: RunningServer;
let page: Page;

useSite({}, (site) => {
  ({ server, page } = site);
});

async function submitPassword(password: string) {
  const login = dialog(page, 'Admin Access');
  await login.getByLabel('Password').fill(password);
  await login.getByRole('button', { name: /Login/ }).click();
}

describe('admin sign-in', () => {
  it('shows "Admin Access Required" and opens the login dialog by itself', async () => {
    await page.goto(`${server.baseUrl}/admin`);
    const login = dialog(page, 'Admin Access');
    await login.waitFor();
    // The open modal hides the page from the accessibility tree: look behind it.
    const heading = page.getByRole('heading', {
      name: 'Admin Access Required',
      includeHidden: true,
    });
    expect(await heading.isVisible()).toBe(true);
    for (const [role, name] of [
      ['button', 'Login as Admin'],
      ['link', 'Back to Home'],
    ] as const) {
      expect(await page.getByRole(role, { name, includeHidden: true }).isVisible()).toBe(true);
    }
    expect(await login.getByLabel('Password').getAttribute('type')).toBe('password');
    await screenshot(page, 'admin-login-dialog');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('asks for a password when the field is empty', async () => {
    await dialog(page, 'Admin Access').getByRole('button', { name: /Login/ }).click();
    await page.getByText('Password is required').waitFor();
  });

  it('rejects a wrong password and clears the field', async () => {
    await submitPassword('not-the-password');
    await page.getByText('Invalid admin password').waitFor();
    expect(await dialog(page, 'Admin Access').getByLabel('Password').inputValue()).toBe('');
    expect(await page.getByRole('heading', { name: 'Admin Dashboard' }).count()).toBe(0);
  });

  it('reopens the dialog from "Login as Admin" after it was closed', async () => {
    await page.keyboard.press('Escape');
    await dialog(page, 'Admin Access').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Login as Admin' }).click();
    await dialog(page, 'Admin Access').waitFor();
  });

  it('signs in with the right password and shows the dashboard and header controls', async () => {
    await submitPassword(TEST_ADMIN_PASSWORD);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await dialog(page, 'Admin Access').count()).toBe(0);
    const main = page.getByRole('main');
    for (const name of ['Export CSV', 'Logout']) {
      expect(await main.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await main.getByRole('link', { name: 'Back to Home' }).isVisible()).toBe(true);
    for (const name of ['Total Pledges', 'Total Amount', 'Paid Pledges', 'Pending Pledges']) {
      await main.getByRole('heading', { name, exact: true }).waitFor();
    }
    const bar = header(page);
    const toggle = bar.getByRole('button', { name: 'Admin controls' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    for (const name of ['Add update', 'Admin settings', 'Logout']) {
      expect(await bar.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await bar.getByRole('button', { name: 'Admin login' }).count()).toBe(0);
  });

  it('toggles admin controls off and on', async () => {
    const toggle = header(page).getByRole('button', { name: 'Admin controls' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
  });

  it('shows "Session Expired" when the session ended on the server, then asks to log in', async () => {
    // The same cookie, logged out behind the page's back (as expiry or another tab would).
    const res = await page.request.post(`${server.baseUrl}/api/admin/logout`);
    expect(res.ok()).toBe(true);
    await header(page).getByRole('button', { name: 'Admin settings' }).click();
    const panel = dialog(page, 'Admin Panel');
    await panel.getByRole('button', { name: 'Update Progress' }).click();
    await waitForToast(page, 'Session Expired', 'Your session has expired. Please log in again.');
    await dialog(page, 'Admin Access').waitFor();
    await page.getByText('Admin Access Required').waitFor();
    await page.getByRole('button', { name: 'Admin login', includeHidden: true }).waitFor();
  });

  it('logs out from the dashboard: back on the home, logged out on the server too', async () => {
    await submitPassword(TEST_ADMIN_PASSWORD);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Logout', exact: true }).click();
    await header(page).getByRole('button', { name: 'Admin login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const check = await page.request.get(`${server.baseUrl}/api/admin/check`);
    expect(await check.json()).toEqual({ isAuthenticated: false });
  });

  it('logs in from the home icon and stays on the home with admin controls on', async () => {
    await header(page).getByRole('button', { name: 'Admin login' }).click();
    await submitPassword(TEST_ADMIN_PASSWORD);
    const toggle = header(page).getByRole('button', { name: 'Admin controls' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { name: 'Recent Pledges' }).waitFor();
  });

  it('logs out from the header', async () => {
    await header(page).getByRole('button', { name: 'Logout', exact: true }).click();
    await header(page).getByRole('button', { name: 'Admin login' }).waitFor();
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByText('Admin Access Required').waitFor();
    await dialog(page, 'Admin Access').waitFor();
  });

  it('signs out every session from the dashboard after asking', async () => {
    // Another device's session, made through the API.
    const other = await adminCookie(server.baseUrl);
    await page.goto(`${server.baseUrl}/admin`);
    await submitPassword(TEST_ADMIN_PASSWORD);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Sign out all sessions' }).click();
    const ask = dialog(page, 'Sign out all sessions?');
    await ask.getByText('Every device signed in to the admin area').waitFor();
    await screenshot(page, 'admin-sign-out-all-dialog');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Sign out all sessions' }).click();
    await header(page).getByRole('button', { name: 'Admin login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const mine = await page.request.get(`${server.baseUrl}/api/admin/check`);
    expect(await mine.json()).toEqual({ isAuthenticated: false });
    const theirs = await fetch(`${server.baseUrl}/api/admin/check`, { headers: { cookie: other } });
    expect(await theirs.json()).toEqual({ isAuthenticated: false });
  });
});
