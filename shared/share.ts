import { goalOrDefault, percentComplete } from './containers';
import { formatNumber } from './format';
import { unitPriceText } from './prices';

/** The progress as one line: "12,345 of 500,000 meal containers pledged (2.5%)". */
export function progressSummary(currentAmount: number, goalAmount?: number): string {
  const goal = goalOrDefault(goalAmount);
  const pct = percentComplete(currentAmount, goal).toFixed(1);
  return `${formatNumber(Math.max(0, currentAmount))} of ${formatNumber(goal)} meal containers pledged (${pct}%)`;
}

/**
 * The message a donor shares from the thank-you page. Only the number of containers of their own
 * pledge (no name, no amount of money, no reference or status link): what they chose to share is
 * that they gave, and how many meals it carries.
 */
export function pledgeShareMessage(
  campaign: { name: string; shareMessage: string },
  containers?: number | null,
): string {
  const gift =
    containers && containers > 0
      ? `I just pledged ${formatNumber(containers)} meal container${containers === 1 ? '' : 's'}`
      : 'I just pledged meal containers';
  const rest = campaign.shareMessage
    .replaceAll('{campaign}', () => campaign.name)
    .replaceAll('{unitPrice}', () => unitPriceText());
  return `${gift} ${rest}`;
}
