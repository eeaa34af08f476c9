import type { SecondFactorMethod } from '@shared/schemas/two-factor-messages';
import type { Reauth, SecurityStatus, TotpSetup } from '@shared/schemas/two-factor';
import { apiRequest, getJson } from '../../lib/api-client';

/**
 * Two-factor sign-in's calls (docs/decisions/023-two-factor.md). The WebAuthn browser library is
 * imported when a passkey is used, so it never weighs on a page that does not use one.
 */
const webauthn = () => import('@simplewebauthn/browser');

export const securityKey = ['/api/admin/security'] as const;

export const getSecurity = () => getJson<SecurityStatus>('/api/admin/security');

/** The login's second step with a code (`totp` or `recovery`). */
export async function submitCode(method: Exclude<SecondFactorMethod, 'passkey'>, code: string) {
  await apiRequest('POST', '/api/admin/login/second-factor', { method, code });
}

/** The login's second step with a passkey: the browser signs the server's challenge. */
export async function signInWithPasskey() {
  const { startAuthentication } = await webauthn();
  const options = await (await apiRequest('POST', '/api/admin/login/passkey-options')).json();
  const response = await startAuthentication({ optionsJSON: options });
  await apiRequest('POST', '/api/admin/login/second-factor', { method: 'passkey', response });
}

export async function startTotp(): Promise<TotpSetup> {
  return (await (await apiRequest('POST', '/api/admin/security/totp')).json()) as TotpSetup;
}

export async function confirmTotp(code: string): Promise<string[] | undefined> {
  const res = await apiRequest('POST', '/api/admin/security/totp/confirm', { code });
  return ((await res.json()) as { recoveryCodes?: string[] }).recoveryCodes;
}

/** The current password, or a current app code: asked before weakening the account's factors. */
export const removeTotp = (proof: Reauth) =>
  apiRequest('DELETE', '/api/admin/security/totp', proof);

export async function addPasskey(name: string): Promise<string[] | undefined> {
  const { startRegistration } = await webauthn();
  const options = await (await apiRequest('POST', '/api/admin/security/passkeys/options')).json();
  const response = await startRegistration({ optionsJSON: options });
  const res = await apiRequest('POST', '/api/admin/security/passkeys', {
    ...(name.trim() ? { name: name.trim() } : {}),
    response,
  });
  return ((await res.json()) as { recoveryCodes?: string[] }).recoveryCodes;
}

export const removePasskey = (id: string, proof: Reauth) =>
  apiRequest('DELETE', `/api/admin/security/passkeys/${encodeURIComponent(id)}`, proof);

export async function newRecoveryCodes(proof: Reauth): Promise<string[]> {
  const res = await apiRequest('POST', '/api/admin/security/recovery-codes', proof);
  return ((await res.json()) as { recoveryCodes: string[] }).recoveryCodes;
}

export const setRequired = (required: boolean) =>
  apiRequest('PUT', '/api/admin/security/required', { required });
