import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { sha256 } from './password';
import * as repo from './repo';
import * as tfRepo from './two-factor-repo';

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 seconds. */
const PERIOD_S = 30;
/** One step either side of now: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1;
const RECOVERY_CODES = 10;
/** Recovery codes: 10 letters from 31 without look-alikes (~49 bits), shown as "abcde-fghij". */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const KEY_SETTING = 'two_factor_key';
export const REQUIRE_SETTING = 'require_second_factor';

/**
 * TOTP and recovery codes (docs/decisions/023-two-factor.md). The TOTP secret must be read back to
 * check a code, so it cannot be hashed: it is encrypted with AES-256-GCM under a key derived from a
 * random key in `settings`, so a copy of the `admin_totp` rows alone (an export, a log of a query)
 * does not give the secrets away. The stored form is `v1:iv:tag:ciphertext` (base64url), so a key
 * held outside the database can replace it later.
 */
export function createTwoFactor(db: Db, config: Pick<AppConfig, 'now' | 'campaign'>) {
  let key: Promise<Buffer> | undefined;
  const encryptionKey = () =>
    (key ??= repo
      .getOrCreateSetting(db, KEY_SETTING, () => randomBytes(32).toString('base64url'))
      .then(({ value }) =>
        Buffer.from(
          hkdfSync('sha256', Buffer.from(value, 'base64url'), '', 'admin_totp.secret v1', 32),
        ),
      ));

  async function encrypt(plain: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await encryptionKey(), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  async function decrypt(stored: string) {
    const [version, iv, tag, data] = stored.split(':');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('unknown TOTP secret format');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      await encryptionKey(),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  const totpFor = (secret: string, label = 'admin') =>
    new TOTP({
      issuer: config.campaign.name,
      label,
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_S,
    });

  /** The 30-second step `code` belongs to (within the window), or null. */
  function matchingStep(secret: string, code: string): number | null {
    const timestamp = config.now().getTime();
    const delta = totpFor(secret).validate({ token: code, timestamp, window: WINDOW });
    if (delta === null) return null;
    return Math.floor(timestamp / 1000 / PERIOD_S) + delta;
  }

  return {
    async isRequired(tx: DbOrTx = db) {
      return (await repo.getSetting(tx, REQUIRE_SETTING)) === 'true';
    },

    /** The second factors an account has set up (empty: none). */
    async methods(accountId: string, tx: DbOrTx = db) {
      const [totp, passkeys] = await Promise.all([
        tfRepo.findTotp(tx, accountId),
        tfRepo.listPasskeys(tx, accountId),
      ]);
      const methods: ('totp' | 'passkey' | 'recovery')[] = [];
      if (totp?.confirmedAt) methods.push('totp');
      if (passkeys.length) methods.push('passkey');
      if (methods.length) methods.push('recovery');
      return methods;
    },

    /** A new secret for the app, unconfirmed until a first code: the QR code and the text. */
    async startTotp(account: { id: string; name: string; email: string | null }) {
      const secret = new Secret({ size: 20 }).base32;
      await tfRepo.saveUnconfirmedTotp(db, account.id, await encrypt(secret), config.now());
      const uri = totpFor(secret, account.email ?? account.name).toString();
      const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
      return {
        secret,
        uri,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      };
    },

    /**
     * Checks a code and marks its step used, in one statement: `confirm` for the set-up's first
     * code, else a sign-in's. False for a wrong code, a code from outside the window, or a step
     * already used (a replayed code).
     */
    async useTotp(accountId: string, code: string, confirm: boolean, tx: DbOrTx = db) {
      const row = await tfRepo.findTotp(tx, accountId);
      if (!row || (confirm ? row.confirmedAt : !row.confirmedAt)) return false;
      const step = matchingStep(await decrypt(row.secret), code);
      if (step === null) return false;
      return tfRepo.useTotpStep(tx, accountId, step, confirm ? { now: config.now() } : undefined);
    },

    /** Ten new recovery codes (the older ones stop working); only their hashes are stored. */
    async newRecoveryCodes(accountId: string, tx: DbOrTx = db) {
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await tfRepo.replaceRecoveryCodes(
        tx,
        accountId,
        codes.map((c) => sha256(normalizeRecoveryCode(c))),
        config.now(),
      );
      return codes;
    },

    async useRecoveryCode(accountId: string, code: string, tx: DbOrTx = db) {
      return tfRepo.useRecoveryCode(
        tx,
        accountId,
        sha256(normalizeRecoveryCode(code)),
        config.now(),
      );
    },
  };
}

function recoveryCode(): string {
  let out = '';
  while (out.length < 10) {
    for (const b of randomBytes(16)) {
      // 31 letters: bytes from 248 up would favour the first letters.
      if (b < 248 && out.length < 10) out += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
    }
  }
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** What a person types: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase();
