import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { statementLines } from '../../db/schema';
import type { StatementLine } from './parse';

export type StatementLineRow = typeof statementLines.$inferSelect;

/** Stores the lines not seen before; returns how many were new. */
export async function insertNewLines(db: DbOrTx, lines: StatementLine[]): Promise<number> {
  if (lines.length === 0) return 0;
  let added = 0;
  for (let i = 0; i < lines.length; i += 500) {
    const rows = await db
      .insert(statementLines)
      .values(lines.slice(i, i + 500))
      .onConflictDoNothing({ target: statementLines.fingerprint })
      .returning({ id: statementLines.id });
    added += rows.length;
  }
  return added;
}

export async function openLines(db: DbOrTx): Promise<StatementLineRow[]> {
  return db
    .select()
    .from(statementLines)
    .where(eq(statementLines.status, 'open'))
    .orderBy(asc(statementLines.bookedOn), asc(statementLines.importedAt), asc(statementLines.id))
    .limit(2000);
}

/** Marks a line matched, once: false when another request (or an earlier import) got there first. */
export async function markMatched(db: DbOrTx, lineId: string, pledgeId: string, now: Date) {
  const rows = await db
    .update(statementLines)
    .set({ status: 'matched', pledgeId, matchedAt: now })
    .where(and(eq(statementLines.id, lineId), eq(statementLines.status, 'open')))
    .returning();
  return rows[0];
}
