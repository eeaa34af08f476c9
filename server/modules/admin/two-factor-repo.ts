import { and, count, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  adminAuthChallenges,
  adminPasskeys,
  adminRecoveryCodes,
  adminSessions,
  adminTotp,
} from '../../db/schema';

/** The SQL of two-factor sign-in (docs/decisions/023-two-factor.md). */

export async function findTotp(db: DbOrTx, accountId: string) {
  const rows = await db.select().from(adminTotp).where(eq(adminTotp.accountId, accountId));
  return rows[0];
}

/** A new, unconfirmed secret replaces any earlier one (a confirmed one is removed first). */
export async function saveUnconfirmedTotp(
  db: DbOrTx,
  accountId: string,
  secret: string,
  now: Date,
) {
  await db
    .insert(adminTotp)
    .values({ accountId, secret, createdAt: now })
    .onConflictDoUpdate({
      target: adminTotp.accountId,
      set: { secret, createdAt: now, confirmedAt: null, lastStep: null },
      where: isNull(adminTotp.confirmedAt),
    });
}

/**
 * Records `step` as used: succeeds only if no code of this step or a later one was accepted
 * before, in one statement, so two requests with one code cannot both pass.
 */
export async function useTotpStep(
  db: DbOrTx,
  accountId: string,
  step: number,
  confirm: { now: Date } | undefined,
) {
  const rows = await db
    .update(adminTotp)
    .set({ lastStep: step, ...(confirm ? { confirmedAt: confirm.now } : {}) })
    .where(
      and(
        eq(adminTotp.accountId, accountId),
        confirm ? isNull(adminTotp.confirmedAt) : isNotNull(adminTotp.confirmedAt),
        or(isNull(adminTotp.lastStep), lt(adminTotp.lastStep, step)),
      ),
    )
    .returning({ accountId: adminTotp.accountId });
  return rows.length === 1;
}

export async function deleteTotp(db: DbOrTx, accountId: string) {
  const rows = await db
    .delete(adminTotp)
    .where(and(eq(adminTotp.accountId, accountId), isNotNull(adminTotp.confirmedAt)))
    .returning({ accountId: adminTotp.accountId });
  return rows.length === 1;
}

export async function replaceRecoveryCodes(
  db: DbOrTx,
  accountId: string,
  hashes: string[],
  now: Date,
) {
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.accountId, accountId));
  await db
    .insert(adminRecoveryCodes)
    .values(hashes.map((codeHash) => ({ accountId, codeHash, createdAt: now })));
}

export async function deleteRecoveryCodes(db: DbOrTx, accountId: string) {
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.accountId, accountId));
}

/** Uses a recovery code up in the statement that finds it: single use, even under a race. */
export async function useRecoveryCode(db: DbOrTx, accountId: string, codeHash: string, now: Date) {
  const rows = await db
    .update(adminRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(adminRecoveryCodes.accountId, accountId),
        eq(adminRecoveryCodes.codeHash, codeHash),
        isNull(adminRecoveryCodes.usedAt),
      ),
    )
    .returning({ accountId: adminRecoveryCodes.accountId });
  return rows.length === 1;
}

export async function recoveryCodesLeft(db: DbOrTx, accountId: string) {
  const rows = await db
    .select({ n: count() })
    .from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.accountId, accountId), isNull(adminRecoveryCodes.usedAt)));
  return Number(rows[0]?.n ?? 0);
}

export async function hasRecoveryCodes(db: DbOrTx, accountId: string) {
  const rows = await db
    .select({ n: count() })
    .from(adminRecoveryCodes)
    .where(eq(adminRecoveryCodes.accountId, accountId));
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The accounts with an authenticator app or a passkey set up, for the Team list. */
export async function accountsWithSecondFactor(db: DbOrTx): Promise<Set<string>> {
  const [apps, keys] = await Promise.all([
    db
      .select({ accountId: adminTotp.accountId })
      .from(adminTotp)
      .where(isNotNull(adminTotp.confirmedAt)),
    db.selectDistinct({ accountId: adminPasskeys.accountId }).from(adminPasskeys),
  ]);
  return new Set([...apps, ...keys].map((r) => r.accountId));
}

/**
 * Everything that lets the account pass the second step (the app, even one half set up, its
 * passkeys, recovery codes, second steps under way), for the owner clearing a member's factors.
 * What was removed, for the audit entry.
 */
export async function clearSecondFactors(db: DbOrTx, accountId: string) {
  const apps = await db
    .delete(adminTotp)
    .where(eq(adminTotp.accountId, accountId))
    .returning({ confirmedAt: adminTotp.confirmedAt });
  const keys = await db
    .delete(adminPasskeys)
    .where(eq(adminPasskeys.accountId, accountId))
    .returning({ name: adminPasskeys.name });
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.accountId, accountId));
  await db.delete(adminAuthChallenges).where(eq(adminAuthChallenges.accountId, accountId));
  return { totp: apps.some((a) => a.confirmedAt !== null), passkeys: keys.map((k) => k.name) };
}

