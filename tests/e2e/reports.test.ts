import { sql } from 'drizzle-orm';
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/client';
import { preparedDataDir } from '../support/server-process';
import { screenshot } from './support/admin-api';
import {
  loginThroughUi,
  openBrowser,
  seriousA11yViolations,
  skipLightbox,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * The Reports tab: the admin opens it with seeded data, sees the charts and their
 * tables, and follows an age of owed money to the pledge table filtered to it; axe stays clean.
 * The data is written into the server's database before it starts, with dates weeks back, as the
 * API can only make pledges dated now.
 */
let server: RunningServer;
let dataDir: string;
let page: Page;
let closeBrowser: () => Promise<void>;

/** [name, days ago, amount, currency, paid cents (pledge currency), days after pledge, last reminder] */
const SEED: [string, number, number, 'USD' | 'JMD', number, number, number][] = [
  ['Report Ada', 2, 110, 'USD', 0, 0, 0],
  ['Report Ben', 4, 3344, 'JMD', 334_400, 1, 0],
  ['Report Cy', 10, 55, 'USD', 0, 0, 1],
  ['Report Dee', 13, 220, 'USD', 22_000, 9, 1],
  ['Report Eve', 19, 1672, 'JMD', 83_600, 15, 1],
  ['Report Fay', 26, 110, 'USD', 11_000, 23, 2],
  ['Report Gus', 33, 440, 'USD', 0, 0, 2],
  ['Report Hal', 50, 5016, 'JMD', 501_600, 45, 3],
  ['Report Ivy', 47, 165, 'USD', 0, 0, 3],
  ['Report Jo', 68, 330, 'USD', 0, 0, 3],
];
const UNIT = { USD: 11, JMD: 1672 };
const DAY = 24 * 3600_000;

beforeAll(async () => {
  dataDir = preparedDataDir('relief-e2e-reports-');
  const database = await openPglite(dataDir, false);
  const now = Date.now();
  for (const [name, ago, amount, currency, paid, after, reminded] of SEED) {
    const at = new Date(now - ago * DAY);
    const id = crypto.randomUUID();
    await database.db.execute(sql`
      insert into pledges (id, name, email, amount, currency, containers, is_paid, created_at,
        received_minor, amount_received, currency_received, received_containers,
        amount_received_minor, payment_confirmed_at)
      values (${id}, ${name}, ${`${name.split(' ')[1]!.toLowerCase()}@report.test`}, ${amount},
        ${currency}, ${Math.floor((amount * 100) / UNIT[currency])}, ${paid > 0},
        ${at.toISOString()}::timestamptz, ${paid || null}, ${paid ? Math.floor(paid / 100) : null},
        ${paid ? currency : null}, ${paid ? Math.floor(paid / UNIT[currency]) : null},
        ${paid || null}, ${paid ? new Date(at.getTime() + after * DAY).toISOString() : null}::timestamptz)`);
    for (let step = 1; step <= reminded; step += 1) {
      const sent = new Date(at.getTime() + [0, 7, 21, 42][step]! * DAY).toISOString();
      await database.db.execute(sql`
        insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
        values (${id}, 'reminder', ${step}, ${sent}::timestamptz, ${sent}::timestamptz,
          ${sent}::timestamptz)`);
    }
    if (paid) {
      // The same time of day as the pledge: exactly `after` days later in any zone.
      const on = new Date(at.getTime() + after * DAY);
      await database.db.execute(sql`
        insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on,
          source, recorded_at)
        values (${id}, ${paid}, ${currency}, ${paid},
          (${on.toISOString()}::timestamptz at time zone 'America/Jamaica')::date, 'record',
          ${on.toISOString()}::timestamptz)`);
    }
  }
  await database.close();
  server = await startServer({ DATA_DIR: dataDir });
  const browser = await openBrowser();
  page = browser.page;
  closeBrowser = browser.close;
  await skipLightbox(browser.context);
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the Reports tab', () => {
  it('shows each chart with its table, and an age opens the filtered pledge table', async () => {
    await loginThroughUi(page, server.baseUrl);
    await page.getByRole('tab', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Pledged and received over time' }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin?tab=reports`);

    for (const [heading, chart] of [
      ['Pledged and received over time', 'Meal containers pledged and received, cumulative by day'],
      [
        'Fulfilment rate by week pledged',
        'Share of the pledged meal containers received, by the week the pledges were made',
      ],
      ['Outstanding money by age', 'Meal containers still owed, by the age of the pledge'],
      [
        'Payments by the last reminder before them',
        'Number of payments, by the last reminder sent before each',
      ],
    ] as const) {
      const section = page.getByRole('region', { name: heading });
      await section.getByRole('img', { name: chart }).waitFor();
      expect(await section.getByRole('table').count(), heading).toBe(1);
      const csv = section.getByRole('link', { name: `Download CSV: ${heading}` });
      expect(await csv.getAttribute('href')).toMatch(/^\/api\/admin\/reports\/fulfilment\.csv\?/);
    }

    // The numbers: 10 pledges over 10 weeks, 4 paid in full, 6 still owing.
    const ages = page.getByRole('region', { name: 'Outstanding money by age' }).getByRole('table');
    const ageRow = (label: string) => ages.getByRole('row').filter({ hasText: label });
    expect(await ageRow('0–7 days').getByRole('cell').first().innerText()).toBe('1');
    expect(await ageRow('8–30 days').getByRole('cell').first().innerText()).toBe('2');
    expect(await ageRow('31–60 days').getByRole('cell').first().innerText()).toBe('2');
    expect(await ageRow('Over 60 days').getByRole('cell').first().innerText()).toBe('1');
    const median = page.getByRole('region', { name: 'Days from pledge to payment' });
    // Ben 1, Dee 9, Fay 23, Hal 45 days: the median is 16.
    expect(await median.getByText(/median, over 4 pledges paid in full/).innerText()).toContain(
      '16 days',
    );
    const reminders = page
      .getByRole('region', { name: 'Payments by the last reminder before them' })
      .getByRole('table');
    for (const [label, n] of [
      ['No reminder', '1'],
      ['1st reminder', '2'],
      ['2nd reminder', '1'],
      ['3rd reminder', '1'],
    ]) {
      expect(
        await reminders
          .getByRole('row')
          .filter({ hasText: label! })
          .getByRole('cell')
          .first()
          .innerText(),
      ).toBe(n);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'admin-reports', { fullPage: true });

    // A CSV comes down with the admin's session.
    const download = await page.evaluate(async () => {
      const res = await fetch('/api/admin/reports/fulfilment.csv?table=outstanding');
      return { status: res.status, text: await res.text() };
    });
    expect(download.status).toBe(200);
    expect(download.text).toContain('31–60 days,2,605.00,0.00,5500');

    // "31–60 days" opens the pledge table filtered to it.
    await ageRow('31–60 days')
      .getByRole('link', { name: /31–60 days/ })
      .click();
    await page.getByRole('heading', { name: 'Pledge Management' }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin?age=31-60`);
    expect(await page.getByLabel('Money owed for').inputValue()).toBe('31-60');
    const table = page.getByRole('table', { name: /Pledges, sorted/ });
    // The unfiltered page stays on screen until the filtered one arrives: wait for it to go.
    await table.getByRole('row').filter({ hasText: 'Report Ben' }).waitFor({ state: 'detached' });
    await table.getByRole('row').filter({ hasText: 'Report Gus' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Report Ivy' }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'Report' }).count()).toBe(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'admin-pledges-age-filter');

    // The address opens the same view: the filter comes back on a reload.
    await page.reload();
    await table.getByRole('row').filter({ hasText: 'Report Gus' }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'Report' }).count()).toBe(2);
    // "Any age" shows every pledge again.
    await page.getByLabel('Money owed for').selectOption('');
    await table.getByRole('row').filter({ hasText: 'Report Ben' }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin`);
  });
});
