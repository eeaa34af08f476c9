import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOtherCampaign } from '../support/other-campaign';
import { screenshot } from './support/admin-api';
import { seriousA11yViolations, useSite } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * Another charity's drive by campaign.json alone, as a donor sees it: its line, prices, currency
 * prefixes, example amounts and goal on the home page and in the pledge dialog.
 */
const campaignConfig = writeOtherCampaign();
afterAll(() => campaignConfig.remove());

let server: RunningServer;
let page: Page;
useSite({ env: () => ({ CAMPAIGN_CONFIG: campaignConfig.file }) }, (s) => {
  ({ server, page } = s);
});

describe('a campaign.json with other prices and goal', () => {
  it('shows its line, unit prices and goal on the home page', async () => {
    await page.goto(server.baseUrl);
    await page.getByRole('heading', { level: 1, name: 'Valley Flood Kitchens' }).waitFor();
    expect(await page.title()).toBe('Valley Flood Kitchens — Pledge meals');
    const main = await page.getByRole('main').innerText();
    expect(main).toContain('Flood relief · Valley'.toUpperCase());
    expect(main).toContain('CA$0.25 or TT$1.70 provides one meal container');
    expect(main).toMatch(/of a\s+1,000\s+container goal/);
    expect(main).not.toContain('US$');
    await screenshot(page, 'campaign-config-home', { settleMs: 1200 });
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('prices the pledge dialog in its currencies', async () => {
    await page.getByRole('button', { name: 'Pledge Now' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Make a Pledge' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      'Every CA$0.25 or TT$1.70 you pledge provides one biodegradable meal container.',
    );
    const amount = dialog.getByLabel('Pledge Amount');
    expect(await amount.getAttribute('placeholder')).toBe('40');
    await dialog.getByText('CA$', { exact: true }).waitFor();
    await amount.fill('100');
    const estimate = dialog.getByTestId('pledge-estimate');
    // floor(100 × 100 / 25) = 400 containers, 40% of the 1,000 goal
    expect(await estimate.innerText()).toMatch(/400 meal containers/);
    expect(await estimate.innerText()).toContain('40.000%');
    await dialog.getByRole('button', { name: 'JMD' }).click();
    await dialog.getByText('TT$', { exact: true }).waitFor();
    expect(await amount.getAttribute('placeholder')).toBe('270');
    // floor(100 × 100 / 170) = 58
    expect(await estimate.innerText()).toMatch(/58 meal containers/);
    await screenshot(page, 'campaign-config-pledge-dialog');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
