import type { FastifyRequest } from 'fastify';
import type { StatementImportSummary, StatementUndoResult } from '@shared/schemas/statement';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../lib/http-error';
import { audited } from '../audit/repo';
import { activePaymentsOfLines, lockPledges } from '../pledges/repo';
import { recordPayment, reversePaymentsOfLines } from '../pledges/service';
import * as repo from './repo';

/**
 * Confirms ticked statement lines in one transaction: each line once (an open line becomes
 * matched) and its money recorded as a payment of its pledge by the one use case
 * (pledges/service.ts): locked, added atomically, audited, receipt queued. A line already matched
 * (a second tab, a re-import) or whose pledge is gone is skipped and reported. The caller kicks
 * the e-mail worker after the commit when anything was confirmed.
 */
export async function confirmLines(
  db: Db,
  request: FastifyRequest,
  lines: { lineId: string; pledgeId: string }[],
  now: Date,
): Promise<{ confirmed: string[]; skippedLines: string[] }> {
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
                // No payer or description: the bank's text names the donor (issue 28).
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
