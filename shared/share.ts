import { goalOrDefault, percentComplete } from './containers';
import { formatNumber } from './format';
import { campaignGoal, CURRENCIES, currencyPrefix, unitPriceText } from './prices';

/**
 * A campaign text from campaign.json with its placeholders filled: {campaign} the campaign's name,
 * {unitPrice} the price of one container in both currencies ("US$0.11 or J$16.72"), {currencies}
 * the currencies' prefixes ("US$ or J$"), {goal} the configured goal in containers ("500,000"). Texts that quote a price or the goal use these, so a
 * charity that changes its prices or goal changes every sentence with them.
 */
export function campaignText(template: string, campaign: { name: string }): string {
  return template
    .replaceAll('{campaign}', () => campaign.name)
    .replaceAll('{unitPrice}', () => unitPriceText())
    .replaceAll('{currencies}', () => CURRENCIES.map(currencyPrefix).join(' or '))
    .replaceAll('{goal}', () => formatNumber(campaignGoal()));
}

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
  return `${gift} ${campaignText(campaign.shareMessage, campaign)}`;
}
