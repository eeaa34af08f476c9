import { and, asc, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  adminAccounts,
  adminInvitations,
  adminSessions,
  auditLog,
  rateLimits,
  settings,
} from '../../db/schema';

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

export async function insertSession(
  db: DbOrTx,
  tokenHash: string,
  accountId: string,
  now: Date,
  expiresAt: Date,
  clientIp: string | null = null,
  setupOnly = false,
) {
  await db.insert(adminSessions).values({
    tokenHash,
    accountId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    clientIp,
    setupOnly,
  });
}

/** The sessions still running (not expired), newest activity first, with their account. */
export async function listSessions(db: DbOrTx, now: Date) {
  return db
    .select({
      tokenHash: adminSessions.tokenHash,
      accountId: adminSessions.accountId,
      name: adminAccounts.name,
      role: adminAccounts.role,
      createdAt: adminSessions.createdAt,
      lastSeenAt: adminSessions.lastSeenAt,
      clientIp: adminSessions.clientIp,
    })
    .from(adminSessions)
    .innerJoin(adminAccounts, eq(adminAccounts.id, adminSessions.accountId))
    .where(
      and(
        sql`${adminSessions.expiresAt} > ${now.toISOString()}::timestamptz`,
        isNull(adminAccounts.disabledAt),
      ),
    )
    .orderBy(desc(adminSessions.lastSeenAt));
}

/** Every session of one account but `keepHash` (a member changing their own password). */
export async function deleteOtherSessions(db: DbOrTx, accountId: string, keepHash: string) {
  await db
    .delete(adminSessions)
    .where(and(eq(adminSessions.accountId, accountId), ne(adminSessions.tokenHash, keepHash)));
}

/** The people the audit log names, for the Activity tab's filter (accounts that acted). */
export async function listActors(db: DbOrTx) {
  return db
    .select({ id: adminAccounts.id, name: adminAccounts.name, role: adminAccounts.role })
    .from(adminAccounts)
    .where(
      sql`exists (select 1 from ${auditLog} where ${auditLog.actorAccountId} = ${adminAccounts.id})`,
    )
    .orderBy(asc(adminAccounts.name));
}

/** The session with its account's name, role and whether it is disabled (one query per request). */
export async function findSession(db: DbOrTx, tokenHash: string) {
  const rows = await db
    .select({
      createdAt: adminSessions.createdAt,
      lastSeenAt: adminSessions.lastSeenAt,
      expiresAt: adminSessions.expiresAt,
      accountId: adminSessions.accountId,
      setupOnly: adminSessions.setupOnly,
      name: adminAccounts.name,
      role: adminAccounts.role,
      disabledAt: adminAccounts.disabledAt,
    })
    .from(adminSessions)
    .innerJoin(adminAccounts, eq(adminAccounts.id, adminSessions.accountId))
    .where(eq(adminSessions.tokenHash, tokenHash));
  return rows[0];
}

/** Every session of one account (disabled, a changed password). */
export async function deleteAccountSessions(db: DbOrTx, accountId: string) {
  await db.delete(adminSessions).where(eq(adminSessions.accountId, accountId));
}

export type AccountRow = typeof adminAccounts.$inferSelect;

export async function findAccountByEmail(db: DbOrTx, email: string) {
  const rows = await db
    .select()
    .from(adminAccounts)
    .where(sql`lower(${adminAccounts.email}) = ${email.trim().toLowerCase()}`);
  return rows[0];
}

export async function findAccount(db: DbOrTx, id: string) {
  const rows = await db.select().from(adminAccounts).where(eq(adminAccounts.id, id));
  return rows[0];
}

export async function listAccounts(db: DbOrTx) {
  return db
    .select()
    .from(adminAccounts)
    .orderBy(asc(adminAccounts.createdAt), asc(adminAccounts.name));
}

export async function insertAccount(
  db: DbOrTx,
  values: { name: string; email: string; role: string; passwordHash?: string | null; now: Date },
) {
  const rows = await db
    .insert(adminAccounts)
    .values({
      name: values.name,
      email: values.email,
      role: values.role,
      passwordHash: values.passwordHash ?? null,
      createdAt: values.now,
    })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateAccount(
  db: DbOrTx,
  id: string,
  set: Partial<Pick<AccountRow, 'role' | 'disabledAt' | 'passwordHash' | 'name'>>,
) {
  const rows = await db.update(adminAccounts).set(set).where(eq(adminAccounts.id, id)).returning();
  return rows[0];
}

export async function insertInvitation(
  db: DbOrTx,
  values: { id: string; tokenHash: string; accountId: string; now: Date; expiresAt: Date },
) {
  await db.insert(adminInvitations).values({
    id: values.id,
    tokenHash: values.tokenHash,
    accountId: values.accountId,
    createdAt: values.now,
    expiresAt: values.expiresAt,
  });
}

/**
 * Uses an invitation link: marks it used in the same statement that finds it, so two requests with
 * one link cannot both pass. Returns its account id, or undefined (unknown, used or expired).
 */
export async function useInvitation(db: DbOrTx, tokenHash: string, now: Date) {
  const rows = await db
    .update(adminInvitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(adminInvitations.tokenHash, tokenHash),
        isNull(adminInvitations.usedAt),
        sql`${adminInvitations.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ accountId: adminInvitations.accountId });
  return rows[0]?.accountId;
}

/** Whether an invitation link is still usable, and for whom (the set-password page's first look). */
export async function peekInvitation(db: DbOrTx, tokenHash: string, now: Date) {
  const rows = await db
    .select({
      accountId: adminInvitations.accountId,
      name: adminAccounts.name,
      email: adminAccounts.email,
      hasPassword: sql<boolean>`${adminAccounts.passwordHash} is not null`,
    })
    .from(adminInvitations)
    .innerJoin(adminAccounts, eq(adminAccounts.id, adminInvitations.accountId))
    .where(
      and(
        eq(adminInvitations.tokenHash, tokenHash),
        isNull(adminInvitations.usedAt),
        isNull(adminAccounts.disabledAt),
        sql`${adminInvitations.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    );
  return rows[0];
}

/** A new link replaces the account's older ones. */
export async function deleteInvitations(db: DbOrTx, accountId: string) {
  await db.delete(adminInvitations).where(eq(adminInvitations.accountId, accountId));
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
