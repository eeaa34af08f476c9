import type { Currency } from './constants';
import { formatCents } from './format-cents';
import { convertAmount } from './received';
import type { ProposedPledge } from './schemas/statement';

/**
 * What the line's money is to the pledge, in words: "exact amount", "short by J$3,000", "over by
 * US$5"; in the other currency first "J$3,040 ≈ US$20 at the campaign rate". A part-paid pledge is
 * compared with what it still owes.
 */
export function describeDifference(
  line: { amountCents: number; currency: Currency },
  pledge: ProposedPledge,
): string {
  const parts: string[] = [];
  let cents = line.amountCents;
  if (line.currency !== pledge.currency) {
    cents = convertAmount(line.amountCents, line.currency, pledge.currency);
    parts.push(
      `${formatCents(line.amountCents, line.currency)} paid on a ${formatCents(pledge.amount * 100, pledge.currency)} pledge: ${formatCents(line.amountCents, line.currency)} ≈ ${formatCents(cents, pledge.currency)} at the campaign rate`,
    );
  }
  if (pledge.paymentState === 'paid') {
    parts.push('this pledge is already paid in full');
    return parts.join('; ');
  }
  const owed = pledge.outstandingAmount * 100;
  const diff = cents - owed;
  const still =
    pledge.paymentState === 'part-paid'
      ? ` of the ${formatCents(owed, pledge.currency)} still owed`
      : '';
  parts.push(
    diff === 0
      ? `exact amount${still}`
      : diff < 0
        ? `short by ${formatCents(-diff, pledge.currency)}${still}`
        : `over by ${formatCents(diff, pledge.currency)}${still}`,
  );
  return parts.join('; ');
}
