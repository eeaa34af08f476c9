import { sql } from 'drizzle-orm';
import type { Currency } from '@shared/constants';
import type { DbOrTx } from '../../db/client';

export interface WeeklyReceipt {
  /** Monday of the week (ISO week), YYYY-MM-DD, by the payment's booking date. */
  week: string;
  currency: Currency;
  amountMinor: number;
  payments: number;
}

/** The money received, by week and currency: active payments only (a reversal takes it back). */
export async function weeklyReceipts(db: DbOrTx): Promise<WeeklyReceipt[]> {
  const res = (await db.execute(sql`
    select to_char(date_trunc('week', booked_on::timestamp), 'YYYY-MM-DD') as week,
           currency, sum(amount_minor)::text as amount_minor, count(*)::int as payments
      from payments
     where reversed_at is null
     group by 1, 2
     order by 1, 2`)) as unknown as {
    rows: { week: string; currency: Currency; amount_minor: string; payments: number }[];
  };
  return res.rows.map((r) => ({
    week: r.week,
    currency: r.currency,
    amountMinor: Number(r.amount_minor),
    payments: Number(r.payments),
  }));
}
