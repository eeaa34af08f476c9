import type { FastifyRequest } from 'fastify';
import type { DuplicateOf, ReviewLine } from '@shared/schemas/statement';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../lib/http-error';
import { audited } from '../audit/repo';
import * as pledgeRepo from '../pledges/repo';
import { toProposedPledge } from '../pledges/views';
import { proposeMatch, scanReferences } from './match';
import type { Slicer } from './parse/slicer';
import * as repo from './repo';

/**
 * Proposes a pledge for each line, with the reason and what differs (match.ts has the rules);
 * reads what the rules need in three queries for the whole page.
 */
export async function proposeMatches(
  tx: DbOrTx,
  rows: repo.StatementLineRow[],
  prefixes: readonly string[],
  /** After an import (up to 2,000 lines): yields to the event loop between lines. */
  slicer?: Slicer,
): Promise<ReviewLine[]> {
  const scans: ReturnType<typeof scanReferences>[] = [];
  for (const r of rows) {
    scans.push(scanReferences({ description: r.description, payer: r.payer }, prefixes));
    await slicer?.pause();
  }
  const refs = new Set(
    scans.flatMap((s) => [
      ...s.exact.map((e) => e.reference),
      ...s.near.flatMap((n) => n.candidates),
    ]),
  );
  const byReference = new Map(
    (await pledgeRepo.pledgesByReference(tx, [...refs])).map((p) => [
      p.reference,
      toProposedPledge(p),
    ]),
  );
  const pending = (
    await pledgeRepo.openPledgesByAmount(
      tx,
      rows.map((r) => ({ amount: Math.floor(r.amountCents / 100), currency: r.currency })),
    )
  ).map(toProposedPledge);
  const firsts = new Map(
    (
      await repo.linesByIds(
        tx,
        rows.map((r) => r.duplicateOf).filter((id) => id !== null),
      )
    ).map((d): [string, DuplicateOf] => [
      d.id,
      {
        id: d.id,
        bookedOn: d.bookedOn,
        amountCents: d.amountCents,
        currency: d.currency,
        payer: d.payer,
        status: d.status,
      },
    ]),
  );
  const lines: ReviewLine[] = [];
  for (const [i, r] of rows.entries()) {
    await slicer?.pause();
    const duplicateOf = r.duplicateOf ? (firsts.get(r.duplicateOf) ?? null) : null;
    const proposal = proposeMatch(
      {
        amountCents: r.amountCents,
        currency: r.currency,
        description: r.description,
        payer: r.payer,
        duplicateOf,
      },
      scans[i]!,
      { byReference, pending },
    );
    lines.push({
      id: r.id,
      bookedOn: r.bookedOn,
      amount: r.amountCents / 100,
      amountCents: r.amountCents,
      currency: r.currency,
      description: r.description,
      payer: r.payer,
      status: r.status,
      duplicateOf,
      ...proposal,
    });
  }
  return lines;
}

const lineDetails = (l: repo.StatementLineRow) => ({
  bookedOn: l.bookedOn,
  amountCents: l.amountCents,
  currency: l.currency,
  // Payer and description are left out: the bank's text names the donor; the line's
  // id leads to them while the statement is kept.
});

const STATUS_WORDS = {
  open: 'open',
  matched: 'already matched to a pledge',
  ignored: 'already dismissed',
};

/**
 * Dismisses an open line (bank interest, not a donation): it leaves the review, audited, and can
 * be restored.
 */
export async function dismissLine(
  db: Db,
  request: FastifyRequest,
  id: string,
  reason: string,
  now: Date,
) {
  return audited(db, request, async (tx) => {
    const line = await repo.dismissLine(tx, id, reason, now);
    if (!line) {
      const current = await repo.findLine(tx, id);
      if (!current) throw notFound('Statement line not found');
      throw conflict(`This line is ${STATUS_WORDS[current.status]}.`);
    }
    return {
      result: line,
      audit: {
        action: 'statement.dismiss',
        targetType: 'statement_line',
        targetId: id,
        details: { reason, ...lineDetails(line) },
      },
    };
  });
}

/** Puts a dismissed line back in the review (audited). */
export async function restoreLine(db: Db, request: FastifyRequest, id: string) {
  return audited(db, request, async (tx) => {
    const before = await repo.findLine(tx, id);
    if (!before) throw notFound('Statement line not found');
    const line = await repo.restoreLine(tx, id);
    if (!line) throw conflict(`This line is ${STATUS_WORDS[before.status]}, not dismissed.`);
    return {
      result: line,
      audit: {
        action: 'statement.restore',
        targetType: 'statement_line',
        targetId: id,
        details: { dismissedReason: before.dismissedReason, ...lineDetails(line) },
      },
    };
  });
}
