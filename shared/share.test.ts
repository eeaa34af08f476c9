import { describe, expect, it } from 'vitest';
import { DEFAULT_CURRENCIES, DEFAULT_GOAL, setCampaignPrices } from './prices';
import { campaignText, pledgeShareMessage, progressSummary } from './share';

const shareMessage =
  'for families recovering from the hurricane in Jamaica with {campaign}. Every {unitPrice} provides one. Join me:';
const campaign = (name: string) => ({ name, shareMessage });

describe('share texts', () => {
  it('says how many containers the donor pledged, and nothing else about the pledge', () => {
    expect(pledgeShareMessage(campaign('Meals for Recovery Jamaica'), 1000)).toBe(
      'I just pledged 1,000 meal containers for families recovering from the hurricane in Jamaica with Meals for Recovery Jamaica. Every US$0.11 or J$16.72 provides one. Join me:',
    );
    expect(pledgeShareMessage(campaign('X'), 1)).toMatch(/^I just pledged 1 meal container for /);
    // Unknown (another tab, storage refused): no number.
    expect(pledgeShareMessage(campaign('X'), null)).toMatch(/^I just pledged meal containers for /);
    expect(pledgeShareMessage(campaign('X'), 0)).toMatch(/^I just pledged meal containers for /);
  });

  it('sums up the progress like the page (goal 500,000 when unset, capped percentage)', () => {
    expect(progressSummary(22_727, 500_000)).toBe(
      '22,727 of 500,000 meal containers pledged (4.5%)',
    );
    expect(progressSummary(0, 0)).toBe('0 of 500,000 meal containers pledged (0.0%)');
    expect(progressSummary(-50, 100)).toBe('0 of 100 meal containers pledged (0.0%)');
    expect(progressSummary(250, 100)).toBe('250 of 100 meal containers pledged (100.0%)');
  });

  it('fills a campaign text from the config: name, prices, currencies and goal', () => {
    const template = '{campaign}: {goal} meals, each {unitPrice}, in {currencies}. {other} stays.';
    expect(campaignText(template, { name: 'Relief' })).toBe(
      'Relief: 500,000 meals, each US$0.11 or J$16.72, in US$ or J$. {other} stays.',
    );
    try {
      setCampaignPrices({
        currencies: {
          USD: { prefix: 'CA$', unitPriceCents: 25, amountPlaceholder: '40' },
          JMD: { prefix: 'TT$', unitPriceCents: 170, amountPlaceholder: '270' },
        },
        goal: 1200,
      });
      expect(campaignText(template, { name: 'Valley' })).toBe(
        'Valley: 1,200 meals, each CA$0.25 or TT$1.70, in CA$ or TT$. {other} stays.',
      );
    } finally {
      setCampaignPrices({ currencies: DEFAULT_CURRENCIES, goal: DEFAULT_GOAL });
    }
  });
});
