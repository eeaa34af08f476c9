import { sql, type SQL } from 'drizzle-orm';
import { UNIT_PRICE_CENTS, type Currency } from '@shared/constants';
import type { DbOrTx } from '../../db/client';

/**
 * All SQL of the fulfilment report. Every query aggregates in the database (a handful of rows per
 * day, week or bucket come back, never the pledges), so 100,000 pledges stay well under the
 * report's 200 ms budget (docs/performance.md).
 *
 * Counted pledges only (open and lapsed), as the totals count them. Money is in cents of the
 * pledge's currency: a payment's `credited_minor`.
 */

const COUNTED = sql`p.status in ('open', 'lapsed')`;
/** One container's price in cents of the pledge's currency. */
const UNIT = sql`(case p.currency when 'USD' then ${UNIT_PRICE_CENTS.USD}::bigint else ${UNIT_PRICE_CENTS.JMD}::bigint end)`;
const localDay = (column: SQL, tz: string) => sql`(${column} at time zone ${tz})::date`;

type Rows<T> = { rows: T[] };
async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

/**
 * Active payments of counted pledges, each with the pledge's running credited total after it
 * (in booking order): the containers a payment adds are the step it makes in floor(total / unit),
 * so a pledge's payments add up to exactly its received containers.
 */
const PAYMENTS = sql`
  select pay.id, pay.pledge_id, pay.booked_on, pay.recorded_at, pay.credited_minor,
    p.currency, p.amount::bigint * 100 as pledged_minor, p.created_at, ${UNIT} as unit,
    sum(pay.credited_minor) over (
      partition by pay.pledge_id order by pay.booked_on, pay.recorded_at, pay.id
    ) as running
  from payments pay
  join pledges p on p.id = pay.pledge_id
  where pay.reversed_at is null and ${COUNTED}`;

export interface DayRow {
  day: string;
  currency: Currency;
  minor: number;
  containers: number;
}

/** What was pledged on each day (the pledge's day in `tz`), per currency. */
export async function pledgedByDay(db: DbOrTx, tz: string): Promise<DayRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select ${localDay(sql`p.created_at`, tz)}::text as day, p.currency,
          sum(p.amount::bigint * 100) as minor, sum(p.containers) as containers
        from pledges p where ${COUNTED}
        group by 1, 2`,
  );
  return res.map(toDayRow);
}

/** What arrived on each day (the payment's booking day), per pledge currency. */
export async function receivedByDay(db: DbOrTx): Promise<DayRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`with pay as (${PAYMENTS})
        select booked_on::text as day, currency, sum(credited_minor) as minor,
          sum(floor(running / unit) - floor((running - credited_minor) / unit)) as containers
        from pay group by 1, 2`,
  );
  return res.map(toDayRow);
}

function toDayRow(r: Record<string, unknown>): DayRow {
  return {
    day: String(r.day),
    currency: r.currency as Currency,
    minor: Number(r.minor),
    containers: Number(r.containers),
  };
}

export interface WeekRow {
  weekStart: string;
  currency: Currency;
  pledges: number;
  pledgedMinor: number;
  receivedMinor: number;
  pledgedContainers: number;
  receivedContainers: number;
}

/** Pledges grouped by the week (Monday to Sunday, in `tz`) they were made, per currency. */
export async function byPledgeWeek(db: DbOrTx, tz: string): Promise<WeekRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select date_trunc('week', p.created_at at time zone ${tz})::date::text as week,
          p.currency, count(*) as pledges,
          sum(p.amount::bigint * 100) as pledged_minor,
          sum(coalesce(p.received_minor, 0)) as received_minor,
          sum(p.containers) as pledged_containers,
          sum(floor(coalesce(p.received_minor, 0) / ${UNIT})) as received_containers
        from pledges p where ${COUNTED}
        group by 1, 2`,
  );
  return res.map((r) => ({
    weekStart: String(r.week),
    currency: r.currency as Currency,
    pledges: Number(r.pledges),
    pledgedMinor: Number(r.pledged_minor),
    receivedMinor: Number(r.received_minor),
    pledgedContainers: Number(r.pledged_containers),
    receivedContainers: Number(r.received_containers),
  }));
}