export async function listPasskeys(db: DbOrTx, accountId: string) {
  return db
    .select()
    .from(adminPasskeys)
    .where(eq(adminPasskeys.accountId, accountId))
    .orderBy(adminPasskeys.createdAt);
}

export async function findPasskey(db: DbOrTx, id: string) {
  const rows = await db.select().from(adminPasskeys).where(eq(adminPasskeys.id, id));
  return rows[0];
}

export async function insertPasskey(db: DbOrTx, values: typeof adminPasskeys.$inferInsert) {
  await db.insert(adminPasskeys).values(values);
}

/**
 * The new signature counter after a sign-in; refused (false) when another sign-in moved it past
 * the value this one read, so a cloned authenticator's replayed counter is not accepted twice.
 */
export async function updatePasskeyCounter(
  db: DbOrTx,
  id: string,
  readCounter: number,
  newCounter: number,
  now: Date,
) {
  const rows = await db
    .update(adminPasskeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.counter, readCounter)))
    .returning({ id: adminPasskeys.id });
  return rows.length === 1;
}

export async function deletePasskey(db: DbOrTx, accountId: string, id: string) {
  const rows = await db
    .delete(adminPasskeys)
    .where(and(eq(adminPasskeys.accountId, accountId), eq(adminPasskeys.id, id)))
    .returning({ name: adminPasskeys.name });
  return rows[0];
}

export async function insertChallenge(
  db: DbOrTx,
  values: {
    tokenHash: string;
    accountId: string;
    purpose: 'login' | 'passkey_registration';
    now: Date;
    expiresAt: Date;
  },
) {
  await db.insert(adminAuthChallenges).values({
    tokenHash: values.tokenHash,
    accountId: values.accountId,
    purpose: values.purpose,
    createdAt: values.now,
    expiresAt: values.expiresAt,
  });
}

/** A challenge that has not expired. */
export async function findChallenge(
  db: DbOrTx,
  tokenHash: string,
  purpose: 'login' | 'passkey_registration',
  now: Date,
) {
  const rows = await db
    .select()
    .from(adminAuthChallenges)
    .where(
      and(
        eq(adminAuthChallenges.tokenHash, tokenHash),
        eq(adminAuthChallenges.purpose, purpose),
        gt(adminAuthChallenges.expiresAt, now),
      ),
    );
  return rows[0];
}

export async function setWebauthnChallenge(db: DbOrTx, tokenHash: string, challenge: string) {
  await db
    .update(adminAuthChallenges)
    .set({ webauthnChallenge: challenge })
    .where(eq(adminAuthChallenges.tokenHash, tokenHash));
}

/**
 * Uses up the WebAuthn challenge a response signed, if it is the one this step issued: cleared in
 * the statement that compares it, so one signed challenge cannot be presented twice.
 */
export async function consumeWebauthnChallenge(db: DbOrTx, tokenHash: string, challenge: string) {
  const rows = await db
    .update(adminAuthChallenges)
    .set({ webauthnChallenge: null })
    .where(
      and(
        eq(adminAuthChallenges.tokenHash, tokenHash),
        eq(adminAuthChallenges.webauthnChallenge, challenge),
      ),
    )
    .returning({ tokenHash: adminAuthChallenges.tokenHash });
  return rows.length === 1;
}

export async function deleteChallenge(db: DbOrTx, tokenHash: string) {
  await db.delete(adminAuthChallenges).where(eq(adminAuthChallenges.tokenHash, tokenHash));
}

export async function deleteExpiredChallenges(db: DbOrTx, now: Date) {
  await db.delete(adminAuthChallenges).where(lt(adminAuthChallenges.expiresAt, now));
}

/** A set-up-only session becomes a full one once a second factor is set up. */
export async function finishSetup(db: DbOrTx, sessionTokenHash: string) {
  await db
    .update(adminSessions)
    .set({ setupOnly: false })
    .where(eq(adminSessions.tokenHash, sessionTokenHash));
}
