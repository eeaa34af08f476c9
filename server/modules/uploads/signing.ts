import { createHmac, timingSafeEqual } from 'node:crypto';
import { OBJECT_PATH_PREFIX } from '../../lib/object-path';

/** Upload URLs live this long: enough to pick a photo on a slow phone, short enough to be useless later. */
export const UPLOAD_URL_TTL_MS = 15 * 60_000;

/** What a completion link signs: not the id alone, so it cannot serve as an upload link. */
export const completeSubject = (id: string) => `complete:${id}`;

export function signUpload(secret: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${id}.${expires}`).digest('base64url');
}

export function verifyUpload(
  secret: string,
  id: string,
  expires: string,
  signature: string,
  nowMs: number,
) {
  const exp = Number(expires);
  if (!Number.isInteger(exp)) return 'invalid' as const;
  const expected = Buffer.from(signUpload(secret, id, exp));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return 'invalid' as const;
  if (exp * 1000 < nowMs) return 'expired' as const;
  return 'ok' as const;
}

/** The object id of one of our own image URLs, or undefined for anything else. */
export function ownObjectId(imageUrl: string, origins: string[]): string | undefined {
  let u: URL;
  try {
    u = new URL(imageUrl);
  } catch {
    return undefined;
  }
  if (!origins.includes(u.origin) || u.search || u.hash) return undefined;
  if (!u.pathname.startsWith(OBJECT_PATH_PREFIX)) return undefined;
  const id = u.pathname.slice(OBJECT_PATH_PREFIX.length);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ? id : undefined;
}

const idsByUpdates = new WeakMap<readonly { imageUrl: string }[], Set<string>>();
/** The object ids the updates show, computed once per snapshot change. */
export function referencedImageIds(updates: readonly { imageUrl: string }[]): Set<string> {
  let ids = idsByUpdates.get(updates);
  if (!ids) {
    ids = new Set(
      updates.flatMap((u) => {
        const i = u.imageUrl.indexOf(OBJECT_PATH_PREFIX);
        return i < 0 ? [] : [u.imageUrl.slice(i + OBJECT_PATH_PREFIX.length)];
      }),
    );
    idsByUpdates.set(updates, ids);
  }
  return ids;
}
