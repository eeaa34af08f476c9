import { z } from 'zod';

/**
 * The fulfilment report (the admin's Reports tab): how much of what was promised arrived, and
 * when. Money is in cents of the pledge's currency (a payment in the other currency is credited
 * at the campaign's rate, as on the pledge itself); days and weeks are the campaign's time zone.
 * Counted pledges only: cancelled and released ones are left out as a deletion would be, lapsed
 * ones still count (docs/decisions/019-reminders-and-lapse.md).
 */

/** The outstanding-money ages, in whole days since the pledge's day. */
export const AGE_BUCKETS = ['0-7', '8-30', '31-60', '61+'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export const AGE_BUCKET_LABELS: Record<AgeBucket, string> = {
  '0-7': '0–7 days',
  '8-30': '8–30 days',
  '31-60': '31–60 days',
  '61+': 'Over 60 days',
};
/** Each bucket's first and last day of age (null: no end). */
export const AGE_BUCKET_DAYS: Record<AgeBucket, readonly [number, number | null]> = {
  '0-7': [0, 7],
  '8-30': [8, 30],
  '31-60': [31, 60],
  '61+': [61, null],
};

const int = z.number().int();
const ymd = z.iso.date();
/** received ÷ pledged (1 = all of it arrived); null when nothing was pledged. */
const rate = z.number().nullable();

const reportDaySchema = z.object({
  day: ymd,
  /** Cumulative, up to and including this day. */
  pledgedContainers: int,
  receivedContainers: int,
  pledgedUSD: int,
  receivedUSD: int,
  pledgedJMD: int,
  receivedJMD: int,
});

const reportWeekSchema = z.object({
  /** The Monday the week starts on. */
  weekStart: ymd,
  pledges: int,
  pledgedContainers: int,
  receivedContainers: int,
  rate,
  pledgedUSD: int,
  receivedUSD: int,
  rateUSD: rate,
  pledgedJMD: int,
  receivedJMD: int,
  rateJMD: rate,
});

const reportTimeToPaymentSchema = z.object({
  currency: z.enum(['all', 'USD', 'JMD']),
  /** Pledges paid in full: the day of the payment that completed each is its payment day. */
  paidPledges: int,
  medianDays: z.number().nullable(),
});

const reportAgeSchema = z.object({
  bucket: z.enum(AGE_BUCKETS),
  pledges: int,
  outstandingUSD: int,
  outstandingJMD: int,
  outstandingContainers: int,
});

const reportReminderSchema = z.object({
  /** The last reminder step sent before the payment (0 = none). */
  reminder: int,
  payments: int,
  receivedUSD: int,
  receivedJMD: int,
  receivedContainers: int,
});

export const fulfilmentReportSchema = z.object({
  timeZone: z.string(),
  /** Today in the campaign's time zone: the ages count from it. */
  today: ymd,
  daily: z.array(reportDaySchema),
  weekly: z.array(reportWeekSchema),
  timeToPayment: z.array(reportTimeToPaymentSchema),
  outstandingByAge: z.array(reportAgeSchema),
  paymentsByReminder: z.array(reportReminderSchema),
});
export type FulfilmentReport = z.infer<typeof fulfilmentReportSchema>;

const REPORT_TABLES = ['daily', 'weekly', 'time-to-payment', 'outstanding', 'reminders'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

export const reportCsvQuerySchema = z.object({
  table: z.enum(REPORT_TABLES, {
    error: `table must be one of: ${REPORT_TABLES.join(', ')}`,
  }),
});

/** "1st reminder", "2nd reminder", ... ("No reminder" for 0). */
export function reminderLabel(step: number): string {
  if (step === 0) return 'No reminder';
  const suffix =
    step % 100 >= 11 && step % 100 <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[step % 10] ?? 'th');
  return `${step}${suffix} reminder`;
}
