import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/test-app';
import { insertPledges, readPledgeTotals } from '../modules/pledges/repo';
import { runMigrations } from './migrate';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

/** The totals as a full scan computes them: what the triggers must always agree with. */
async function scanned(db: TestDb) {
  const res = (await db.database.db.execute(sql`
    select count(*)::int as "pledgeCount",
      (count(*) filter (where is_paid))::int as "paidCount",
      coalesce(sum(containers), 0)::float8 as containers,
      coalesce(sum(coalesce(received_containers, containers)) filter (where is_paid), 0)::float8
        as "confirmedContainers",
      coalesce(sum(amount) filter (where currency = 'USD'), 0)::float8 as "usdAmount",
      coalesce(sum(amount) filter (where currency = 'JMD'), 0)::float8 as "jmdAmount",
      coalesce(sum(coalesce(amount_received, amount))
        filter (where is_paid and coalesce(currency_received, currency) = 'USD'), 0)::float8
        as "receivedUsd",
      coalesce(sum(coalesce(amount_received, amount))
        filter (where is_paid and coalesce(currency_received, currency) = 'JMD'), 0)::float8
        as "receivedJmd",
      count(distinct lower(email)) filter (where is_paid)::int as "donorCount",
      coalesce(sum(case when is_paid then greatest(0, containers - coalesce(received_containers, containers))
        else containers end), 0)::float8 as "outstandingContainers"
    from pledges`)) as unknown as { rows: Record<string, number>[] };
  return Object.fromEntries(Object.entries(res.rows[0]!).map(([k, v]) => [k, Number(v)]));
}

async function totals(db: TestDb) {
  // The report rollups' zone and prices (migration 0025) are kept on the same row; not totals.
  const {
    id: _id,
    version: _version,
    reportTimeZone: _zone,
    reportUsdUnit: _usd,
    reportJmdUnit: _jmd,
    ...rest
  } = await readPledgeTotals(db.database.db);
  return rest;
}

const exec = (db: TestDb, q: ReturnType<typeof sql>) => db.database.db.execute(q);

describe('pledge_totals triggers', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDatabase();
    await runMigrations(db.database);
  });
  afterAll(async () => {
    await db.database.close();
    await db.drop();
  });

  it('follow inserts, updates, deletes and truncates, whoever makes them', async () => {
    expect(await totals(db)).toEqual(await scanned(db));

    // One multi-row insert with repeated donors (other case) and both currencies.
    await insertPledges(
      db.database.db,
      Array.from({ length: 40 }, (_, i) => ({
        name: `Donor ${i}`,
        email: i % 4 === 0 ? `Same${i % 3}@Donors.test` : `d${i}@donors.test`,
        amount: 10 + i,
        currency: i % 3 === 0 ? ('JMD' as const) : ('USD' as const),
        containers: 100 + i,
        isPaid: i % 5 === 0,
      })),
    );
    expect(await totals(db)).toEqual(await scanned(db));

    // Plain SQL, as another tool would write: confirm, change amount and e-mail (to an existing
    // donor, so one donor disappears), change currency.
    await exec(db, sql`update pledges set is_paid = true where email = 'd1@donors.test'`);
    await exec(
      db,
      sql`update pledges set amount = amount * 3, containers = containers * 3 where email like 'd2%'`,
    );
    await exec(
      db,
      sql`update pledges set email = 'SAME1@donors.test' where email = 'd5@donors.test'`,
    );
    await exec(db, sql`update pledges set currency = 'JMD' where email = 'd6@donors.test'`);
    expect(await totals(db)).toEqual(await scanned(db));

    // Money received: a part payment in the other currency, then one un-confirmed.
    await exec(
      db,
      sql`update pledges set amount_received = 700, currency_received = 'JMD', received_containers = 41
          where email = 'd10@donors.test'`,
    );
    await exec(
      db,
      sql`update pledges set is_paid = false, amount_received = null, currency_received = null,
          received_containers = null where email = 'd15@donors.test'`,
    );
    expect(await totals(db)).toEqual(await scanned(db));

    // Deletes: one donor's only pledge, then part of a repeated donor's pledges.
    await exec(db, sql`delete from pledges where email = 'd7@donors.test'`);
    await exec(
      db,
      sql`delete from pledges where id = (select id from pledges where lower(email) = 'same0@donors.test' limit 1)`,
    );
    expect(await totals(db)).toEqual(await scanned(db));

    // Concurrent batches (several connections on PostgreSQL) sharing new donors.
    await Promise.all(
      Array.from({ length: 6 }, (_, b) =>
        insertPledges(
          db.database.db,
          Array.from({ length: 20 }, (_, i) => ({
            name: 'Batch',
            email: `shared${(i + b) % 7}@donors.test`,
            amount: 5,
            currency: 'USD' as const,
            containers: 45,
          })),
        ),
      ),
    );
    expect(await totals(db)).toEqual(await scanned(db));

    // Every changing statement moved the version on.
    expect((await readPledgeTotals(db.database.db)).version).toBeGreaterThanOrEqual(12);

    // CASCADE: outbox and donor_links (e-mail and status links) refer to pledges.
    await exec(db, sql`truncate pledges cascade`);
    expect(await totals(db)).toEqual(await scanned(db));
    expect((await totals(db)).pledgeCount).toBe(0);
  });
});
