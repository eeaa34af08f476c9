import { Secret, TOTP } from 'otpauth';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { invitationToken } from '../support/team';
import { adminCookie, screenshot } from './support/admin-api';
import {
  addVirtualAuthenticator,
  dialog,
  logOutFromHeader,
  openSecuritySettings,
} from './support/admin-ui';
import { seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * Two-factor sign-in (docs/decisions/023-two-factor.md): a member sets up an authenticator app
 * (the QR code's secret, codes computed here with the same library) and signs in with a code;
 * another adds a passkey and signs in with it, through Chromium's virtual authenticator.
 */
let server: RunningServer;
let page: Page;
let cdp: CDPSession;
/** WebAuthn needs a domain for its relying party: localhost, not 127.0.0.1. */
let site: string;
/** Chromium's virtual authenticator (DevTools protocol), which answers WebAuthn calls. */
let authenticatorId: string;

useSite({}, async (s) => {
  ({ server, page } = s);
  site = server.baseUrl.replace('127.0.0.1', 'localhost');
  ({ cdp, authenticatorId } = await addVirtualAuthenticator(s.context, page));
});

const PASSWORD = 'a-volunteer-passphrase';

/** A member invited by the owner who has set a password with the e-mailed link. */
async function invitedMember(name: string, email: string, role: string) {
  const cookie = await adminCookie(server.baseUrl);
  const sent = Date.now() - 1000;
  const invited = await fetch(`${server.baseUrl}/api/admin/team`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name, email, role }),
  });
  expect(invited.status).toBe(201);
  const token = await invitationToken(server, email, sent);
  const set = await fetch(`${server.baseUrl}/api/team/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: PASSWORD }),
  });
  expect(set.status).toBe(200);
}

async function passwordStep(email: string) {
  await page.goto(`${site}/admin`);
  const login = dialog(page, 'Admin Access');
  await login.waitFor();
  await login.getByLabel('E-mail (team members)').fill(email);
  await login.getByLabel('Password').fill(PASSWORD);
  await login.getByRole('button', { name: /Login/ }).click();
  return login;
}

const logOut = () => logOutFromHeader(page, site);

const openSecurity = () => openSecuritySettings(page);

/** What the app shows at `at` (ms): the server accepts one 30-second step either side. */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });

describe('an authenticator app', () => {
  const EMAIL = 'tomas.totp@team.example.test';

  it('is set up by scanning the QR code and confirming a first code', async () => {
    await invitedMember('Tomas Totp', EMAIL, 'treasurer');
    await passwordStep(EMAIL);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const settings = await openSecurity();
    await settings.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = settings.getByRole('img', { name: 'QR code to scan with your authenticator app' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'two-factor-qr-setup');
    const secret = (await settings.locator('code').textContent())!.trim();
    await settings
      .getByLabel('Enter the 6-digit code from your authenticator app')
      .fill(codeAt(secret, Date.now()));
    await settings.getByRole('button', { name: 'Turn on' }).click();
    const codes = settings
      .getByRole('region', { name: 'Your recovery codes' })
      .getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await settings.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await settings.getByText('Set up: sign-in asks for its 6-digit code.').waitFor();
    await page.keyboard.press('Escape');
    await logOut();

    // The next sign-in asks for a code after the password.
    const login = await passwordStep(EMAIL);
    const code = login.getByLabel('Enter the 6-digit code from your authenticator app');
    await code.waitFor();
    await login.getByRole('button', { name: 'Use a recovery code' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'two-factor-code-step');
    await code.fill('000000');
    await login.getByRole('button', { name: 'Verify' }).click();
    await login
      .getByText('That code is not valid. Enter the newest code from your authenticator app.')
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The set-up used this step's code: the next step's (accepted one step early) signs in.
    await code.fill(codeAt(secret, Date.now() + 30_000));
    await login.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await dialog(page, 'Admin Access').count()).toBe(0);
    await logOut();
  });
});

describe('a passkey', () => {
  const EMAIL = 'petra.passkey@team.example.test';

  it('is added in the security settings and signs in as the second step', async () => {
    await invitedMember('Petra Passkey', EMAIL, 'editor');
    await passwordStep(EMAIL);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const settings = await openSecurity();
    await settings.getByLabel('Passkey name (optional)').fill('Office laptop');
    await settings.getByRole('button', { name: 'Add a passkey' }).click();
    await settings.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await settings.getByText('Office laptop').waitFor();
    await settings.getByRole('button', { name: 'Remove passkey Office laptop' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'two-factor-passkeys');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await page.keyboard.press('Escape');
    await logOut();

    const login = await passwordStep(EMAIL);
    await login.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await logOut();
  });
});

describe('a second factor required for everyone', () => {
  const EMAIL = 'rhea.required@team.example.test';

  it('leads a member without one to set it up at sign-in, then to the dashboard', async () => {
    await invitedMember('Rhea Required', EMAIL, 'viewer');
    // The owner sets up an app (required first), then requires one for everyone.
    const owner = await adminCookie(server.baseUrl);
    const call = (method: string, url: string, body?: object) =>
      fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie: owner, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const { secret } = (await (await call('POST', '/api/admin/security/totp')).json()) as {
      secret: string;
    };
    expect(
      (await call('POST', '/api/admin/security/totp/confirm', { code: codeAt(secret, Date.now()) }))
        .status,
    ).toBe(200);
    expect((await call('PUT', '/api/admin/security/required', { required: true })).status).toBe(
      200,
    );

    const login = await passwordStep(EMAIL);
    await login
      .getByText(
        'The campaign requires a second factor. Set up an authenticator app or a passkey to continue.',
      )
      .waitFor();
    await login.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = (await login.locator('code').textContent())!.trim();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'two-factor-required-setup');
    await login
      .getByLabel('Enter the 6-digit code from your authenticator app')
      .fill(codeAt(key, Date.now()));
    await login.getByRole('button', { name: 'Turn on' }).click();
    await login.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
