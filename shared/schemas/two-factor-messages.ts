/**
 * Two-factor sign-in's words (docs/decisions/023-two-factor.md), without zod, so the login dialog
 * can show them without loading the schemas.
 */
export const TWO_FACTOR_MESSAGES = {
  codePrompt: 'Enter the 6-digit code from your authenticator app',
  usePasskey: 'Use a passkey',
  useRecoveryCode: 'Use a recovery code',
  recoveryPrompt: 'Enter one of your recovery codes',
  invalidCode: 'That code is not valid. Enter the newest code from your authenticator app.',
  invalidRecoveryCode: 'That recovery code is not valid or has already been used.',
  passkeyFailed: 'The passkey could not be verified. Try again, or use another way to sign in.',
  stepExpired: 'This sign-in has expired. Enter your password again.',
  setupRequired:
    'The campaign requires a second factor. Set up an authenticator app or a passkey to continue.',
  setupOnly: 'Set up a second factor first: the campaign requires one.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  tooManyToday:
    'Too many wrong codes for this account today. Try again tomorrow, or ask the campaign’s owner.',
  lastFactorRequired:
    'The campaign requires a second factor: add another one before removing this one.',
  ownerFirst: 'Set up your own second factor before requiring one for everyone.',
  noTotpSetup: 'Start the authenticator app set-up again.',
  passkeyNotStarted: 'Start adding the passkey again.',
  passkeyNotFound: 'Passkey not found',
  reauthPrompt: 'Your current password, or a code from your authenticator app',
  reauthRequired: 'Enter your current password or a code from your authenticator app to confirm.',
  reauthWrong: 'That password or code is not correct.',
} as const;

export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
