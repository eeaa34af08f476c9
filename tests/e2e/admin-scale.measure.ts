/**
 * Measures the admin dashboard with 100,000 pledges (docs/decisions/006-admin-table-paging.md).
 * Not part of `npm test` (it takes a minute); run it after `npm run build`:
 *
 *   npx tsx tests/e2e/admin-scale.measure.ts [pglite|postgres] [count]
 *
 * Seeds the pledges with one SQL statement into a fresh database, starts the production server on
 * it, then times the table's API calls and the page in Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../server/db/client';
import { runMigrations } from '../../server/db/migrate';
import { ADMIN_DATABASE_URL } from '../setup/services';
import { adminCookie } from './support/admin-api';
import { loginThroughUi, openBrowser, skipLightbox } from './support/browser';
import { startServer } from './support/server';

const kind = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const COUNT = Number(process.argv[3] ?? 100_000);

/** Names, e-mails, both currencies, a third paid, a tenth anonymous, one per minute back in time. */
const SEED_SQL = `
insert into pledges (name, email, amount, currency, containers, is_anonymous, is_paid,
                     payment_confirmed_at, created_at)
select 'Donor ' || g, 'donor' || g || '@example.com', a, c,
       floor(a * 100 / case c when 'USD' then 11 else 1672 end),
       g % 10 = 0, g % 3 = 0, case when g % 3 = 0 then now() end,
       now() - make_interval(mins => g)
from (select g, (g * 7919 % 5000) + 1 as a,
             case when g % 4 = 0 then 'JMD' else 'USD' end as c
      from generate_series(1, ${COUNT}) g) s`;

