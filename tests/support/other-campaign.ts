import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import campaign from '../../config/campaign.json';

/**
 * Another charity's drive, by campaign.json alone: other name, texts, prices, currency prefixes
 * and goal. The API test (server/campaign-config.test.ts) and the browser test
 * (tests/e2e/campaign-config.test.ts) both run the site on it.
 */
export const OTHER_CAMPAIGN = {
  ...campaign,
  name: 'Valley Flood Kitchens',
  siteTitle: 'Valley Flood Kitchens — Pledge meals',
  siteDescription: 'Pledge meal containers for the valley: every {unitPrice} feeds one.',
  shareDescription: 'Help {campaign} reach {goal} meals.',
  eyebrow: 'Flood relief · Valley',
  lightbox: { ...campaign.lightbox, howYouCanHelp: 'Pledge, then pay by bank transfer.' },
  beneficiaries: 'families in the flooded valley',
  shareMessage: 'with {campaign}: every {unitPrice} feeds one.',
  currencies: {
    USD: { prefix: 'CA$', unitPriceCents: 25, amountPlaceholder: '40' },
    JMD: { prefix: 'TT$', unitPriceCents: 170, amountPlaceholder: '270' },
  },
  goal: 1000,
};

/** OTHER_CAMPAIGN written to a temporary campaign.json (for CAMPAIGN_CONFIG); `remove` deletes it. */
export function writeOtherCampaign(): { file: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relief-campaign-'));
  const file = path.join(dir, 'campaign.json');
  writeFileSync(file, JSON.stringify(OTHER_CAMPAIGN));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
