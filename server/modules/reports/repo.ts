import { sql, type SQL } from 'drizzle-orm';
import type { Currency } from '@shared/constants';
import type { DbOrTx } from '../../db/client';

/**
 * All SQL of the fulfilment report. It reads the rollups of migration 0025, which the database
 * keeps exact with statement triggers on pledges, payments and the outbox: a few hundred rows
 * instead of every pledge and payment (timings at 100,000 pledges in docs/performance.md).
 *
 * Counted pledges only (open and lapsed), as the totals count them. Money is in cents of the
 * pledge's currency: a payment's `credited_minor`.
 */

type Rows<T> = { rows: T[] };
async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

/**
 * The rollups give days in one zone and containers at one price per currency (pledge_totals'
 * report_time_zone, report_usd_unit, report_jmd_unit); when the campaign's are others (its config
 * changed), they are rebuilt for them once, in one scan of the tables.
 */
export async function ensureRollupBasis(
  db: DbOrTx,
  basis: { timeZone: string; usdUnit: number; jmdUnit: number },
): Promise<boolean> {
  const [r] = await rows<{ tz: string; usd: number | string; jmd: number | string }>(
    db,
    sql`select report_time_zone as tz, report_usd_unit as usd, report_jmd_unit as jmd
      from pledge_totals where id = 1`,
  );
  if (
    r?.tz === basis.timeZone &&
    Number(r.usd) === basis.usdUnit &&
    Number(r.jmd) === basis.jmdUnit
  )
    return false;
  await db.execute(
    sql`select report_rollup_rebuild(${basis.timeZone}, ${basis.usdUnit}::bigint, ${basis.jmdUnit}::bigint)`,
  );
  return true;
}

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
 * The counted pledges by their day in the rollups' zone and currency: the weeks and the ages of
 * owed money are whole days, so the service derives them from these rows.
 */
export async function pledgesByDay(db: DbOrTx): Promise<PledgeDayRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select day::text as day, currency, pledges, pledged_minor, pledged_containers,
          received_minor, received_containers, owing, owed_minor, owed_containers
        from report_pledge_days where pledges <> 0`,
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
  key: string | number;
  payments: number;
  minor: number;
  containers: number;
}

/**
 * The active payments of counted pledges, grouped three ways: by booking day; by the last
 * reminder sent before each (sent before the payment was recorded and no later than its booking
 * day: a reminder after the transfer did not prompt it); and, for the payment that completed a
 * pledge, by the days from the pledge's day to it (the median's histogram).
 */
export async function paymentGroups(db: DbOrTx): Promise<PaymentGroupRow[]> {
  const res = await rows<Record<string, unknown>>(
    db,
    sql`select kind, key, currency, payments, minor, containers,
          (date '2000-01-01' + key)::text as day
        from report_payment_groups where payments <> 0`,
  );
  return res.map((r) => {
    const by = r.kind as PaymentGroupRow['by'];
    return {
      by,
      currency: r.currency as Currency,
      key: by === 'day' ? String(r.day) : Number(r.key),
      payments: Number(r.payments),
      minor: Number(r.minor),
      containers: Number(r.containers),
    };
  });
}
