import { afterAll } from 'vitest';
import { DEFAULT_CURRENCIES, DEFAULT_GOAL, setCampaignPrices } from '@shared/prices';
import type { Campaign } from '@shared/schemas/campaign';
import type { Progress } from '@shared/schemas/progress';
import { describe, expect, test } from '../tests/support/fixtures';
import { eventually } from '../tests/support/net';
import { OTHER_CAMPAIGN, writeOtherCampaign } from '../tests/support/other-campaign';
import { startTestSmtp } from '../tests/support/smtp';
import { applyConfiguredGoal, readProgressRow } from './modules/progress/repo';

/**
 * Another charity's drive, by campaign.json alone: its title, prices, currencies' display, goal and
 * e-mail wording reach the pages, the API and the e-mails.
 */
const campaignConfig = writeOtherCampaign();
const smtp = await startTestSmtp();
afterAll(async () => {
  // Prices are per process (shared/prices.ts) and test files share workers: back to the defaults.
  setCampaignPrices({ currencies: DEFAULT_CURRENCIES, goal: DEFAULT_GOAL });
  await smtp.close();
  campaignConfig.remove();
});

test.override('appOptions', {
  env: {
    CAMPAIGN_CONFIG: campaignConfig.file,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Valley <valley@campaign.test>',
    PUBLIC_URL: 'https://valley.example.org',
    RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
  },
});

/** The page's text without React's separators between adjacent text nodes. */
const text = (html: string) => html.replaceAll('<!-- -->', '');

describe('a campaign.json with other prices, goal and texts', () => {
  test('the home page shows its title, description, line and unit prices', async ({ app }) => {
    const html = text(await (await app.request('/')).text());
    expect(html).toContain('<title>Valley Flood Kitchens — Pledge meals</title>');
    expect(html).toContain(
      '<meta name="description" content="Pledge meal containers for the valley: every CA$0.25 or TT$1.70 feeds one."',
    );
    // The share preview ends with the configured sentence, its placeholders filled.
    expect(html).toMatch(
      /<meta property="og:description" content="[^"]*\. Help Valley Flood Kitchens reach 1,000 meals\."/,
    );
    expect(html).toContain('Flood relief · Valley');
    expect(html).toContain('CA$0.25 or TT$1.70 provides one meal container');
    expect(html).not.toContain('US$0.11');
    expect(html).not.toContain('Hurricane relief');
  });

  test('the API counts containers at its prices against its goal', async ({ app, pledge }) => {
    const before = (await (await app.request('/api/progress')).json()) as Progress;
    expect(before.goalAmount).toBe(1000);
    const created = await pledge({ amount: 100, currency: 'USD' });
    // floor(100 × 100 / 25) and floor(100 × 100 / 170)
    expect(created.containers).toBe(400);
    expect((await pledge({ amount: 100, currency: 'JMD' })).containers).toBe(58);
    const after = (await (await app.request('/api/progress')).json()) as Progress;
    expect(after.currentAmount - before.currentAmount).toBe(458);
    const served = (await (await app.request('/api/campaign')).json()) as Campaign;
    expect(served.currencies.USD).toEqual(OTHER_CAMPAIGN.currencies.USD);
    expect(served.goal).toBe(1000);
  });

  test('the instructions e-mail words amounts and beneficiaries as configured', async ({
    pledge,
  }) => {
    await pledge({ email: 'valley@donors.test', amount: 50, currency: 'USD' });
    const toValley = () =>
      smtp.received.find((m) => JSON.stringify(m.to ?? '').includes('valley@donors.test'));
    await eventually(async () => toValley() !== undefined);
    const mail = toValley()!;
    expect(mail.subject).toBe(
      'Thank you for your pledge to Valley Flood Kitchens: how to complete it',
    );
    expect(mail.text).toContain('Thank you for pledging CA$50 to Valley Flood Kitchens.');
    expect(mail.text).toContain('That is 200 meal containers for families in the flooded valley.');
    expect(mail.text).not.toMatch(/US\$|J\$|hurricane/);
  });

  test('the configured goal applies at start until an owner sets one', async ({
    app,
    adminClient,
  }) => {
    const { db } = app.database;
    await applyConfiguredGoal(db, 1200);
    expect((await readProgressRow(db)).goalAmount).toBe(1200);
    const res = await adminClient.request('/api/progress', {
      method: 'PUT',
      json: { manualAdjustment: 0, goalAmount: 5000 },
    });
    expect(res.status).toBe(200);
    await applyConfiguredGoal(db, 1000);
    expect((await readProgressRow(db)).goalAmount).toBe(5000);
  });
});
