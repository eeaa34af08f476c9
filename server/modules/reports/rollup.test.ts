import { sql } from 'drizzle-orm';
import { containersFor } from '@shared/containers';
import type { DbOrTx } from '../../db/client';
import { describe, expect, test } from '../../../tests/support/fixtures';
import * as repo from './repo';
import { fulfilmentReport } from './service';

/**
 * The report's rollups (migration 0025) against a recomputation from scratch
 * (report_rollup_rebuild), after random sequences of the writes that change them, made by SQL
 * as any writer would: the triggers must keep them exact whoever writes.
 */
const NOW = Date.parse('2026-03-20T15:00:00Z');
test.override('appOptions', { now: () => new Date(NOW) });

type Row = Record<string, unknown>;
async function rows(db: DbOrTx, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}
const one = async (db: DbOrTx, query: ReturnType<typeof sql>) => (await rows(db, query))[0];

/** A row whose numbers are all 0 is as good as none (the triggers leave them). */
const notZero = (r: Row) =>
  Object.entries(r).some(
    ([k, v]) => !['day', 'currency', 'kind', 'key'].includes(k) && Number(v) !== 0,
  );

async function rollups(db: DbOrTx) {
  return {
    days: (
      await rows(
        db,
        sql`select day::text, currency, pledges, pledged_minor, pledged_containers,
          received_minor, received_containers, owing, owed_minor, owed_containers
        from report_pledge_days order by day, currency`,
      )
    ).filter(notZero),
    groups: (
      await rows(
        db,
        sql`select kind, key, currency, payments, minor, containers
        from report_payment_groups order by kind, key, currency`,
      )
    ).filter(notZero),
    payments: await rows(
      db,
      sql`select payment_id, pledge_id, currency, booked_on::text, credited_minor, containers,
        reminder, done_days from report_payments order by payment_id`,
    ),
  };
}

