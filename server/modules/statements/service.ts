import type { FastifyRequest } from 'fastify';
import { DEFAULT_REFERENCE_PREFIX } from '@shared/payment-reference';
import {
  statementMappingSchema,
  type DismissedLinesPage,
  type ReviewLinesPage,
  type StatementImportOptions,
  type StatementImportResult,
  type StatementImportSummary,
  type StatementMapping,
  type StatementUndoResult,
} from '@shared/schemas/statement';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import * as adminRepo from '../admin/repo';
import { audited } from '../audit/repo';
import { activePaymentsOfLines, lockPledges } from '../pledges/repo';
import { recordPayment, reversePaymentsOfLines } from '../pledges/service';
import { defaultName, openStatement, previewOf, readLines, storeLines } from './import';
import { Slicer } from './parse/slicer';
import * as repo from './repo';
import { proposeMatches } from './review';

/**
 * Bank-statement use cases (docs/decisions/013-statement-matching.md): preview and import of a
 * file, the review's pages, the batch confirm and the undo of an import. Dismissing and restoring
 * a line live in ./review.ts.
 */

/**
 * Confirms ticked statement lines in one transaction: each line once (an open line becomes
 * matched) and its money recorded as a payment of its pledge by the one use case
 * (pledges/service.ts): locked, added atomically, audited, receipt queued. A line already matched
 * (a second tab, a re-import) or whose pledge is gone is skipped and reported. The caller kicks
 * the e-mail worker after the commit when anything was confirmed. A batch that names one line
 * twice is refused (400) before anything is written.
 */
export async function confirmLines(
  db: Db,
  request: FastifyRequest,
  lines: { lineId: string; pledgeId: string }[],
  now: Date,
): Promise<{ confirmed: string[]; skippedLines: string[] }> {
  if (new Set(lines.map((l) => l.lineId)).size !== lines.length)
    throw badRequest('A statement line can confirm only one pledge');
  return db.transaction(async (tx) => {
    const confirmed: string[] = [];
    const skippedLines: string[] = [];
    // Every pledge of the batch locked first, in id order (no deadlock with another batch); a
    // line is never marked matched for a pledge that is gone.
    const existing = new Set(
      (await lockPledges(tx, [...new Set(lines.map((l) => l.pledgeId))])).map((p) => p.id),
    );
    for (const { lineId, pledgeId } of lines) {
      const line = existing.has(pledgeId)
        ? await repo.markMatched(tx, lineId, pledgeId, now)
        : undefined;
      const recorded = line
        ? await recordPayment(tx, {
            pledgeId,
            amountMinor: line.amountCents,
            currency: line.currency,
            source: 'statement',
            bookedOn: line.bookedOn,
            statementLineId: line.id,
            actor: request,
            now,
            auditDetails: {
              statementLine: {
                id: line.id,
                bookedOn: line.bookedOn,
                amountMinor: line.amountCents,
                currency: line.currency,
                // No payer or description: the bank's text names the donor.
              },
            },
          })
        : undefined;
      if (recorded) confirmed.push(pledgeId);
      else skippedLines.push(lineId);
    }
    return { confirmed, skippedLines };
  });
}

/** The newest imports, for the review's "Recent imports" (each can be undone). */
export async function recentImports(db: DbOrTx, limit = 10): Promise<StatementImportSummary[]> {
  return (await repo.recentImports(db, limit)).map((r) => ({
    id: r.import.id,
    fileName: r.import.fileName,
    format: r.import.format,
    importedAt: r.import.importedAt.toISOString(),
    credits: r.import.creditCount,
    newLines: r.import.newCount,
    openLines: r.openLines,
    matchedLines: r.matchedLines,
    undoneAt: r.import.undoneAt ? r.import.undoneAt.toISOString() : null,
  }));
}

/**
 * Undoes a whole import (a wrong file, the wrong account, a mapping read the wrong way): in one
 * transaction every payment its lines recorded is reversed through the payments use case (each
 * audited as payment.reverse, the pledge's money taken off atomically, a pledge left with nothing
 * pending again), its lines are removed so that the file can be imported again, and one
 * statement.undo entry says what changed. A second undo of the same import is refused (409).
 * No e-mail: the donor's receipt was for money the treasurer now says did not arrive; telling the
 * donor is a person's call.
 */
export async function undoImport(
  db: Db,
  request: FastifyRequest,
  importId: string,
  now: Date,
): Promise<StatementUndoResult> {
  return audited(db, request, async (tx) => {
    const row = await repo.lockImport(tx, importId);
    if (!row) throw notFound('Statement import not found');
    if (row.undoneAt) throw conflict('This import was already undone.');
    const lines = await repo.linesOfImport(tx, importId);
    const lineIds = lines.map((l) => l.id);
    const paid = await activePaymentsOfLines(tx, lineIds);
    const changed = await reversePaymentsOfLines(tx, lineIds, { actor: request, now });
    await repo.removeLines(tx, lineIds, importId, now);
    const result: StatementUndoResult = {
      id: importId,
      linesRemoved: lines.length,
      paymentsReversed: paid.length,
      pledgesChanged: changed.length,
    };
    return {
      result,
      audit: {
        action: 'statement.undo',
        targetType: 'statement',
        targetId: importId,
        details: {
          fileName: row.fileName,
          importedAt: row.importedAt.toISOString(),
          linesRemoved: result.linesRemoved,
          paymentsReversed: result.paymentsReversed,
          pledges: changed.map((p) => p.reference),
        },
      },
    };
  });
}

