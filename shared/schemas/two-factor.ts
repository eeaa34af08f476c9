// Two-factor sign-in's contracts (docs/decisions/023-two-factor.md); its words are in
// two-factor-messages.ts.
import { z } from 'zod';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

export {
  SECOND_FACTOR_METHODS,
  TWO_FACTOR_MESSAGES,
  type SecondFactorMethod,
} from './two-factor-messages';

/** A 6-digit code as typed: spaces allowed ("123 456"). */
const totpCode = z
  .string({ error: TWO_FACTOR_MESSAGES.invalidCode })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: TWO_FACTOR_MESSAGES.invalidCode }));

/** A recovery code as typed: case, spaces and dashes do not matter. */
const recoveryCode = z
  .string({ error: TWO_FACTOR_MESSAGES.invalidRecoveryCode })
  .max(64, { error: TWO_FACTOR_MESSAGES.invalidRecoveryCode })
  .transform((s) => s.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().min(1, { error: TWO_FACTOR_MESSAGES.invalidRecoveryCode }));

/** A WebAuthn response from @simplewebauthn/browser, checked in full by @simplewebauthn/server. */
const webauthnResponse = z.looseObject({
  id: z.string().max(1024),
  rawId: z.string().max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(16_384) }),
});

export const secondFactorSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: totpCode }),
  z.object({ method: z.literal('recovery'), code: recoveryCode }),
  z.object({ method: z.literal('passkey'), response: webauthnResponse }),
]);

export const totpConfirmSchema = z.object({ code: totpCode });

export const passkeyRegisterSchema = z.object({
  name: z.string().trim().max(60).optional(),
  response: webauthnResponse,
});

/**
 * Proof that the person at the keyboard is the account's holder, for removing a second factor or
 * making new recovery codes: the current password, or a current code from the authenticator app.
 */
export const reauthSchema = z
  .object({
    currentPassword: z
      .string({ error: TWO_FACTOR_MESSAGES.reauthRequired })
      .max(200, { error: TWO_FACTOR_MESSAGES.reauthWrong })
      .optional(),
    code: totpCode.optional(),
  })
  .refine((v) => Boolean(v.currentPassword) !== Boolean(v.code), {
    error: TWO_FACTOR_MESSAGES.reauthRequired,
  });
export type Reauth = z.infer<typeof reauthSchema>;

export const requireSecondFactorSchema = z.object({ required: z.boolean() });

export const securityStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
    }),
  ),
  recoveryCodesLeft: z.number().int(),
  /** Whether the owner requires a second factor for everyone. */
  required: z.boolean(),
  /** Whether this account may change that (the owner). */
  mayRequire: z.boolean(),
});
export type SecurityStatus = z.infer<typeof securityStatusSchema>;

export const totpSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG data URL, drawn on the server (no QR code library in the browser). */
  qrCode: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/** Set up a first factor: the ten recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).optional() });
