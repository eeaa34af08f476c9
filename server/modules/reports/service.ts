import type { Currency } from '@shared/constants';
import { dayIn } from '@shared/dates';
import {
  AGE_BUCKETS,
  AGE_BUCKET_DAYS,
  AGE_BUCKET_LABELS,
  type AgeBucket,
  reminderLabel,
  type FulfilmentReport,
  type ReportTable,
} from '@shared/schemas/report';
import type { DbOrTx } from '../../db/client';
import { unitPriceCents } from '@shared/prices';
import * as repo from './repo';

/** The fulfilment report (the admin's Reports tab), assembled from repo.ts's aggregates. */

function nextDay(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const ratio = (received: number, pledged: number) => (pledged > 0 ? received / pledged : null);

/** Whole days from one YYYY-MM-DD to another. */
const daysFrom = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The Monday of a YYYY-MM-DD's week. */
function mondayOf(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function ageBucket(days: number): AgeBucket {
  return AGE_BUCKETS.find((b) => {
    const [from, to] = AGE_BUCKET_DAYS[b];
    return days >= from && (to === null || days <= to);
  })!;
}

/** The median of a histogram (value → how many), as percentile_cont(0.5) would give it. */
function medianOf(histogram: [value: number, count: number][]): number | null {
  const sorted = [...histogram].sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return null;
  const at = (i: number) => {
    let seen = 0;
    for (const [v, c] of sorted) {
      seen += c;
      if (i < seen) return v;
    }
    return sorted[sorted.length - 1]![0];
  };
  return n % 2 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

type Totals = { usd: number; jmd: number; containers: number; count: number };
const zero = (): Totals => ({ usd: 0, jmd: 0, containers: 0, count: 0 });
function add(t: Totals, currency: Currency, minor: number, containers: number, count: number) {
  if (currency === 'USD') t.usd += minor;
  else t.jmd += minor;
  t.containers += containers;
  t.count += count;
}

export async function fulfilmentReport(
  db: DbOrTx,
  opts: { now: Date; timeZone: string; reminderSteps: number },
): Promise<FulfilmentReport> {
  const tz = opts.timeZone;
  const today = dayIn(opts.now, tz);
  // Two reads of the rollups (migration 0025), after making sure they are in the campaign's zone
  // and prices (a rebuild is one statement); everything else is derived. No transaction: on
  // PGlite its BEGIN/COMMIT cost more than the two reads.
  await repo.ensureRollupBasis(db, {
    timeZone: tz,
    usdUnit: unitPriceCents('USD'),
    jmdUnit: unitPriceCents('JMD'),
  });
  const pledgeDays = await repo.pledgesByDay(db);
  const paymentRows = await repo.paymentGroups(db);

  const ages = new Map(AGE_BUCKETS.map((b) => [b, zero()]));
  for (const d of pledgeDays) {
    if (d.owing === 0) continue;
    // A pledge dated after "today" (a clock moved back) counts as new.
    add(
      ages.get(ageBucket(Math.max(0, daysFrom(d.day, today))))!,
      d.currency,
      d.owedMinor,
      d.owedContainers,
      d.owing,
    );
  }

  const reminders = new Map<number, Totals>();
  const toPaid: Record<Currency, [number, number][]> = { USD: [], JMD: [] };
  const receivedDays: { day: string; currency: Currency; minor: number; containers: number }[] = [];
  for (const r of paymentRows) {
    if (r.by === 'day') {
      receivedDays.push({
        day: String(r.key),
        currency: r.currency,
        minor: r.minor,
        containers: r.containers,
      });
    } else if (r.by === 'reminder') {
      const step = Number(r.key);
      if (!reminders.has(step)) reminders.set(step, zero());
      add(reminders.get(step)!, r.currency, r.minor, r.containers, r.payments);
    } else {
      toPaid[r.currency].push([Number(r.key), r.payments]);
    }
  }
  const steps = Math.max(opts.reminderSteps, ...reminders.keys());

  return {
    timeZone: tz,
    today,
    daily: cumulativeDays(pledgeDays, receivedDays, today),
    weekly: weekly(pledgeDays),
    timeToPayment: (['all', 'USD', 'JMD'] as const).map((currency) => {
      const histogram = currency === 'all' ? [...toPaid.USD, ...toPaid.JMD] : toPaid[currency];
      return {
        currency,
        paidPledges: histogram.reduce((s, [, c]) => s + c, 0),
        medianDays: medianOf(histogram),
      };
    }),
    outstandingByAge: AGE_BUCKETS.map((bucket) => {
      const t = ages.get(bucket)!;
      return {
        bucket,
        pledges: t.count,
        outstandingUSD: t.usd,
        outstandingJMD: t.jmd,
        outstandingContainers: t.containers,
      };
    }),
    paymentsByReminder: Array.from({ length: steps + 1 }, (_, reminder) => {
      const t = reminders.get(reminder) ?? zero();
      return {
        reminder,
        payments: t.count,
        receivedUSD: t.usd,
        receivedJMD: t.jmd,
        receivedContainers: t.containers,
      };
    }),
  };
}

/** Every day from the first pledge or payment to today, each with the totals up to it. */
function cumulativeDays(
  pledged: repo.PledgeDayRow[],
  received: { day: string; currency: Currency; minor: number; containers: number }[],
  today: string,
): FulfilmentReport['daily'] {
  const all = [...pledged.map((p) => p.day), ...received.map((r) => r.day)];
  if (all.length === 0) return [];
  const first = all.reduce((m, d) => (d < m ? d : m), today);
  const last = all.reduce((m, d) => (d > m ? d : m), today);
  const group = <T extends { day: string }>(list: T[]) => {
    const map = new Map<string, T[]>();
    for (const r of list) map.set(r.day, [...(map.get(r.day) ?? []), r]);
    return map;
  };
  const p = group(pledged);
  const r = group(received);
  const run = {
    pledgedContainers: 0,
    receivedContainers: 0,
    pledgedUSD: 0,
    receivedUSD: 0,
    pledgedJMD: 0,
    receivedJMD: 0,
  };
  const out: FulfilmentReport['daily'] = [];
  for (let day = first; day <= last; day = nextDay(day)) {
    for (const row of p.get(day) ?? []) {
      run.pledgedContainers += row.pledgedContainers;
      run[`pledged${row.currency}`] += row.pledgedMinor;
    }
    for (const row of r.get(day) ?? []) {
      run.receivedContainers += row.containers;
      run[`received${row.currency}`] += row.minor;
    }
    out.push({ day, ...run });
  }
  return out;
}

/** The pledges' days grouped into their weeks (Monday to Sunday). */
function weekly(days: repo.PledgeDayRow[]): FulfilmentReport['weekly'] {
  const weeks = new Map<string, Record<Currency, repo.PledgeDayRow[]>>();
  for (const d of days) {
    const w = mondayOf(d.day);
    if (!weeks.has(w)) weeks.set(w, { USD: [], JMD: [] });
    weeks.get(w)![d.currency].push(d);
  }
  return [...weeks.keys()].sort().map((weekStart) => {
    const of = weeks.get(weekStart)!;
    const sum = (c: Currency, f: (d: repo.PledgeDayRow) => number) =>
      of[c].reduce((s, d) => s + f(d), 0);
    const both = (f: (d: repo.PledgeDayRow) => number) => sum('USD', f) + sum('JMD', f);
    const pledgedContainers = both((d) => d.pledgedContainers);
    const receivedContainers = both((d) => d.receivedContainers);
    const pledgedUSD = sum('USD', (d) => d.pledgedMinor);
    const receivedUSD = sum('USD', (d) => d.receivedMinor);
    const pledgedJMD = sum('JMD', (d) => d.pledgedMinor);
    const receivedJMD = sum('JMD', (d) => d.receivedMinor);
    return {
      weekStart,
      pledges: both((d) => d.pledges),
      pledgedContainers,
      receivedContainers,
      rate: ratio(receivedContainers, pledgedContainers),
      pledgedUSD,
      receivedUSD,
      rateUSD: ratio(receivedUSD, pledgedUSD),
      pledgedJMD,
      receivedJMD,
      rateJMD: ratio(receivedJMD, pledgedJMD),
    };
  });
}

/** 1234 cents -> "12.34": a plain number a spreadsheet reads. */
function decimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
const percent = (r: number | null) => (r === null ? '' : (r * 100).toFixed(1));

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab/CR before one) as a formula; the
 * report's cells are numbers, dates and fixed labels, but a label is neutralised the same way as
 * the pledge export does, so a future free-text column cannot slip through.
 */
function cell(value: string | number): string {
  const text = String(value);
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One table of the report as CSV rows: a header and its lines. */
export function reportCsvRows(report: FulfilmentReport, table: ReportTable): string[][] {
  const rows = ((): (string | number)[][] => {
    switch (table) {
      case 'daily':
        return [
          [
            'day',
            'pledgedContainers',
            'receivedContainers',
            'pledgedUSD',
            'receivedUSD',
            'pledgedJMD',
            'receivedJMD',
          ],
          ...report.daily.map((d) => [
            d.day,
            d.pledgedContainers,
            d.receivedContainers,
            decimal(d.pledgedUSD),
            decimal(d.receivedUSD),
            decimal(d.pledgedJMD),
            decimal(d.receivedJMD),
          ]),
        ];
      case 'weekly':
        return [
          [
            'weekStart',
            'pledges',
            'pledgedContainers',
            'receivedContainers',
            'ratePercent',
            'pledgedUSD',
            'receivedUSD',
            'rateUSDPercent',
            'pledgedJMD',
            'receivedJMD',
            'rateJMDPercent',
          ],
          ...report.weekly.map((w) => [
            w.weekStart,
            w.pledges,
            w.pledgedContainers,
            w.receivedContainers,
            percent(w.rate),
            decimal(w.pledgedUSD),
            decimal(w.receivedUSD),
            percent(w.rateUSD),
            decimal(w.pledgedJMD),
            decimal(w.receivedJMD),
            percent(w.rateJMD),
          ]),
        ];
      case 'time-to-payment':
        return [
          ['currency', 'paidPledges', 'medianDays'],
          ...report.timeToPayment.map((t) => [t.currency, t.paidPledges, t.medianDays ?? '']),
        ];
      case 'outstanding':
        return [
          ['age', 'pledges', 'outstandingUSD', 'outstandingJMD', 'outstandingContainers'],
          ...report.outstandingByAge.map((a) => [
            AGE_BUCKET_LABELS[a.bucket],
            a.pledges,
            decimal(a.outstandingUSD),
            decimal(a.outstandingJMD),
            a.outstandingContainers,
          ]),
        ];
      case 'reminders':
        return [
          ['lastReminder', 'payments', 'receivedUSD', 'receivedJMD', 'receivedContainers'],
          ...report.paymentsByReminder.map((r) => [
            reminderLabel(r.reminder),
            r.payments,
            decimal(r.receivedUSD),
            decimal(r.receivedJMD),
            r.receivedContainers,
          ]),
        ];
    }
  })();
  return rows.map((row) => row.map(cell));
}
