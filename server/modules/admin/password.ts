import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}
const scrypt = promisify(scryptCb) as (
  password: string | Buffer,
  salt: Buffer,
  keylen: number,
  options: ScryptParams,
) => Promise<Buffer>;

/** What the app hashes with (~50 ms of CPU per hash on the 2-core machine this was measured on). */
export const SCRYPT_PARAMS: ScryptParams = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/**
 * "scrypt$N$r$p$salt$hash" (base64url): a slow hash, so a stolen database does not give the
 * password. The parameters travel with the hash, so verifyPassword checks any hash with its own.
 * Only the test set-up passes cheaper ones (its template databases' admin hash).
 */
export async function hashPassword(password: string, params = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Constant-time: both sides are fixed-length derived keys, so lengths never differ or throw. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, saltB64, keyB64] = stored.split('$');
  if (kind !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A strong password a person can still type: 24 characters from a 57-letter alphabet (~140 bits). */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(48);
  let out = '';
  for (const b of bytes) {
    if (b < 228) out += alphabet[b % 57];
    if (out.length === 24) break;
  }
  return out.length === 24 ? out : generatePassword();
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
