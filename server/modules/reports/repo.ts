import { sql, type SQL } from 'drizzle-orm';
import { UNIT_PRICE_CENTS, type Currency } from '@shared/constants';
import type { DbOrTx } from '../../db/client';

/**
 * All SQL of the fulfilment report. Money and containers are bigint throughout: integer division
 * of non-negative numbers is the floor the containers need, without numeric's slower arithmetic. Both passes aggregate in the database
 * (a few hundred rows come back, never the pledges); timings at 100,000 pledges are in
 * docs/performance.md.
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
    (sum(pay.credited_minor) over (
      partition by pay.pledge_id order by pay.booked_on, pay.recorded_at, pay.id
    ))::bigint as running
  from payments pay
  join pledges p on p.id = pay.pledge_id
  where pay.reversed_at is null and ${COUNTED}`;

export interface PledgeDayRow {
  /** The pledges' day in the campaign's zone. */
  day: string;
  currency: Currency;
  pledges: number;
  pledgedMinor: number;
  pledgedContainers: number;
  receivedMinor: number;
  receivedContainers: number;
  /** Of these pledges, those with money still owed, and how much. */
  owing: number;
  owedMinor: number;
  owedContainers: number;
}

/**
 * One pass over the counted pledges, grouped by their day in `tz` and currency: the weeks and the
 * ages of owed money are whole days, so the service derives them from these rows.
 */
export async function pledgesByDay(db: DbOrTx, tz: string): Promise<PledgeDayRow[]> {
  const received = sql`coalesce(p.received_minor, 0)`;
  const owed = sql`(p.amount::bigint * 100 - ${received})`;
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select ${localDay(sql`p.created_at`, tz)}::text as day, p.currency,
          count(*) as pledges,
          sum(p.amount::bigint * 100) as pledged_minor,
          sum(p.containers) as pledged_containers,
          sum(${received}) as received_minor,
          sum(${received} / ${UNIT}) as received_containers,
          count(*) filter (where ${owed} > 0) as owing,
          coalesce(sum(${owed}) filter (where ${owed} > 0), 0) as owed_minor,
          coalesce(sum(p.containers - ${received} / ${UNIT}) filter (where ${owed} > 0), 0)
            as owed_containers
        from pledges p where ${COUNTED}
        group by 1, 2`,
  );
  return res.map((r) => ({
    day: String(r.day),
    currency: r.currency as Currency,
    pledges: Number(r.pledges),
    pledgedMinor: Number(r.pledged_minor),
    pledgedContainers: Number(r.pledged_containers),
    receivedMinor: Number(r.received_minor),
    receivedContainers: Number(r.received_containers),
    owing: Number(r.owing),
    owedMinor: Number(r.owed_minor),
    owedContainers: Number(r.owed_containers),
  }));
}

export interface PaymentGroupRow {
  /** Which grouping the row belongs to. */
  by: 'day' | 'reminder' | 'days-to-paid';
  currency: Currency;
  /** The booking day, the last reminder's step, or the days from pledge to full payment. */
  key: string | number | null;
  payments: number;
  minor: number;
  containers: number;
}

/**
 * One pass over the active payments of counted pledges, grouped three ways at once: by booking
 * day; by the last reminder sent before each (sent before the payment was recorded and no later
 * than its booking day: a reminder after the transfer did not prompt it); and, for the payment
 * that completed a pledge, by the days from the pledge's day to it (the median's histogram).
 */
export async function paymentGroups(db: DbOrTx, tz: string): Promise<PaymentGroupRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    // The reminders are joined (a hash join over the reminder rows) rather than looked up per
    // payment: measured at 100,000 pledges on PGlite, ~190 ms against ~500-1,100 ms.
    sql`with pay as (${PAYMENTS}),
        sent as (
          select o.pledge_id, o.step, o.sent_at from outbox o
          where o.kind = 'reminder' and o.step is not null and o.sent_at is not null
        ),
        last as (
          select pay.id, coalesce(max(s.step), 0) as reminder
          from pay join sent s on s.pledge_id = pay.pledge_id
            and s.sent_at <= pay.recorded_at
            and ${localDay(sql`s.sent_at`, tz)} <= pay.booked_on
          group by pay.id
        ),
        each as (
          select pay.booked_on, pay.currency, pay.credited_minor,
            pay.running / pay.unit - (pay.running - pay.credited_minor) / pay.unit as containers,
            case when pay.running >= pay.pledged_minor
                and pay.running - pay.credited_minor < pay.pledged_minor
              then pay.booked_on - ${localDay(sql`pay.created_at`, tz)} end as done_days,
            coalesce(last.reminder, 0) as reminder
          from pay left join last on last.id = pay.id
        )
        select grouping(booked_on) as g_day, grouping(reminder) as g_reminder,
          booked_on::text as day, reminder, done_days, currency,
          count(*) as payments, sum(credited_minor) as minor, sum(containers) as containers
        from each
        group by grouping sets ((booked_on, currency), (reminder, currency), (done_days, currency))`,
  );
  return res.map((r) => {
    const by =
      Number(r.g_day) === 0 ? 'day' : Number(r.g_reminder) === 0 ? 'reminder' : 'days-to-paid';
    return {
      by,
      currency: r.currency as Currency,
      key:
        by === 'day'
          ? String(r.day)
          : by === 'reminder'
            ? Number(r.reminder)
            : r.done_days === null
              ? null
              : Number(r.done_days),
      payments: Number(r.payments),
      minor: Number(r.minor),
      containers: Number(r.containers),
    };
  });
}

/**
 * What the report is built from, in one row: the totals' version (every statement that changes
 * a pledge, a payment's pledge included, bumps it) and the payments' count and latest times. The
 * same answer means the same report (for the same day), so the service keeps the last one.
 */
export async function reportSourceVersion(db: DbOrTx): Promise<string> {
  const [r] = await rows<Record<string, unknown>>(
    db,
    sql`select (select version from pledge_totals where id = 1) as v,
          count(*) as n, max(recorded_at)::text as rec, max(reversed_at)::text as rev
        from payments`,
  );
  return `${String(r!.v)}|${String(r!.n)}|${String(r!.rec)}|${String(r!.rev)}`;
}