/** The rollups as kept, and as recomputed from the tables, in one transaction (no writer between). */
async function keptAndRecomputed(db: DbOrTx, tz = 'America/Jamaica') {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table report_pledge_days, report_payments in exclusive mode`);
    const kept = await rollups(tx);
    await tx.execute(sql`select report_rollup_rebuild(${tz}, 11, 1672)`);
    return { kept, recomputed: await rollups(tx) };
  });
}

/** A small seeded generator (mulberry32): the same sequence on both databases, and when re-run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  return { next, int, pick };
}

const STATUSES = ['open', 'open', 'open', 'lapsed', 'cancelled', 'released'] as const;

describe('the report rollups', () => {
  test('follow the campaign’s prices: other prices rebuild them, and the containers change', async ({
    app,
  }) => {
    const db = app.database.db;
    const [{ id }] = (
      (await db.execute(sql`
        insert into pledges (name, email, amount, currency, containers, received_minor)
        values ('Prices', 'prices@example.org', 100, 'USD', 909, 1000) returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows as [{ id: string }];
    const received = async () =>
      Number(
        (
          (await db.execute(
            sql`select coalesce(sum(received_containers), 0) as n from report_pledge_days where currency = 'USD'`,
          )) as unknown as { rows: { n: number | string }[] }
        ).rows[0]!.n,
      );
    const at11 = await received();
    // US$10 received at 25 cents a container instead of 11: 40 containers for it, not 90.
    expect(
      await repo.ensureRollupBasis(db, { timeZone: 'America/Jamaica', usdUnit: 25, jmdUnit: 1672 }),
    ).toBe(true);
    expect(at11 - (await received())).toBe(90 - 40);
    expect(
      await repo.ensureRollupBasis(db, { timeZone: 'America/Jamaica', usdUnit: 11, jmdUnit: 1672 }),
    ).toBe(true);
    expect(await received()).toBe(at11);
    await db.execute(sql`delete from pledges where id = ${id}`);
  });

  test('stay exact through random edits, deletes, cancels, releases, payments, reversals and reminders', async ({
    app,
  }) => {
    const db = app.database.db;
    const r = random(26);
    // Moments from 1 January to 20 March, to the minute: across Kingston's midnights and weeks.
    const moment = () =>
      new Date(Date.parse('2026-01-01T00:00:00Z') + r.int(0, 78 * 1440) * 60_000);
    // Ids are random uuids: listed in an order the seeded sequence decides (then the id), so a
    // run picks the same rows every time.
    const ORDER: Record<string, string> = {
      pledges: 'created_at, amount, email, id',
      payments: 'recorded_at, booked_on, credited_minor, id',
      outbox: 'created_at, step, sent_at, id',
    };
    const ids = async (table: keyof typeof ORDER & string, where = sql`true`) =>
      (
        await rows(
          db,
          sql`select id from ${sql.raw(table)} where ${where} order by ${sql.raw(ORDER[table]!)}`,
        )
      ).map((x) => x.id as string);
    /** What the app keeps on the pledge: the sum of its active payments. */
    const syncReceived = (pledgeId: string) =>
      db.execute(sql`
        update pledges p set received_minor = s.minor, is_paid = s.minor is not null,
          received_containers = s.minor / (case p.currency when 'USD' then 11 else 1672 end)
        from (select sum(credited_minor) as minor from payments
          where pledge_id = ${pledgeId} and reversed_at is null) s
        where p.id = ${pledgeId}`);

    const ops: Record<string, () => Promise<unknown>> = {
      async insertPledges() {
        const n = r.int(1, 3);
        for (let i = 0; i < n; i += 1) {
          const currency = r.pick(['USD', 'JMD'] as const);
          const amount = currency === 'USD' ? r.int(1, 300) : r.int(100, 40_000);
          await db.execute(sql`
            insert into pledges (name, email, amount, currency, containers, created_at, status)
            values ('Rollup', ${`rollup${r.int(1, 40)}@example.org`}, ${amount}, ${currency},
              ${containersFor(amount, currency)}, ${moment()},
              ${r.pick(STATUSES)})`);
        }
      },
      async moveDay() {
        const id = r.pick(await ids('pledges'));
        if (id)
          await db.execute(sql`update pledges set created_at = created_at
            + make_interval(hours => ${r.int(-30, 30)}) where id = ${id}`);
      },
      async changeAmountOrCurrency() {
        const id = r.pick(await ids('pledges'));
        if (!id) return;
        const currency = r.pick(['USD', 'JMD'] as const);
        const amount = r.int(1, 5000);
        await db.execute(sql`update pledges set amount = ${amount}, currency = ${currency},
          containers = ${containersFor(amount, currency)} where id = ${id}`);
        await syncReceived(id);
      },
      async changeStatus() {
        const id = r.pick(await ids('pledges'));
        if (id)
          await db.execute(
            sql`update pledges set status = ${r.pick(STATUSES)}, status_changed_at = now() where id = ${id}`,
          );
      },
      async lapseMany() {
        await db.execute(sql`update pledges set status = 'lapsed' where id in (select id
          from pledges where status = 'open' and received_minor is null order by id limit 3)`);
      },
      async releaseLapsed() {
        await db.execute(sql`update pledges set status = 'released' where id in (select id
          from pledges where status = 'lapsed' order by id limit 2)`);
      },
      async deletePledge() {
        const id = r.pick(await ids('pledges'));
        if (id) await db.execute(sql`delete from pledges where id = ${id}`);
      },
      async recordPayment() {
        const id = r.pick(await ids('pledges'));
        if (!id) return;
        const p = (await one(db, sql`select amount, created_at from pledges where id = ${id}`))!;
        const at = new Date(
          new Date(p.created_at as string).getTime() + r.int(0, 50 * 24) * 3600_000,
        );
        const credited = r.pick([Number(p.amount) * 100, Number(p.amount) * 50, r.int(1, 90_000)]);
        // The booking day is the recording day or a day or two before it.
        await db.execute(sql`
          insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on,
            source, recorded_at)
          select ${id}, ${credited}, currency, ${credited},
            ((${at}::timestamptz at time zone 'America/Jamaica')::date - ${r.int(0, 2)}::int),
            'record', ${at} from pledges where id = ${id}`);
        await syncReceived(id);
      },
      async reversePayment() {
        const id = r.pick(await ids('payments', sql`reversed_at is null`));
        if (!id) return;
        const row = (await one(
          db,
          sql`update payments set reversed_at = recorded_at + interval '1 day' where id = ${id}
            returning pledge_id`,
        ))!;
        await syncReceived(row.pledge_id as string);
      },
      async rebookPayment() {
        const id = r.pick(await ids('payments'));
        if (id)
          await db.execute(sql`update payments set booked_on = booked_on + ${r.int(-3, 3)}::int
            where id = ${id}`);
      },
      async deletePayment() {
        const id = r.pick(await ids('payments'));
        if (!id) return;
        const row = (await one(
          db,
          sql`delete from payments where id = ${id} returning pledge_id`,
        ))!;
        await syncReceived(row.pledge_id as string);
      },
      async sendReminder() {
        const id = r.pick(await ids('pledges'));
        if (!id) return;
        const sent = r.next() < 0.7;
        const p = (await one(db, sql`select created_at from pledges where id = ${id}`))!;
        const at = new Date(
          new Date(p.created_at as string).getTime() + r.int(0, 30 * 24) * 3600_000,
        );
        await db.execute(sql`
          insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
          values (${id}, 'reminder', ${r.int(1, 3)}, ${at}, ${at}, ${sent ? at : null})`);
      },
      async markReminderSent() {
        const id = r.pick(await ids('outbox', sql`kind = 'reminder' and sent_at is null`));
        if (id)
          await db.execute(sql`update outbox set sent_at = ${moment()}, attempts = attempts + 1
            where id = ${id}`);
      },
      async deleteReminder() {
        const id = r.pick(await ids('outbox', sql`kind = 'reminder'`));
        if (id) await db.execute(sql`delete from outbox where id = ${id}`);
      },
      async severalInOneTransaction() {
        await db.transaction(async (tx) => {
          await tx.execute(sql`update pledges set created_at = created_at + interval '5 hours'
            where id in (select id from pledges order by id limit 3)`);
          await tx.execute(sql`update outbox set sent_at = sent_at - interval '2 days'
            where kind = 'reminder' and sent_at is not null`);
        });
      },
    };

    for (let i = 0; i < 15; i += 1) await ops.insertPledges!();
    // Pledges, payments and reminders more often than the rest, so that there is more to count.
    const names = [...Object.keys(ops), 'insertPledges', 'recordPayment', 'recordPayment'];
    const counts: Record<string, number> = {};
    for (let i = 1; i <= 240; i += 1) {
      const name = r.pick(names);
      counts[name] = (counts[name] ?? 0) + 1;
      await ops[name]!();
      if (i % 40 === 0) {
        const { kept, recomputed } = await keptAndRecomputed(db);
        expect(kept, `after ${i} operations`).toEqual(recomputed);
      }
    }
    // The sequence did reach every kind of write, and left something to count.
    expect(Object.keys(counts).sort()).toEqual(Object.keys(ops).sort());
    // A reminder recorded after a payment, sent at the start of its booking day: it counts.
    const target = (await one(
      db,
      sql`select p.id, p.pledge_id, p.booked_on::text as booked from payments p
        join report_payments r on r.payment_id = p.id
        where p.booked_on <= (p.recorded_at at time zone 'America/Jamaica')::date
        order by p.id limit 1`,
    ))!;
    await db.execute(sql`
      insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
      select ${target.pledge_id}, 'reminder', 9, at, at, at
      from (select (${target.booked}::date::timestamp at time zone 'America/Jamaica') as at) x`);
    const { kept, recomputed } = await keptAndRecomputed(db);
    expect(kept).toEqual(recomputed);
    expect(kept.days.length).toBeGreaterThan(3);
    expect(kept.payments.length).toBeGreaterThan(3);
    expect(kept.payments.find((p) => p.payment_id === target.id)!.reminder).toBe(9);
    expect(kept.payments.some((p) => p.done_days !== null)).toBe(true);
  });

  test('stay exact through statements that touch many pledges at once', async ({ app }) => {
    const db = app.database.db;
    // 80 pledges (more than the per-pledge locks' 64), each with a payment, in one statement each.
    await db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, created_at, received_minor,
        is_paid, received_containers)
      select 'Bulk', 'bulk' || i || '@example.org', 11, 'USD', 100,
        '2026-02-01T12:00:00Z'::timestamptz + make_interval(hours => i * 7), 1100, true, 100
      from generate_series(1, 80) i`);
    await db.execute(sql`
      insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on, source,
        recorded_at)
      select id, 1100, 'USD', 1100, (created_at + interval '10 days')::date, 'record',
        created_at + interval '10 days'
      from pledges where name = 'Bulk'`);
    await db.execute(sql`
      insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
      select id, 'reminder', 1, created_at + interval '7 days', created_at + interval '7 days',
        created_at + interval '7 days'
      from pledges where name = 'Bulk'`);
    let { kept, recomputed } = await keptAndRecomputed(db);
    expect(kept).toEqual(recomputed);
    const bulk = kept.payments.filter((p) => Number(p.credited_minor) === 1100 && p.reminder === 1);
    expect(bulk.length).toBeGreaterThanOrEqual(80);
    await db.execute(sql`update pledges set created_at = created_at + interval '13 hours',
      status = case when extract(hour from created_at)::int % 2 = 0 then 'cancelled' else status end
      where name = 'Bulk'`);
    await db.execute(sql`delete from outbox where kind = 'reminder' and pledge_id in
      (select id from pledges where name = 'Bulk')`);
    ({ kept, recomputed } = await keptAndRecomputed(db));
    expect(kept).toEqual(recomputed);
    // Some were cancelled (their payments left the report), and no reminder is left to count.
    const left = kept.payments.filter((p) => Number(p.credited_minor) === 1100);
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(bulk.length);
    expect(left.every((p) => p.reminder === 0)).toBe(true);
  });

  test('follow the campaign zone: days, and reminders against booking days, in that zone', async ({
    app,
  }) => {
    const db = app.database.db;
    await db.execute(sql`delete from pledges`);
    // 13:45 on 1 March in Kingston, 00:15 on 2 March in Kolkata (UTC+5:30).
    const pledge = (await one(
      db,
      sql`insert into pledges (name, email, amount, currency, containers, created_at,
        received_minor, is_paid, received_containers)
      values ('Zone', 'zone@example.org', 11, 'USD', 100, '2026-03-01T18:45:00Z', 1100, true, 100)
      returning id`,
    ))!.id as string;
    // The reminder: 1 March in Kingston, 2 March in Kolkata; the payment booked on 1 March.
    await db.execute(sql`
      insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on, source,
        recorded_at)
      values (${pledge}, 1100, 'USD', 1100, '2026-03-01', 'record', '2026-03-01T20:00:00Z')`);
    await db.execute(sql`
      insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
      values (${pledge}, 'reminder', 1, '2026-03-01T19:00:00Z', '2026-03-01T19:00:00Z',
        '2026-03-01T19:00:00Z')`);
    const opts = { now: new Date(NOW), reminderSteps: 3 };

    const kingston = await fulfilmentReport(db, { ...opts, timeZone: 'America/Jamaica' });
    expect(kingston.daily[0]!.day).toBe('2026-03-01');
    expect(kingston.paymentsByReminder.map((x) => x.payments)).toEqual([0, 1, 0, 0]);
    expect(kingston.timeToPayment[0]).toEqual({ currency: 'all', paidPledges: 1, medianDays: 0 });

    const kolkata = await fulfilmentReport(db, { ...opts, timeZone: 'Asia/Kolkata' });
    expect(kolkata.daily[0]!.day).toBe('2026-03-01'); // the payment's booking day comes first
    expect(kolkata.daily[0]!.pledgedUSD).toBe(0);
    expect(kolkata.daily[1]).toMatchObject({ day: '2026-03-02', pledgedUSD: 1100 });
    expect(kolkata.paymentsByReminder.map((x) => x.payments)).toEqual([1, 0, 0, 0]);
    // Booked the day before the pledge's day in Kolkata: -1 day.
    expect(kolkata.timeToPayment[0]).toEqual({ currency: 'all', paidPledges: 1, medianDays: -1 });
    // Rebuilt once; the next report reads the rollups as they are.
    expect(
      await repo.ensureRollupBasis(db, { timeZone: 'Asia/Kolkata', usdUnit: 11, jmdUnit: 1672 }),
    ).toBe(false);

    // Writes while the rollups are in Kolkata's zone are kept in that zone.
    await db.execute(
      sql`update pledges set created_at = '2026-03-02T19:00:00Z' where id = ${pledge}`,
    );
    const { kept, recomputed } = await keptAndRecomputed(db, 'Asia/Kolkata');
    expect(kept).toEqual(recomputed);
    expect(kept.days.map((d) => d.day)).toEqual(['2026-03-03']);

    const back = await fulfilmentReport(db, { ...opts, timeZone: 'America/Jamaica' });
    expect(back.daily.find((d) => d.pledgedUSD > 0)!.day).toBe('2026-03-02');
    expect(back.paymentsByReminder.map((x) => x.payments)).toEqual([0, 1, 0, 0]);
  });
});