async function seed(database: Database) {
  await runMigrations(database);
  const t0 = performance.now();
  if (database.pglite) await database.pglite.exec(SEED_SQL);
  else await database.pool!.query(SEED_SQL);
  if (database.pglite) await database.pglite.exec('analyze pledges');
  else await database.pool!.query('analyze pledges');
  console.log(`seeded ${COUNT} pledges in ${Math.round(performance.now() - t0)} ms (${kind})`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeIt(runs: number, fn: () => Promise<unknown>) {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return { median: Math.round(median(times)), max: Math.round(Math.max(...times)) };
}

async function main() {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-scale-'));
    const database = await openPglite(dataDir, false);
    await seed(database);
    await database.close();
    env = { DATA_DIR: dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  } else {
    const name = `relief_scale_${process.pid}`;
    const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString());
    await seed(database);
    await database.close();
    env = { DATABASE_URL: url.toString() };
    cleanup = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }

  const t0 = performance.now();
  const server = await startServer(env);
  console.log(`server up in ${Math.round(performance.now() - t0)} ms`);
  try {
    const cookie = await adminCookie(server.baseUrl);
    const api = (qs: string) => async () => {
      const res = await fetch(`${server.baseUrl}/api/admin/pledges?${qs}`, { headers: { cookie } });
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      return res.json();
    };
    const cases: [string, string][] = [
      ['first page (date desc)', 'pageSize=25'],
      ['page 4,000 (the last)', 'pageSize=25&page=4000'],
      ['sort by amount desc', 'pageSize=25&sort=amount'],
      ['sort by amount asc, page 100', 'pageSize=25&sort=amount&order=asc&page=100'],
      ['paid only', 'pageSize=25&status=paid'],
      ['search "donor 4242"', 'pageSize=25&search=donor%204242'],
      ['search "example.com" (matches all)', 'pageSize=25&search=example.com'],
      ['search + pending + amount', 'pageSize=25&search=donor%2099&status=pending&sort=amount'],
    ];
    console.log('\nGET /api/admin/pledges (7 runs after a warm-up)');
    for (const [label, qs] of cases) {
      const t = await timeIt(7, api(qs));
      console.log(`  ${label.padEnd(38)} median ${t.median} ms, max ${t.max} ms`);
    }

    // Admin writes: each one also refreshes the server's public snapshot.
    const page1 = (await api('pageSize=25&status=pending')()) as { items: { id: string }[] };
    const ids = page1.items.map((p) => p.id);
    const write = async (method: string, url: string, body?: unknown) => {
      const t0 = performance.now();
      const res = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return performance.now() - t0;
    };
    const confirms: number[] = [];
    const edits: number[] = [];
    const deletes: number[] = [];
    for (let i = 0; i < 5; i++) {
      confirms.push(await write('PUT', `/api/pledges/${ids[i]}/confirm`, {}));
      edits.push(
        await write('PATCH', `/api/pledges/${ids[5 + i]}`, { updates: { amount: 777 + i } }),
      );
      deletes.push(await write('DELETE', `/api/pledges/${ids[10 + i]}`));
    }
    console.log(
      `\nAdmin writes (5 each): Mark Paid median ${Math.round(median(confirms))} ms, edit ${Math.round(median(edits))} ms, delete ${Math.round(median(deletes))} ms`,
    );
    const remaining = COUNT - 5;

    const exportTime = await timeIt(1, async () => {
      const res = await fetch(`${server.baseUrl}/api/pledges/export`, { headers: { cookie } });
      return (await res.arrayBuffer()).byteLength;
    });
    console.log(`\nGET /api/pledges/export: ${exportTime.median} ms`);

    const browser = await openBrowser();
    await skipLightbox(browser.context);
    const page = browser.page;
    await loginThroughUi(page, server.baseUrl);
    const total = remaining.toLocaleString('en-US');

    /**
     * Milliseconds from `since` (page time) until the page shows `text`, checked on every frame
     * (Playwright's own waits poll at up to 1 s intervals, too coarse to time a render).
     */
    const shownAfter = async (text: string, since: number) => {
      const handle = await page.waitForFunction(
        ([t, s]) => (document.body.innerText.includes(t) ? performance.now() - s : false),
        [text, since] as const,
        { polling: 'raf', timeout: 60_000 },
      );
      return Math.round((await handle.jsonValue()) as number);
    };
    const pageNow = () => page.evaluate(() => performance.now());

    const loads: number[] = [];
    for (let i = 0; i < 4; i++) {
      await page.goto(`${server.baseUrl}/admin`, { waitUntil: 'commit' });
      // performance.now() counts from the navigation's start.
      const ms = await shownAfter(`Showing 1–25 of ${total} pledges`, 0);
      if (i > 0) loads.push(ms);
    }
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { dcl: Math.round(n.domContentLoadedEventEnd) };
    });
    console.log(
      `\nChromium: /admin from navigation start until the table shows (3 reloads): median ${median(loads)} ms (DOMContentLoaded at ${nav.dcl} ms)`,
    );

    let since = await pageNow();
    await page.getByRole('searchbox', { name: 'Search' }).fill('donor4242@');
    console.log(
      `  search to 1 result: ${await shownAfter('Showing 1–1 of 1 pledges', since)} ms (300 ms of it is the debounce)`,
    );
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByText(`Showing 1–25 of ${total} pledges`).waitFor();

    since = await pageNow();
    await page.getByRole('button', { name: 'Amount' }).click();
    const sorted = await page.waitForFunction(
      (s) =>
        /\$5,000$/.test(document.querySelector('tbody tr td:nth-child(3)')?.textContent ?? '')
          ? performance.now() - s
          : false,
      since,
      { polling: 'raf' },
    );
    console.log(`  sort by amount: ${Math.round((await sorted.jsonValue()) as number)} ms`);

    since = await pageNow();
    await page.getByRole('button', { name: 'Next' }).click();
    console.log(`  next page: ${await shownAfter(`Showing 26–50 of ${total} pledges`, since)} ms`);

    since = await pageNow();
    await page.getByLabel('Status').selectOption({ label: 'Paid Only' });
    const paid = (Math.floor(COUNT / 3) + 5).toLocaleString('en-US');
    console.log(`  filter paid only: ${await shownAfter(`of ${paid} pledges`, since)} ms`);
    await browser.close();
  } finally {
    await server.stop();
    await cleanup();
  }
}

await main();
