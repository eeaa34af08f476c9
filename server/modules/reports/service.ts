import type { Currency } from '@shared/constants';
import { dayIn } from '@shared/dates';
import {
  AGE_BUCKETS,
  AGE_BUCKET_LABELS,
  reminderLabel,
  type FulfilmentReport,
  type ReportTable,
} from '@shared/schemas/report';
import type { DbOrTx } from '../../db/client';
import * as repo from './repo';

/** The fulfilment report (the admin's Reports tab), assembled from repo.ts's aggregates. */

function nextDay(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const ratio = (received: number, pledged: number) => (pledged > 0 ? received / pledged : null);

export async function fulfilmentReport(
  db: DbOrTx,
  opts: { now: Date; timeZone: string; reminderSteps: number },
): Promise<FulfilmentReport> {
  const tz = opts.timeZone;
  const today = dayIn(opts.now, tz);
  // One after the other: PGlite is one connection anyway, and a pg pool gains little here.
  const pledged = await repo.pledgedByDay(db, tz);
  const received = await repo.receivedByDay(db);
  const weeks = await repo.byPledgeWeek(db, tz);
  const timing = await repo.timeToPayment(db, tz);
  const ages = await repo.outstandingByAge(db, today, tz);
  const reminders = await repo.paymentsByReminder(db, tz);

  return {
    timeZone: tz,
    today,
    daily: cumulativeDays(pledged, received, today),
    weekly: weekly(weeks),
    timeToPayment: (['all', 'USD', 'JMD'] as const).map((currency) => {
      const row = timing.find((t) => t.currency === currency);
      return { currency, paidPledges: row?.paidPledges ?? 0, medianDays: row?.medianDays ?? null };
    }),
    outstandingByAge: AGE_BUCKETS.map((bucket) => {
      const of = (c: Currency) => ages.find((a) => a.bucket === bucket && a.currency === c);
      const usd = of('USD');
      const jmd = of('JMD');
      return {
        bucket,
        pledges: (usd?.pledges ?? 0) + (jmd?.pledges ?? 0),
        outstandingUSD: usd?.outstandingMinor ?? 0,
        outstandingJMD: jmd?.outstandingMinor ?? 0,
        outstandingContainers:
          (usd?.outstandingContainers ?? 0) + (jmd?.outstandingContainers ?? 0),
      };
    }),
    paymentsByReminder: Array.from(
      { length: Math.max(opts.reminderSteps, ...reminders.map((r) => r.reminder)) + 1 },
      (_, reminder) => {
        const of = (c: Currency) =>
          reminders.find((r) => r.reminder === reminder && r.currency === c);
        const usd = of('USD');
        const jmd = of('JMD');
        return {
          reminder,
          payments: (usd?.payments ?? 0) + (jmd?.payments ?? 0),
          receivedUSD: usd?.minor ?? 0,
          receivedJMD: jmd?.minor ?? 0,
          receivedContainers: (usd?.containers ?? 0) + (jmd?.containers ?? 0),
        };
      },
    ),
  };
}

/** Every day from the first pledge or payment to today, each with the totals up to it. */
function cumulativeDays(
  pledged: repo.DayRow[],
  received: repo.DayRow[],
  today: string,
): FulfilmentReport['daily'] {
  const all = [...pledged, ...received];
  if (all.length === 0) return [];
  const first = all.reduce((m, r) => (r.day < m ? r.day : m), today);
  const last = all.reduce((m, r) => (r.day > m ? r.day : m), today);
  const byDay = (list: repo.DayRow[]) => {
    const map = new Map<string, repo.DayRow[]>();
    for (const r of list) map.set(r.day, [...(map.get(r.day) ?? []), r]);
    return map;
  };
  const p = byDay(pledged);
  const r = byDay(received);
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
      run.pledgedContainers += row.containers;
      run[`pledged${row.currency}`] += row.minor;
    }
    for (const row of r.get(day) ?? []) {
      run.receivedContainers += row.containers;
      run[`received${row.currency}`] += row.minor;
    }
    out.push({ day, ...run });
  }
  return out;
}

function weekly(rows: repo.WeekRow[]): FulfilmentReport['weekly'] {
  const starts = [...new Set(rows.map((r) => r.weekStart))].sort();
  return starts.map((weekStart) => {
    const of = (c: Currency) => rows.find((r) => r.weekStart === weekStart && r.currency === c);
    const usd = of('USD');
    const jmd = of('JMD');
    const pledgedContainers = (usd?.pledgedContainers ?? 0) + (jmd?.pledgedContainers ?? 0);
    const receivedContainers = (usd?.receivedContainers ?? 0) + (jmd?.receivedContainers ?? 0);
    return {
      weekStart,
      pledges: (usd?.pledges ?? 0) + (jmd?.pledges ?? 0),
      pledgedContainers,
      receivedContainers,
      rate: ratio(receivedContainers, pledgedContainers),
      pledgedUSD: usd?.pledgedMinor ?? 0,
      receivedUSD: usd?.receivedMinor ?? 0,
      rateUSD: ratio(usd?.receivedMinor ?? 0, usd?.pledgedMinor ?? 0),
      pledgedJMD: jmd?.pledgedMinor ?? 0,
      receivedJMD: jmd?.receivedMinor ?? 0,
      rateJMD: ratio(jmd?.receivedMinor ?? 0, jmd?.pledgedMinor ?? 0),
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
