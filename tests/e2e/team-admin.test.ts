import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEAM_MESSAGES } from '@shared/schemas/team';
import { invitationToken } from '../support/team';
import { adminCookie, screenshot, seedPledges } from './support/admin-api';
import { dialog, waitForToast } from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * In the browser: the owner invites a member in the Team tab (the link taken from the
 * outbox's .eml), the member chooses a password on /admin/join and signs in with their e-mail; a
 * viewer sees donors' e-mails masked, no Export and no payment buttons; axe stays clean.
 */
let server: RunningServer;
let page: Page;
let context: BrowserContext;

useSite({}, (site) => {
  ({ server, page, context } = site);
});

const EMAIL = 'vera.viewer@team.example.test';
const PASSWORD = 'breadfruit-kite-harbour';
const NEW_PASSWORD = 'ackee-lantern-ridge-road';
const DONOR_EMAIL = 'marcia.donor@example.org';
let token = '';

describe('the owner’s Team tab and the join page', () => {
  it('the owner invites a member in the Team tab', async () => {
    await seedPledges(server.baseUrl, [{ name: 'Marcia Donor', email: DONOR_EMAIL, amount: 50 }]);
    await loginThroughUi(page, server.baseUrl);
    await expect
      .poll(() => page.getByTestId('signed-in-as').textContent())
      .toContain('Owner (Owner)');
    await page.getByRole('tab', { name: 'Team' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('heading', { name: 'Team', exact: true }).waitFor();

    const sent = Date.now() - 1000;
    await panel.getByLabel('Name').fill('Vera Viewer');
    await panel.getByLabel('E-mail').fill(EMAIL);
    await panel.getByLabel('Role', { exact: true }).selectOption('viewer');
    await panel.getByRole('button', { name: 'Send invitation' }).click();
    const toast = await waitForToast(page, 'Invitation sent');
    const row = panel.getByRole('row').filter({ hasText: EMAIL });
    await row.getByText('Invited').waitFor();
    await expect.poll(() => row.getByLabel('Role of Vera Viewer').inputValue()).toBe('viewer');
    await panel.getByRole('heading', { name: 'Active sessions' }).waitFor();
    await panel.getByText('(this device)').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await toast.getByRole('button', { name: 'Dismiss notification' }).click();
    await toast.waitFor({ state: 'detached' });
    await screenshot(page, 'team-tab', { fullPage: true });

    token = await invitationToken(server, EMAIL, sent);
  });

  it('the member chooses a password on the join page (a common one is refused)', async () => {
    await context.clearCookies();
    await page.goto(`${server.baseUrl}/admin/join?t=${token}`);
    await page.getByRole('heading', { name: 'Welcome to the team' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(EMAIL);
    expect(await page.title()).toBe('Set your password');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'team-join');

    await page.getByLabel('New password').fill('Password123456');
    await page.getByLabel('Repeat the password').fill('Password123456');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(TEAM_MESSAGES.passwordCommon).waitFor();

    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The link is used up: opened again, it says so.
    await page.goto(`${server.baseUrl}/admin/join?t=${token}`);
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await page.getByText(TEAM_MESSAGES.linkInvalid).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('the viewer signs in and sees masked e-mails, no Export and no payment buttons', async () => {
    await page.goto(`${server.baseUrl}/admin`);
    const login = dialog(page, 'Admin Access');
    await login.waitFor();
    await login.getByLabel('E-mail (team members)').fill(EMAIL);
    await login.getByLabel('Password').fill(PASSWORD);
    await login.getByRole('button', { name: /Login/ }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await expect
      .poll(() => page.getByTestId('signed-in-as').textContent())
      .toContain('Vera Viewer (Viewer)');
    // The header says who is signed in too.
    await page.getByRole('banner').getByText('Vera Viewer', { exact: true }).waitFor();

    const donorRow = page.getByRole('row').filter({ hasText: 'Marcia Donor' });
    await donorRow.waitFor();
    expect(await donorRow.textContent()).toContain('m•••@example.org');
    expect(await page.content()).not.toContain(DONOR_EMAIL);
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark Paid' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete pledge/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Post Update' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Team' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Activity' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'team-viewer-dashboard', { fullPage: true });

    // The Activity tab names who did what, and filters by person.
    await page.getByRole('tab', { name: 'Activity' }).click();
    const person = page.getByLabel('Filter by person');
    await expect
      .poll(async () => (await person.locator('option').allTextContents()).join('|'))
      .toContain('Vera Viewer (Viewer)');
    await person.selectOption({ label: 'Vera Viewer (Viewer)' });
    const table = page.getByRole('table', { name: 'Admin activity, newest first' });
    await table.getByRole('cell', { name: 'Set a password' }).waitFor();
    await expect
      .poll(async () => (await table.getByRole('row').allTextContents()).slice(1).join('\n'))
      .not.toContain('Invited a team member');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The member changes their own password: current first, the new one twice.
    await page.getByRole('button', { name: 'Change password' }).click();
    const change = dialog(page, 'Change your password');
    await change.getByLabel('Current password').fill(PASSWORD);
    await change.getByLabel('New password', { exact: true }).fill('iloveyou123456');
    await change.getByLabel('Repeat the new password').fill('iloveyou123456');
    await change.getByRole('button', { name: 'Change password' }).click();
    await change.getByText(TEAM_MESSAGES.passwordCommon).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await change.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await change.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await change.getByRole('button', { name: 'Change password' }).click();
    await waitForToast(page, 'Password changed');
    await change.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('signed-in-as').textContent())
      .toContain('Vera Viewer (Viewer)');
  });

  it('an editor sees delivery updates and progress, and never asks for the pledge list', async () => {
    const editor = 'eddie.editor@team.example.test';
    const sent = Date.now() - 1000;
    const invited = await fetch(`${server.baseUrl}/api/admin/team`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: await adminCookie(server.baseUrl) },
      body: JSON.stringify({ name: 'Eddie Editor', email: editor, role: 'editor' }),
    });
    expect(invited.status).toBe(201);
    const link = await invitationToken(server, editor, sent);
    const set = await fetch(`${server.baseUrl}/api/team/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: link, password: PASSWORD }),
    });
    expect(set.status).toBe(200);

    await context.clearCookies();
    const refused: string[] = [];
    const onResponse = (res: { status(): number; url(): string }) => {
      if (res.status() === 403) refused.push(res.url());
    };
    page.on('response', onResponse);
    try {
      await page.goto(`${server.baseUrl}/admin`);
      const login = dialog(page, 'Admin Access');
      await login.getByLabel('E-mail (team members)').fill(editor);
      await login.getByLabel('Password').fill(PASSWORD);
      await login.getByRole('button', { name: /Login/ }).click();
      await expect
        .poll(() => page.getByTestId('signed-in-as').textContent())
        .toContain('Eddie Editor (Editor)');
      await page.getByRole('button', { name: 'Post Update' }).waitFor();
      await page.getByRole('button', { name: 'Adjust Progress' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Pledge Management' }).count()).toBe(0);
      expect(await page.getByRole('tab', { name: 'Activity' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      // Nothing the page asked for was refused: it asks only for what the role may read.
      expect(refused).toEqual([]);
    } finally {
      page.off('response', onResponse);
    }
  });
});