export interface TimeToPaymentRow {
  currency: Currency | 'all';
  paidPledges: number;
  medianDays: number | null;
}

/**
 * Days from the pledge's day to the booking day of the payment that completed it, for pledges
 * paid in full; the median per currency and for all.
 */
export async function timeToPayment(db: DbOrTx, tz: string): Promise<TimeToPaymentRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`with pay as (${PAYMENTS}),
        done as (
          select currency, booked_on - ${localDay(sql`created_at`, tz)} as days
          from pay where running >= pledged_minor and running - credited_minor < pledged_minor
        )
        select coalesce(currency, 'all') as currency, count(*) as paid,
          percentile_cont(0.5) within group (order by days) as median
        from done group by rollup (currency)`,
  );
  return res.map((r) => ({
    currency: r.currency as Currency | 'all',
    paidPledges: Number(r.paid),
    medianDays: r.median === null ? null : Number(r.median),
  }));
}

export interface AgeRow {
  bucket: string;
  currency: Currency;
  pledges: number;
  outstandingMinor: number;
  outstandingContainers: number;
}

/** The SQL bucket ('0-7', ...) of a pledge's age in days on `today` (YYYY-MM-DD in `tz`). */
export function ageBucketSql(today: string, tz: string): SQL {
  const age = sql`(${today}::date - ${localDay(sql`p.created_at`, tz)})`;
  return sql`(case when ${age} <= 7 then '0-7' when ${age} <= 30 then '8-30'
    when ${age} <= 60 then '31-60' else '61+' end)`;
}

/** Money still owed: counted pledges with less credited than pledged. */
export const OWED = sql`(p.amount::bigint * 100 - coalesce(p.received_minor, 0))`;
export const OWES = sql`${COUNTED} and ${OWED} > 0`;

/** Money still owed, by the age of the pledge on `today`, per currency. */
export async function outstandingByAge(db: DbOrTx, today: string, tz: string): Promise<AgeRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select ${ageBucketSql(today, tz)} as bucket, p.currency, count(*) as pledges,
          sum(${OWED}) as owed,
          sum(p.containers - floor(coalesce(p.received_minor, 0) / ${UNIT})) as containers
        from pledges p where ${OWES}
        group by 1, 2`,
  );
  return res.map((r) => ({
    bucket: String(r.bucket),
    currency: r.currency as Currency,
    pledges: Number(r.pledges),
    outstandingMinor: Number(r.owed),
    outstandingContainers: Number(r.containers),
  }));
}

export interface ReminderRow {
  reminder: number;
  currency: Currency;
  payments: number;
  minor: number;
  containers: number;
}

/**
 * Each payment with the last reminder sent before it: sent before the payment was recorded and
 * no later than its booking day (a reminder after the transfer did not prompt it).
 */
export async function paymentsByReminder(db: DbOrTx, tz: string): Promise<ReminderRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`with pay as (${PAYMENTS}),
        sent as (
          select o.pledge_id, o.step, o.sent_at from outbox o
          where o.kind = 'reminder' and o.sent_at is not null and o.step is not null
        ),
        last as (
          select pay.id, pay.currency, pay.credited_minor,
            floor(pay.running / pay.unit) - floor((pay.running - pay.credited_minor) / pay.unit) as containers,
            coalesce(max(s.step), 0) as reminder
          from pay left join sent s on s.pledge_id = pay.pledge_id
            and s.sent_at <= pay.recorded_at
            and ${localDay(sql`s.sent_at`, tz)} <= pay.booked_on
          group by pay.id, pay.currency, pay.credited_minor, pay.running, pay.unit
        )
        select reminder, currency, count(*) as payments, sum(credited_minor) as minor,
          sum(containers) as containers
        from last group by 1, 2`,
  );
  return res.map((r) => ({
    reminder: Number(r.reminder),
    currency: r.currency as Currency,
    payments: Number(r.payments),
    minor: Number(r.minor),
    containers: Number(r.containers),
  }));
}
