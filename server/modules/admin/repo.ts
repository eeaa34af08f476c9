import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { adminSessions, rateLimits, settings } from '../../db/schema';

export async function getSetting(db: DbOrTx, key: string): Promise<string | undefined> {
  const rows = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key));
  return rows[0]?.value;
}

/** Sets a value unless one exists; returns the stored value (first writer wins across instances). */
export async function getOrCreateSetting(
  db: DbOrTx,
  key: string,
  make: () => string | Promise<string>,
) {
  const existing = await getSetting(db, key);
  if (existing !== undefined) return { value: existing, created: false };
  const value = await make();
  const inserted = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ value: settings.value });
  if (inserted[0]) return { value: inserted[0].value, created: true };
  return { value: (await getSetting(db, key))!, created: false };
}

export async function setSetting(db: DbOrTx, key: string, value: string) {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

export async function insertSession(db: DbOrTx, tokenHash: string, now: Date, expiresAt: Date) {
  await db.insert(adminSessions).values({ tokenHash, createdAt: now, lastSeenAt: now, expiresAt });
}

export async function findSession(db: DbOrTx, tokenHash: string) {
  const rows = await db.select().from(adminSessions).where(eq(adminSessions.tokenHash, tokenHash));
  return rows[0];
}

export async function touchSession(db: DbOrTx, tokenHash: string, now: Date) {
  await db
    .update(adminSessions)
    .set({ lastSeenAt: now })
    .where(eq(adminSessions.tokenHash, tokenHash));
}

export async function deleteSession(db: DbOrTx, tokenHash: string) {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash));
}

/** Every admin session ("Sign out all sessions", a changed password). */
export async function deleteAllSessions(db: DbOrTx) {
  await db.delete(adminSessions);
}

export async function deleteExpiredSessions(db: DbOrTx, now: Date) {
  await db.delete(adminSessions).where(lt(adminSessions.expiresAt, now));
}

/**
 * Fixed-window counter in the database, so every instance counts the same attempts.
 * Returns the count in the current window (including this hit) and when the window ends.
 */
export async function hitRateLimit(db: DbOrTx, key: string, now: Date, windowMs: number) {
  const windowFloor = new Date(now.getTime() - windowMs);
  const rows = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${windowFloor.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${windowFloor.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  const row = rows[0]!;
  return { count: row.count, resetAt: new Date(row.windowStart.getTime() + windowMs) };
}

/** Gives one counted attempt back (a login that succeeded). */
export async function undoRateLimitHit(db: DbOrTx, key: string) {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, key));
}
