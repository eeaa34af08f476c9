import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '../../tests/support/test-app';
import { readPledgeTotals } from '../modules/pledges/repo';
import type { Database } from './client';
import { MIGRATIONS_FOLDER, runMigrations } from './migrate';

/** The migrations up to (not including) 0016_payments: a database as the previous version left it. */
async function migrationsBefore(tag: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relief-migrations-'));
  await mkdir(path.join(dir, 'meta'));
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag === tag),
  );
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries)
    await copyFile(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

type Row = Record<string, unknown>;

describe('migration 0016 (payments in minor units)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let folder: string;
  beforeAll(async () => {
    const t = await createTestDatabase(testDbKind(), { empty: true });
    database = t.database;
    drop = t.drop;
    folder = await migrationsBefore('0016_payments');
  }, 120_000);
  afterAll(async () => {
    await database.close();
    await drop();
    await rm(folder, { recursive: true, force: true });
  });

  const rows = async (q: ReturnType<typeof sql>) =>
    ((await database.db.execute(q)) as unknown as { rows: Row[] }).rows;

  it('gives every paid pledge one payment, in cents, and keeps the totals exact', async () => {
    await runMigrations(database, folder);
    // Confirmed by older code: in full, short, in the other currency, and without received fields.
    await database.db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, is_paid, payment_confirmed_at,
        amount_received, currency_received, received_containers)
      values
        ('Full', 'a@d.test', 50, 'USD', 454, true, '2026-11-20T03:00:00Z', 50, 'USD', 454),
        ('Short', 'b@d.test', 100, 'USD', 909, true, '2026-11-21T15:00:00Z', 30, 'USD', 272),
        ('Other', 'c@d.test', 100, 'USD', 909, true, '2026-11-22T15:00:00Z', 15200, 'JMD', 909),
        ('Legacy', 'd@d.test', 1672, 'JMD', 100, true, null, null, null, null),
        ('Pending', 'e@d.test', 10, 'USD', 90, false, null, null, null, null)`);
    await runMigrations(database);

    const pledges = await rows(sql`select name, received_minor::float8 as "receivedMinor",
      amount_received_minor::float8 as "amountReceivedMinor", currency_received as "currencyReceived"
      from pledges order by name`);
    expect(pledges).toEqual([
      { name: 'Full', receivedMinor: 5000, amountReceivedMinor: 5000, currencyReceived: 'USD' },
      {
        name: 'Legacy',
        receivedMinor: 167_200,
        amountReceivedMinor: 167_200,
        currencyReceived: 'JMD',
      },
      {
        name: 'Other',
        receivedMinor: 10_000,
        amountReceivedMinor: 1_520_000,
        currencyReceived: 'JMD',
      },
      { name: 'Pending', receivedMinor: null, amountReceivedMinor: null, currencyReceived: null },
      { name: 'Short', receivedMinor: 3000, amountReceivedMinor: 3000, currencyReceived: 'USD' },
    ]);
    const payments = await rows(sql`select p.name, pm.amount_minor::float8 as "amountMinor",
      pm.currency, pm.credited_minor::float8 as "creditedMinor", pm.booked_on::text as "bookedOn",
      pm.source from payments pm join pledges p on p.id = pm.pledge_id order by p.name`);
    expect(payments).toMatchObject([
      // 03:00 UTC is the evening before in Jamaica (UTC-5).
      {
        name: 'Full',
        amountMinor: 5000,
        currency: 'USD',
        bookedOn: '2026-11-19',
        source: 'confirm',
      },
      { name: 'Legacy', amountMinor: 167_200, currency: 'JMD', creditedMinor: 167_200 },
      { name: 'Other', amountMinor: 1_520_000, currency: 'JMD', creditedMinor: 10_000 },
      { name: 'Short', amountMinor: 3000, bookedOn: '2026-11-21' },
    ]);
    const totals = await readPledgeTotals(database.db);
    // Pending 90 + Short 909 - 272 = 637 containers still owed.
    expect(totals.outstandingContainers).toBe(90 + 909 - 272);
  });
});