/**
 * The payment-reference prefixes a line's text is searched for: the campaign's and the default
 * one (pledges made before a campaign set its own).
 */
export function referencePrefixes(campaignPrefix: string): string[] {
  return [...new Set([campaignPrefix, DEFAULT_REFERENCE_PREFIX])];
}

const MAPPING_SETTING = 'statement_mapping';

async function rememberedMapping(db: DbOrTx): Promise<Partial<StatementMapping> | undefined> {
  const raw = await adminRepo.getSetting(db, MAPPING_SETTING);
  if (!raw) return undefined;
  const parsed = statementMappingSchema.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : undefined;
}

/** The columns, first rows and matching saved mapping of a file (bytes, or base64 in JSON). */
export async function previewStatement(
  db: Db,
  bytes: Buffer | string,
  firstRowIsData: boolean | undefined,
) {
  const opened = await openStatement(bytes, firstRowIsData, new Slicer());
  return previewOf(db, opened, await rememberedMapping(db));
}

/** Reads, stores and proposes matches for a file's credits; audited as one import. */
export async function importStatement(
  db: Db,
  request: FastifyRequest,
  bytes: Buffer | string,
  options: StatementImportOptions,
  prefixes: string[],
): Promise<StatementImportResult> {
  const { mapping, fileName } = options;
  const slicer = new Slicer();
  const opened = await openStatement(bytes, mapping?.firstRowIsData, slicer);
  const read = await readLines(opened, mapping, slicer);
  // The name given, else the saved mapping's of this layout, else a default.
  const mappingName =
    opened.format === 'csv'
      ? (options.mappingName ??
        (await repo.mappingBySignature(db, opened.csv.signature))?.name ??
        defaultName(opened.csv))
      : null;
  const skipped = read.skippedBy.moneyOut + read.skippedBy.notCompleted + read.skippedBy.other;
  const stored = await audited(db, request, async (tx) => {
    const importId = await repo.insertImport(tx, {
      fileName: fileName ?? null,
      format: opened.format,
      mappingName,
    });
    const { added, duplicates } = await storeLines(tx, importId, read.lines, prefixes, slicer);
    await repo.setImportCounts(tx, importId, {
      creditCount: read.lines.length,
      newCount: added.size,
    });
    if (opened.format === 'csv' && mapping)
      await repo.saveMapping(tx, {
        name: mappingName!,
        signature: opened.csv.signature,
        mapping: { ...mapping, firstRowIsData: opened.csv.firstRowIsData },
      });
    return {
      result: { importId, added, duplicates },
      audit: {
        action: 'statement.import',
        targetType: 'statement',
        targetId: importId,
        details: {
          fileName: fileName ?? null,
          format: opened.format,
          mappingName,
          fileLines: read.fileLines,
          credits: read.lines.length,
          newLines: added.size,
          alreadyImported: read.lines.length - added.size,
          possibleDuplicates: duplicates,
          skipped: read.skippedBy,
          refused: read.refused.length,
        },
      },
    };
  });
  const open = await repo.firstOpenLinesAfterImport(db, stored.importId, slicer);
  const lines = await proposeMatches(db, open, prefixes, slicer);
  const pledges = new Set(
    lines.filter((l) => stored.added.has(l.id) && l.pledge).map((l) => l.pledge!.id),
  );
  return {
    importId: stored.importId,
    format: opened.format,
    fileLines: read.fileLines,
    credits: read.lines.length,
    newLines: stored.added.size,
    alreadyImported: read.lines.length - stored.added.size,
    possibleDuplicates: stored.duplicates,
    skipped,
    skippedBy: read.skippedBy,
    refused: read.refused,
    pledges: pledges.size,
    lines,
  };
}

/** The lines still open (imported earlier, not yet matched), one page with fresh proposals. */
export async function reviewLines(
  db: Db,
  { page, pageSize }: { page: number; pageSize: number },
  prefixes: string[],
): Promise<ReviewLinesPage> {
  const { rows, total } = await repo.openLinesPage(db, { page, pageSize });
  return { lines: await proposeMatches(db, rows, prefixes), total, page, pageSize };
}

/** The dismissed lines (no gift: bank interest, ...), one page, each with its reason. */
export async function dismissedLines(
  db: Db,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<DismissedLinesPage> {
  const { rows, total } = await repo.dismissedLinesPage(db, { page, pageSize });
  return {
    lines: rows.map((l) => ({
      id: l.id,
      bookedOn: l.bookedOn,
      amountCents: l.amountCents,
      currency: l.currency,
      description: l.description,
      payer: l.payer,
      reason: l.dismissedReason ?? '',
      dismissedAt: (l.dismissedAt ?? l.importedAt).toISOString(),
    })),
    total,
    page,
    pageSize,
  };
}
