import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { donorLinks, outbox, payments, pledges, statementLines } from '../../db/schema';

/** All SQL of donor-data rights and retention. */

export const ERASED_NAME = 'Erased donor';
/** example.invalid can never receive mail (RFC 2606); one address per erasure keeps donor counts. */
const erasedEmail = (tag: string) => `erased-${tag}@erased.invalid`;

export async function paymentsOf(db: DbOrTx, pledgeId: string) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.pledgeId, pledgeId))
    .orderBy(asc(payments.recordedAt));
}

export async function outboxOf(db: DbOrTx, pledgeId: string) {
  return db
    .select()
    .from(outbox)
    .where(eq(outbox.pledgeId, pledgeId))
    .orderBy(asc(outbox.createdAt));
}

/** The not-yet-erased pledges of an e-mail address, case-insensitive. */
export async function pledgeIdsOfEmail(db: DbOrTx, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: pledges.id })
    .from(pledges)
    .where(and(sql`lower(${pledges.email}) = lower(${email})`, isNull(pledges.erasedAt)));
  return rows.map((r) => r.id);
}

export async function unerasedPledgeIds(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ id: pledges.id }).from(pledges).where(isNull(pledges.erasedAt));
  return rows.map((r) => r.id);
}

/**
 * Name and e-mail replaced, the status links ended, queued e-mails cancelled (sent ones keep their
 * kind and time, not the SMTP error, which may quote the address), and the payer's name dropped
 * from the bank lines matched to these pledges. Amounts, references and payments stay.
 */
export async function erasePledges(db: DbOrTx, ids: string[], tag: string, now: Date) {
  if (ids.length === 0) return [];
  const rows = await db
    .update(pledges)
    // The delivery news' consent goes too: it names an address that is no longer kept.
    .set({
      name: ERASED_NAME,
      email: erasedEmail(tag),
      erasedAt: now,
      newsConsentAt: null,
      newsConsentVersion: null,
      newsWithdrawnAt: null,
    })
    .where(inArray(pledges.id, ids))
    .returning({ id: pledges.id, reference: pledges.reference });
  await db.delete(donorLinks).where(inArray(donorLinks.pledgeId, ids));
  await db
    .delete(outbox)
    .where(and(inArray(outbox.pledgeId, ids), isNull(outbox.sentAt), isNull(outbox.failedAt)));
  await db.update(outbox).set({ lastError: null }).where(inArray(outbox.pledgeId, ids));
  await db
    .update(statementLines)
    .set({ payer: '' })
    .where(
      inArray(
        statementLines.id,
        db
          .select({ id: sql<string>`${payments.statementLineId}` })
          .from(payments)
          .where(
            and(inArray(payments.pledgeId, ids), sql`${payments.statementLineId} is not null`),
          ),
      ),
    );
  return rows;
}
