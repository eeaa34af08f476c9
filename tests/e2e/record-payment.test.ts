import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createPledge } from './support/admin-api';
import { dialog } from './support/admin-ui';
import { loginThroughUi, seriousA11yViolations, useSite } from './support/browser';
import { type RunningServer } from './support/server';

/**
 * "Record payment" in the admin table (docs/decisions/018-recording-payments.md): Part paid and
 * Over paid with their amounts, cents kept.
 */
let server: RunningServer;
let page: Page;

useSite({}, async (site) => {
  ({ server, page } = site);
  await createPledge(server.baseUrl, { name: 'Una Short', email: 'una@example.com', amount: 50 });
  await createPledge(server.baseUrl, {
    name: 'Cents Donor',
    email: 'cents@example.com',
    amount: 100,
    currency: 'JMD',
  });
  await loginThroughUi(page, server.baseUrl);
});

const row = (name: string) => page.getByRole('table').locator('tbody tr').filter({ hasText: name });

async function record(name: string, amount: string) {
  await row(name)
    .getByRole('button', { name: `Record payment from ${name}` })
    .click();
  const d = dialog(page, 'Record Payment');
  await d.getByLabel('Amount received').fill(amount);
  await d.getByRole('button', { name: 'Record Payment' }).click();
  await d.waitFor({ state: 'hidden' });
}

describe('record payment', () => {
  it('shows Part paid with what arrived and what is still to go, then Over paid', async () => {
    await record('Una Short', '30');
    await row('Una Short').getByText('Part paid', { exact: true }).waitFor();
    await row('Una Short').getByText('US$30 of US$50 received · US$20 to go').waitFor();
    // The dialog takes the new total: US$150 in all is US$100 more than pledged.
    await record('Una Short', '150');
    await row('Una Short').getByText('Over paid', { exact: true }).waitFor();
    await row('Una Short').getByText('US$150 of US$50 received · US$100 over').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('keeps the cents of a transfer', async () => {
    await record('Cents Donor', '12.34');
    await row('Cents Donor').getByText('J$12.34 of J$100 received · J$87.66 to go').waitFor();
  });
});
