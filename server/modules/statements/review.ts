import type { ReviewLine } from '@shared/schemas/statement';
import { formatMoney } from '@shared/format';
import type { DbOrTx } from '../../db/client';
import * as pledgeRepo from '../pledges/repo';
import { CLOSE_NAME, nameCloseness, referencesIn } from './match';
import type * as repo from './repo';

/** Proposes a pledge for each open line, with the reason. */
export async function proposeMatches(
  tx: DbOrTx,
  rows: repo.StatementLineRow[],
  prefixes: readonly string[],
): Promise<ReviewLine[]> {
  const refsPerLine = rows.map((r) => referencesIn(`${r.description} ${r.payer}`, prefixes));
  const byRef = new Map(
    (await pledgeRepo.pledgesByReference(tx, [...new Set(refsPerLine.flat())])).map((p) => [
      p.reference,
      p,
    ]),
  );
  const candidates = await pledgeRepo.openPledgesByAmount(
    tx,
    rows.map((r) => ({ amount: Math.floor(r.amountCents / 100), currency: r.currency })),
  );
  return rows.map((r, i) => {
    const amount = Math.floor(r.amountCents / 100);
    const base = {
      id: r.id,
      bookedOn: r.bookedOn,
      amount,
      currency: r.currency,
      description: r.description,
      payer: r.payer,
      status: r.status,
    };
    const toProposed = (p: pledgeRepo.PledgeRow) => {
      const a = pledgeRepo.toAdminPledge(p);
      return {
        id: p.id,
        name: p.name,
        reference: p.reference,
        amount: p.amount,
        currency: p.currency,
        paymentState: a.paymentState,
        outstandingAmount: a.outstandingAmount,
      };
    };
    const refs = refsPerLine[i]!;
    const found = refs.map((ref) => byRef.get(ref)).filter((p) => p !== undefined);
    if (found.length > 0) {
      const p = found[0]!;
      const state = pledgeRepo.toAdminPledge(p).paymentState;
      return {
        ...base,
        confidence: 'certain' as const,
        why:
          `Reference ${p.reference} is in the ${r.description.toUpperCase().includes(p.reference.slice(0, 3)) ? 'description' : 'payer field'}` +
          (state === 'paid' ? '; this pledge is already paid in full' : ''),
        pledge: toProposed(p),
      };
    }
    const sameAmount = candidates.filter((p) => p.amount === amount && p.currency === r.currency);
    const scored = sameAmount
      .map((p) => ({ p, score: nameCloseness(`${r.payer} ${r.description}`, p.name) }))
      .filter((s) => s.score >= CLOSE_NAME)
      .sort((a, b) => b.score - a.score || a.p.createdAt.getTime() - b.p.createdAt.getTime());
    if (scored.length > 0) {
      const { p } = scored[0]!;
      const others =
        scored.length > 1 ? ` (${scored.length} pledges fit; the oldest is shown)` : '';
      return {
        ...base,
        confidence: 'likely' as const,
        why: `Same amount (${formatMoney(amount, r.currency)}) and payer "${r.payer || r.description}" is close to "${p.name}"${others}`,
        pledge: toProposed(p),
      };
    }
    const why =
      refs.length > 0
        ? `Reference ${refs[0]} belongs to no pledge`
        : sameAmount.length > 0
          ? `${sameAmount.length} pending pledge(s) of ${formatMoney(amount, r.currency)}, but no donor name is close to "${r.payer || r.description}"`
          : `No reference, and no pending pledge of ${formatMoney(amount, r.currency)}`;
    return { ...base, confidence: 'unmatched' as const, why, pledge: null };
  });
}
