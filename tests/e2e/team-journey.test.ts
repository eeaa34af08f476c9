import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '@shared/schemas/two-factor-messages';
import { TEST_ADMIN_PASSWORD } from '../support/admin-password';
import { invitationToken } from '../support/team';
import { screenshot, seedPledges } from './support/admin-api';
import {
  addVirtualAuthenticator,
  dialog,
  logOutFromHeader,
  openSecuritySettings,
  waitForToast,
} from './support/admin-ui';
import { seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * A team's first day, as the people do it, in one browser: the owner invites members in the Team
 * tab (each link taken from the outbox's .eml), a treasurer sets a password and an authenticator
 * app and signs in with a code; an editor registers a passkey (Chromium's virtual authenticator)
 * and signs in with it; the owner requires a second factor for everyone and a viewer is led to set
 * one up, then sees donors' e-mails masked and no Export; the treasurer loses the phone and the
 * owner clears their second factors. Axe is checked at every step.
 */
let server: RunningServer;
let page: Page;
let context: BrowserContext;
let cdp: CDPSession;
let authenticatorId: string;
/** WebAuthn needs a domain for its relying party: localhost, not 127.0.0.1. */
let site: string;

useSite({}, async (s) => {
  ({ server, page, context } = s);
  site = server.baseUrl.replace('127.0.0.1', 'localhost');
  ({ cdp, authenticatorId } = await addVirtualAuthenticator(context, page));
});

const DONOR_EMAIL = 'marcia.donor@example.org';
const TREASURER = { name: 'Tomas Treasurer', email: 'tomas@team.example.test' };
const EDITOR = { name: 'Petra Editor', email: 'petra@team.example.test' };
const VIEWER = { name: 'Vera Viewer', email: 'vera@team.example.test' };
const PASSWORDS: Record<string, string> = {
  [TREASURER.email]: 'breadfruit-kite-harbour',
  [EDITOR.email]: 'ackee-lantern-ridge-road',
  [VIEWER.email]: 'blue-mountain-coffee-dawn',
};
let treasurerSecret = '';
let ownerSecret = '';

/** What an authenticator app shows at `at` (ms); the server accepts one step either side. */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });

async function axeClean() {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/** The Admin Access dialog's first step: the owner without an e-mail, a member with one. */
async function passwordStep(email?: string) {
  await context.clearCookies();
  await page.goto(`${site}/admin`);
  const login = dialog(page, 'Admin Access');
  await login.waitFor();
  if (email) await login.getByLabel('E-mail (team members)').fill(email);
  await login.getByLabel('Password').fill(email ? PASSWORDS[email]! : TEST_ADMIN_PASSWORD);
  await login.getByRole('button', { name: /Login/ }).click();
  return login;
}

async function signedInAs(text: string) {
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
  await expect.poll(() => page.getByTestId('signed-in-as').textContent()).toContain(text);
}

const logOut = () => logOutFromHeader(page, site);

const openSecurity = () => openSecuritySettings(page);

async function teamTab() {
  await page.getByRole('tab', { name: 'Team' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('heading', { name: 'Team', exact: true }).waitFor();
  return panel;
}

/** The owner invites in the Team tab; the link is the newest one e-mailed to that address. */
async function invite(member: { name: string; email: string }, role: string) {
  const panel = await teamTab();
  const sent = Date.now() - 1000;
  await panel.getByLabel('Name', { exact: true }).fill(member.name);
  await panel.getByLabel('E-mail', { exact: true }).fill(member.email);
  await panel.getByLabel('Role', { exact: true }).selectOption(role);
  await panel.getByRole('button', { name: 'Send invitation', exact: true }).click();
  const toast = await waitForToast(page, 'Invitation sent');
  await panel.getByRole('row').filter({ hasText: member.email }).getByText('Invited').waitFor();
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();
  return invitationToken(server, member.email, sent);
}

/** The member opens the e-mailed link in a browser with nobody signed in. */
async function join(token: string, email: string) {
  await context.clearCookies();
  await page.goto(`${site}/admin/join?t=${token}`);
  await page.getByRole('heading', { name: 'Welcome to the team' }).waitFor();
  expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
  await page.getByLabel('New password').fill(PASSWORDS[email]!);
  await page.getByLabel('Repeat the password').fill(PASSWORDS[email]!);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
}

describe('a team’s first day', () => {
  const tokens: Record<string, string> = {};

  it('the owner invites three volunteers from the Team tab', async () => {
    await seedPledges(server.baseUrl, [{ name: 'Marcia Donor', email: DONOR_EMAIL, amount: 50 }]);
    await passwordStep();
    await signedInAs('Owner (Owner)');
    tokens[TREASURER.email] = await invite(TREASURER, 'treasurer');
    tokens[EDITOR.email] = await invite(EDITOR, 'editor');
    tokens[VIEWER.email] = await invite(VIEWER, 'viewer');
    await axeClean();
    await screenshot(page, 'journey-01-team-invited', { fullPage: true });
  });

  it('the treasurer sets a password, then an authenticator app, and signs in with a code', async () => {
    await join(tokens[TREASURER.email]!, TREASURER.email);
    await axeClean();
    await screenshot(page, 'journey-02-password-set');

    await passwordStep(TREASURER.email);
    await signedInAs('Tomas Treasurer (Treasurer)');
    const settings = await openSecurity();
    await settings.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await settings
      .getByRole('img', { name: 'QR code to scan with your authenticator app' })
      .waitFor();
    treasurerSecret = (await settings.locator('code').textContent())!.trim();
    await axeClean();
    await screenshot(page, 'journey-03-totp-qr');
    await settings
      .getByLabel(TWO_FACTOR_MESSAGES.codePrompt)
      .fill(codeAt(treasurerSecret, Date.now()));
    await settings.getByRole('button', { name: 'Turn on' }).click();
    const codes = settings
      .getByRole('region', { name: 'Your recovery codes' })
      .getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await settings.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await settings.getByText('Set up: sign-in asks for its 6-digit code.').waitFor();

    // Removing it asks who is at the keyboard: a wrong password is refused, nothing changes.
    await settings.getByRole('button', { name: 'Remove authenticator app' }).click();
    await settings.getByRole('heading', { name: 'Confirm it’s you' }).waitFor();
    await settings.getByLabel(TWO_FACTOR_MESSAGES.reauthPrompt).fill('somebody-elses-password');
    await settings.getByRole('button', { name: 'Confirm' }).click();
    await settings.getByText(TWO_FACTOR_MESSAGES.reauthWrong).waitFor();
    await axeClean();
    await screenshot(page, 'journey-04-confirm-its-you');
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.getByText('Set up: sign-in asks for its 6-digit code.').waitFor();
    await page.keyboard.press('Escape');
    await logOut();

    const login = await passwordStep(TREASURER.email);
    const code = login.getByLabel(TWO_FACTOR_MESSAGES.codePrompt);
    await code.waitFor();
    await axeClean();
    await screenshot(page, 'journey-05-code-step');
    // The set-up used this 30-second step's code; the next step's is accepted one step early.
    await code.fill(codeAt(treasurerSecret, Date.now() + 30_000));
    await login.getByRole('button', { name: 'Verify' }).click();
    await signedInAs('Tomas Treasurer (Treasurer)');
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(1);
    await logOut();
  });

  it('the editor registers a passkey and signs in with it', async () => {
    await join(tokens[EDITOR.email]!, EDITOR.email);
    await passwordStep(EDITOR.email);
    await signedInAs('Petra Editor (Editor)');
    const settings = await openSecurity();
    await settings.getByLabel('Passkey name (optional)').fill('Office laptop');
    await settings.getByRole('button', { name: 'Add a passkey' }).click();
    await settings.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await settings.getByRole('button', { name: 'Remove passkey Office laptop' }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await axeClean();
    await screenshot(page, 'journey-06-passkey-added');
    await page.keyboard.press('Escape');
    await logOut();

    const login = await passwordStep(EDITOR.email);
    await login.getByRole('button', { name: TWO_FACTOR_MESSAGES.usePasskey }).click();
    await signedInAs('Petra Editor (Editor)');
    await page.getByRole('button', { name: 'Post Update' }).waitFor();
    await axeClean();
    await logOut();
  });

  it('the owner sets up an app, then requires a second factor for everyone', async () => {
    await passwordStep();
    await signedInAs('Owner (Owner)');
    const settings = await openSecurity();
    await settings.getByRole('button', { name: 'Set up an authenticator app' }).click();
    ownerSecret = (await settings.locator('code').textContent())!.trim();
    await settings.getByLabel(TWO_FACTOR_MESSAGES.codePrompt).fill(codeAt(ownerSecret, Date.now()));
    await settings.getByRole('button', { name: 'Turn on' }).click();
    await settings.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    const require = settings.getByLabel('Require a second factor for everyone');
    await require.click();
    await expect.poll(() => require.getAttribute('aria-checked')).toBe('true');
    await axeClean();
    await screenshot(page, 'journey-07-require-for-everyone');
    await page.keyboard.press('Escape');
    await logOut();
  });

  it('the viewer is led to set one up, then sees masked e-mails and no Export', async () => {
    await join(tokens[VIEWER.email]!, VIEWER.email);
    const login = await passwordStep(VIEWER.email);
    await login.getByText(TWO_FACTOR_MESSAGES.setupRequired).waitFor();
    await login.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = (await login.locator('code').textContent())!.trim();
    await axeClean();
    await screenshot(page, 'journey-08-required-setup');
    await login.getByLabel(TWO_FACTOR_MESSAGES.codePrompt).fill(codeAt(key, Date.now()));
    await login.getByRole('button', { name: 'Turn on' }).click();
    await login.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await signedInAs('Vera Viewer (Viewer)');

    const donorRow = page.getByRole('row').filter({ hasText: 'Marcia Donor' });
    await donorRow.waitFor();
    expect(await donorRow.textContent()).toContain('m•••@example.org');
    expect(await page.content()).not.toContain(DONOR_EMAIL);
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark Paid' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Team' }).count()).toBe(0);
    // Its search does not offer e-mails, which the server no longer matches for this role.
    await page.getByPlaceholder('Search by name...', { exact: true }).waitFor();
    await axeClean();
    await screenshot(page, 'journey-09-viewer-dashboard', { fullPage: true });
    await logOut();
  });

  it('the treasurer lost the phone: the owner clears their second factors', async () => {
    const login = await passwordStep();
    const code = login.getByLabel(TWO_FACTOR_MESSAGES.codePrompt);
    await code.fill(codeAt(ownerSecret, Date.now() + 30_000));
    await login.getByRole('button', { name: 'Verify' }).click();
    await signedInAs('Owner (Owner)');
    const panel = await teamTab();
    const row = panel.getByRole('row').filter({ hasText: TREASURER.email });
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('Set up');
    await row
      .getByRole('button', { name: `Clear the second factors of ${TREASURER.name}` })
      .click();
    const confirm = dialog(page, `Clear the second factors of ${TREASURER.name}?`);
    await confirm.waitFor();
    await axeClean();
    await screenshot(page, 'journey-10-clear-factors');
    await confirm.getByRole('button', { name: 'Clear second factors' }).click();
    await waitForToast(page, 'Second factors cleared');
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('None');
    expect(await row.getByRole('button', { name: /Clear the second factors/ }).count()).toBe(0);
    await axeClean();
    await screenshot(page, 'journey-11-team-after-clear', { fullPage: true });

    // The Activity tab names the owner as the one who did it.
    await page.getByRole('tab', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Admin activity, newest first' });
    await table.getByRole('cell', { name: 'Cleared a member’s second factors' }).waitFor();
    await logOut();

    // The treasurer's old code no longer helps; with the requirement on, they set up anew.
    const again = await passwordStep(TREASURER.email);
    await again.getByText(TWO_FACTOR_MESSAGES.setupRequired).waitFor();
    await again.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();
    await axeClean();
    await screenshot(page, 'journey-12-treasurer-sets-up-again');
  });
});
