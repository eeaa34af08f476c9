import { and, asc, count, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { payments, statementImports, statementLines, statementMappings } from '../../db/schema';
import type { StatementLine } from './parse';
import type { Slicer } from './parse/slicer';

export type StatementLineRow = typeof statementLines.$inferSelect;
export type StatementMappingRow = typeof statementMappings.$inferSelect;

/** Rows per INSERT: small enough that one statement of PGlite (same thread) stays short. */
const BATCH = 50;

export async function insertImport(
  db: DbOrTx,
  values: { fileName: string | null; format: string; mappingName: string | null },
): Promise<string> {
  const [row] = await db
    .insert(statementImports)
    .values(values)
    .returning({ id: statementImports.id });
  return row!.id;
}

export async function setImportCounts(
  db: DbOrTx,
  id: string,
  counts: { creditCount: number; newCount: number },
) {
  await db.update(statementImports).set(counts).where(eq(statementImports.id, id));
}

/** Stores the lines not seen before (by fingerprint); returns the new ones' ids. */
export async function insertNewLines(
  db: DbOrTx,
  importId: string | null,
  lines: StatementLine[],
  slicer?: Slicer,
): Promise<{ id: string; fingerprint: string }[]> {
  const added: { id: string; fingerprint: string }[] = [];
  for (let i = 0; i < lines.length; i += BATCH) {
    const rows = await db
      .insert(statementLines)
      .values(
        lines.slice(i, i + BATCH).map((l) => ({
          fingerprint: l.fingerprint,
          bookedOn: l.bookedOn,
          amountCents: l.amountCents,
          currency: l.currency,
          description: l.description,
          payer: l.payer,
          position: l.position,
          raw: l.raw,
          importId,
        })),
      )
      .onConflictDoNothing({ target: statementLines.fingerprint })
      .returning({ id: statementLines.id, fingerprint: statementLines.fingerprint });
    added.push(...rows);
    await slicer?.pause();
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

/** Lines of other imports on the same days with the same amounts: possible duplicates. */
export async function earlierLinesLike(
  db: DbOrTx,
  importId: string,
  keys: { bookedOn: string; amountCents: number }[],
) {
  if (keys.length === 0) return [];
  return db
    .select({
      id: statementLines.id,
      bookedOn: statementLines.bookedOn,
      amountCents: statementLines.amountCents,
      currency: statementLines.currency,
      description: statementLines.description,
      payer: statementLines.payer,
      importedAt: statementLines.importedAt,
    })
    .from(statementLines)
    .where(
      and(
        inArray(statementLines.bookedOn, [...new Set(keys.map((k) => k.bookedOn))]),
        inArray(statementLines.amountCents, [...new Set(keys.map((k) => k.amountCents))]),
        or(isNull(statementLines.importId), ne(statementLines.importId, importId)),
        isNull(statementLines.duplicateOf),
      ),
    )
    .orderBy(asc(statementLines.importedAt), asc(statementLines.position));
}

export async function markDuplicate(db: DbOrTx, lineId: string, of: string) {
  await db.update(statementLines).set({ duplicateOf: of }).where(eq(statementLines.id, lineId));
}

export async function listMappings(db: DbOrTx): Promise<StatementMappingRow[]> {
  return db.select().from(statementMappings).orderBy(asc(statementMappings.name));
}

export async function mappingBySignature(db: DbOrTx, signature: string) {
  const [row] = await db
    .select()
    .from(statementMappings)
    .where(eq(statementMappings.signature, signature));
  return row;
}

/** Saves the mapping of a layout (by its signature), under the treasurer's name for it. */
export async function saveMapping(
  db: DbOrTx,
  values: { name: string; signature: string; mapping: unknown },
) {
  await db
    .insert(statementMappings)
    .values(values)
    .onConflictDoUpdate({
      target: statementMappings.signature,
      set: { name: values.name, mapping: values.mapping, updatedAt: sql`now()` },
    });
}

/**
 * What an import answers with: the first open lines in the review's order. The review lists the
 * newest import first, so when the new file alone fills the page, its lines by position are that
 * page: read along the (import, position) index in slices, instead of sorting every open line of
 * every import in one call that held the event loop ~200 ms at 20,000 lines. Otherwise (a smaller
 * file) the ordinary query.
 */
export async function firstOpenLinesAfterImport(
  db: DbOrTx,
  importId: string,
  slicer?: Slicer,
  limit = 2000,
): Promise<StatementLineRow[]> {
  const own: StatementLineRow[] = [];
  let after = -1;
  while (own.length < limit) {
    const slice = await db
      .select()
      .from(statementLines)
      .where(
        and(
          eq(statementLines.importId, importId),
          eq(statementLines.status, 'open'),
          gt(statementLines.position, after),
        ),
      )
      .orderBy(asc(statementLines.position))
      .limit(Math.min(500, limit - own.length));
    own.push(...slice);
    await slicer?.pause();
    if (slice.length === 0 || own.length >= limit) break;
    after = slice.at(-1)!.position;
  }
  return own.length >= limit ? own : (await openLinesPage(db, { page: 1, pageSize: limit })).rows;
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

export type StatementImportRow = typeof statementImports.$inferSelect;

/** The newest imports with the count of their lines still open and of those matched. */
export async function recentImports(db: DbOrTx, limit: number) {
  return db
    .select({
      import: statementImports,
      openLines:
        sql<number>`count(${statementLines.id}) filter (where ${statementLines.status} = 'open')::int`.mapWith(
          Number,
        ),
      matchedLines:
        sql<number>`count(${statementLines.id}) filter (where ${statementLines.status} = 'matched')::int`.mapWith(
          Number,
        ),
    })
    .from(statementImports)
    .leftJoin(statementLines, eq(statementLines.importId, statementImports.id))
    .groupBy(statementImports.id)
    .orderBy(desc(statementImports.importedAt), desc(statementImports.id))
    .limit(limit);
}

/** The import, locked until the transaction ends (two undos of one import run one after the other). */
export async function lockImport(db: DbOrTx, id: string): Promise<StatementImportRow | undefined> {
  const [row] = await db
    .select()
    .from(statementImports)
    .where(eq(statementImports.id, id))
    .for('update');
  return row;
}

export async function linesOfImport(db: DbOrTx, importId: string) {
  return db
    .select({ id: statementLines.id, status: statementLines.status })
    .from(statementLines)
    .where(eq(statementLines.importId, importId));
}

/**
 * Removes the lines of an undone import, so the same file can be imported again: the payments
 * they recorded (already reversed) keep their rows without the link, and lines of later imports
 * flagged as their duplicates lose the flag.
 */
export async function removeLines(db: DbOrTx, lineIds: string[], importId: string, now: Date) {
  if (lineIds.length > 0) {
    await db
      .update(payments)
      .set({ statementLineId: null })
      .where(inArray(payments.statementLineId, lineIds));
    await db
      .update(statementLines)
      .set({ duplicateOf: null })
      .where(inArray(statementLines.duplicateOf, lineIds));
  }
  await db.delete(statementLines).where(eq(statementLines.importId, importId));
  await db.update(statementImports).set({ undoneAt: now }).where(eq(statementImports.id, importId));
}
