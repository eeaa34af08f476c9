import { CURRENCIES, type Currency } from '@shared/constants';
import { unitPriceCents } from '@shared/prices';
import type { DeliveryUpdate } from '@shared/schemas/update';
import type { WeeklyReceipt } from './repo';

/**
 * "Where the money goes": money received by week, per currency and in containers, the
 * deliveries in order, and the running totals of containers delivered against those paid for.
 * Pure: the route gives it the week sums (SQL) and the updates (the snapshot).
 */

interface LedgerWeek {
  week: string;
  receivedMinor: Record<Currency, number>;
  /** Containers the week's money buys, currency by currency (whole containers). */
  containersReceived: number;
  containersDelivered: number;
  /** Running totals up to and including the week. */
  totalReceived: number;
  totalDelivered: number;
}

export interface Ledger {
  weeks: LedgerWeek[];
  /** Oldest first. */
  deliveries: DeliveryUpdate[];
  totals: {
    receivedMinor: Record<Currency, number>;
    containersReceived: number;
    delivered: number;
  };
}

/** Monday of the ISO week of a YYYY-MM-DD date, as the SQL's date_trunc('week') gives it. */
function weekOf(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

const zero = (): Record<Currency, number> => ({ USD: 0, JMD: 0 });

export function buildLedger(receipts: WeeklyReceipt[], updates: DeliveryUpdate[]): Ledger {
  const byWeek = new Map<string, { minor: Record<Currency, number>; delivered: number }>();
  const at = (week: string) => {
    let w = byWeek.get(week);
    if (!w) byWeek.set(week, (w = { minor: zero(), delivered: 0 }));
    return w;
  };
  for (const r of receipts) at(r.week).minor[r.currency] += r.amountMinor;
  const deliveries = [...updates].sort((a, b) =>
    a.deliveryDate === b.deliveryDate
      ? a.createdAt.localeCompare(b.createdAt)
      : a.deliveryDate.localeCompare(b.deliveryDate),
  );
  for (const u of deliveries) at(weekOf(u.deliveryDate)).delivered += u.containerCount;

  const totals = { receivedMinor: zero(), containersReceived: 0, delivered: 0 };
  const weeks: LedgerWeek[] = [...byWeek.keys()].sort().map((week) => {
    const w = byWeek.get(week)!;
    const containersReceived = CURRENCIES.reduce(
      (sum, c) => sum + Math.floor(w.minor[c] / unitPriceCents(c)),
      0,
    );
    for (const c of CURRENCIES) totals.receivedMinor[c] += w.minor[c];
    totals.containersReceived += containersReceived;
    totals.delivered += w.delivered;
    return {
      week,
      receivedMinor: w.minor,
      containersReceived,
      containersDelivered: w.delivered,
      totalReceived: totals.containersReceived,
      totalDelivered: totals.delivered,
    };
  });
  return { weeks, deliveries, totals };
}
