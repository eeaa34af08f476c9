import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { statementImports, statementLines } from '../../db/schema';
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

/**
 * The review's order: the bank file's order, newest import first; lines imported before imports
 * were recorded (no import, position 0) last, by booking date. The id breaks any remaining tie, so
 * a page never shows a line twice or skips one.
 */
const REVIEW_ORDER = [
  sql`${statementImports.importedAt} desc nulls last`,
  asc(statementLines.importId),
  asc(statementLines.position),
  asc(statementLines.bookedOn),
  asc(statementLines.importedAt),
  asc(statementLines.id),
];

/** One page of the open lines, in the review's order, and how many are open in all. */
export async function openLinesPage(
  db: DbOrTx,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ rows: StatementLineRow[]; total: number }> {
  const open = eq(statementLines.status, 'open');
  const [rows, [counted]] = await Promise.all([
    db
      .select({ line: statementLines })
      .from(statementLines)
      .leftJoin(statementImports, eq(statementImports.id, statementLines.importId))
      .where(open)
      .orderBy(...REVIEW_ORDER)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(statementLines).where(open),
  ]);
  return { rows: rows.map((r) => r.line), total: counted?.n ?? 0 };
}

/** The first open lines in the review's order (what an import answers with). */
export async function openLines(db: DbOrTx): Promise<StatementLineRow[]> {
  return (await openLinesPage(db, { page: 1, pageSize: 2000 })).rows;
}

export async function findLine(db: DbOrTx, id: string): Promise<StatementLineRow | undefined> {
  return (await db.select().from(statementLines).where(eq(statementLines.id, id)))[0];
}

export async function linesByIds(db: DbOrTx, ids: string[]): Promise<StatementLineRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(statementLines)
    .where(inArray(statementLines.id, [...new Set(ids)]));
}

/** Open -> ignored, once: undefined when the line is not open (or does not exist). */
export async function dismissLine(db: DbOrTx, id: string, reason: string, now: Date) {
  const rows = await db
    .update(statementLines)
    .set({ status: 'ignored', dismissedReason: reason, dismissedAt: now })
    .where(and(eq(statementLines.id, id), eq(statementLines.status, 'open')))
    .returning();
  return rows[0];
}

/** Ignored -> open, once: undefined when the line is not dismissed. */
export async function restoreLine(db: DbOrTx, id: string) {
  const rows = await db
    .update(statementLines)
    .set({ status: 'open', dismissedReason: null, dismissedAt: null })
    .where(and(eq(statementLines.id, id), eq(statementLines.status, 'ignored')))
    .returning();
  return rows[0];
}

/** One page of the dismissed lines, most recently dismissed first. */
export async function dismissedLinesPage(
  db: DbOrTx,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ rows: StatementLineRow[]; total: number }> {
  const ignored = eq(statementLines.status, 'ignored');
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(statementLines)
      .where(ignored)
      .orderBy(desc(statementLines.dismissedAt), asc(statementLines.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(statementLines).where(ignored),
  ]);
  return { rows, total: counted?.n ?? 0 };
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
