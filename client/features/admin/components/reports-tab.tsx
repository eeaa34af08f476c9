import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatMonthDay } from '@shared/dates';
import { formatMinor, formatNumber } from '@shared/format';
import {
  AGE_BUCKET_LABELS,
  reminderLabel,
  type AgeBucket,
  type FulfilmentReport,
  type ReportTable,
} from '@shared/schemas/report';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFulfilmentReport } from '../api';
import { BarChart, StepLineChart } from './reports-charts';

/**
 * The Reports tab: the fulfilment report (how much of what was promised arrived, and when), each
 * chart with its numbers as a table and each table as a CSV download. Its own chunk, with the
 * chart code, loaded when the tab opens (client/admin-chunks.ts).
 */
export default function ReportsTab({ onOpenAge }: { onOpenAge: (bucket: AgeBucket) => void }) {
  const report = useFulfilmentReport();
  if (report.isLoading) return <Skeleton className="h-96 w-full" />;
  if (!report.data) {
    return (
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
        Could not load the report.{' '}
        <Button variant="link" className="h-auto p-0" onClick={() => void report.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const r = report.data;
  return (
    <div className="grid gap-8">
      <p className="text-sm text-ink-700">
        Days and weeks in the campaign&rsquo;s time zone ({r.timeZone}); today is{' '}
        {formatMonthDay(r.today)}. Cancelled and released pledges are left out; lapsed ones still
        count. Money is in the pledge&rsquo;s currency.
      </p>
      <OverTime r={r} />
      <ByWeek r={r} />
      <TimeToPayment r={r} />
      <ByAge r={r} onOpenAge={onOpenAge} />
      <ByReminder r={r} />
    </div>
  );
}

const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)}%`);
const usd = (minor: number) => formatMinor(minor, 'USD');
const jmd = (minor: number) => formatMinor(minor, 'JMD');

function Section({
  id,
  title,
  table,
  children,
}: {
  id: string;
  title: string;
  table: ReportTable;
  children: ReactNode;
}) {
  return (
    <Card className="grid gap-4 p-5" role="region" aria-labelledby={`${id}-heading`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-xl font-bold text-ink-900">
          {title}
        </h2>
        <Button variant="outline" size="sm" asChild>
          <a
            href={`/api/admin/reports/fulfilment.csv?table=${table}`}
            download
            aria-label={`Download CSV: ${title}`}
          >
            <Download className="h-4 w-4" aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </div>
      {children}
    </Card>
  );
}

function DataTable({
  caption,
  head,
  rows,
  scroll,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  /** A long table scrolls in its own box, which the keyboard can focus to scroll. */
  scroll?: boolean;
}) {
  const table = (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="sticky top-0 bg-ink-50 text-ink-700">
        <tr>
          {head.map((h, i) => (
            <th key={h} scope="col" className={`px-3 py-2 font-semibold ${i ? 'text-right' : ''}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr className="border-t border-ink-100">
            <td colSpan={head.length} className="px-3 py-6 text-center text-ink-600">
              Nothing yet.
            </td>
          </tr>
        ) : (
          rows.map((row, i) => (
            <tr key={i} className="border-t border-ink-100">
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="px-3 py-2 font-medium text-ink-900">
                    {cell}
                  </th>
                ) : (
                  <td key={j} className="px-3 py-2 text-right text-ink-800 tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
  return scroll ? (
    <div
      className="max-h-72 overflow-auto rounded-lg border border-ink-100 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none"
      // A scrolling box must take the focus, or a keyboard cannot scroll it (axe's
      // scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      {table}
    </div>
  ) : (
    <div className="overflow-x-auto rounded-lg border border-ink-100">{table}</div>
  );
}

function OverTime({ r }: { r: FulfilmentReport }) {
  const labels = r.daily.map((d) => formatMonthDay(d.day));
  return (
    <Section id="report-over-time" title="Pledged and received over time" table="daily">
      <StepLineChart
        title="Meal containers pledged and received, cumulative by day"
        labels={labels}
        series={[
          {
            label: 'Pledged (containers)',
            values: r.daily.map((d) => d.pledgedContainers),
            className: 'stroke-ink-500',
            dashed: true,
          },
          {
            label: 'Received (containers)',
            values: r.daily.map((d) => d.receivedContainers),
            className: 'stroke-brand-700',
          },
        ]}
      />
      <DataTable
        scroll
        caption="Pledged and received, cumulative by day"
        head={[
          'Day',
          'Pledged containers',
          'Received containers',
          'Pledged US$',
          'Received US$',
          'Pledged J$',
          'Received J$',
        ]}
        rows={[...r.daily]
          .reverse()
          .map((d) => [
            d.day,
            formatNumber(d.pledgedContainers),
            formatNumber(d.receivedContainers),
            usd(d.pledgedUSD),
            usd(d.receivedUSD),
            jmd(d.pledgedJMD),
            jmd(d.receivedJMD),
          ])}
      />
    </Section>
  );
}

function ByWeek({ r }: { r: FulfilmentReport }) {
  return (
    <Section id="report-by-week" title="Fulfilment rate by week pledged" table="weekly">
      <BarChart
        title="Share of the pledged meal containers received, by the week the pledges were made"
        bars={r.weekly.map((w) => ({
          label: formatMonthDay(w.weekStart),
          value: (w.rate ?? 0) * 100,
        }))}
        format={(v) => `${formatNumber(v)}%`}
      />
      <DataTable
        caption="Fulfilment rate (received ÷ pledged) by the week the pledges were made"
        head={[
          'Week of',
          'Pledges',
          'Rate (containers)',
          'Pledged US$',
          'Received US$',
          'Rate US$',
          'Pledged J$',
          'Received J$',
          'Rate J$',
        ]}
        rows={r.weekly.map((w) => [
          w.weekStart,
          formatNumber(w.pledges),
          percent(w.rate),
          usd(w.pledgedUSD),
          usd(w.receivedUSD),
          percent(w.rateUSD),
          jmd(w.pledgedJMD),
          jmd(w.receivedJMD),
          percent(w.rateJMD),
        ])}
      />
    </Section>
  );
}

function TimeToPayment({ r }: { r: FulfilmentReport }) {
  const all = r.timeToPayment.find((t) => t.currency === 'all');
  const days = (d: number | null) => (d === null ? '–' : `${formatNumber(d)} days`);
  return (
    <Section
      id="report-time-to-payment"
      title="Days from pledge to payment"
      table="time-to-payment"
    >
      <p className="text-ink-800">
        <span className="text-3xl font-bold text-ink-900">{days(all?.medianDays ?? null)}</span>{' '}
        median, over {formatNumber(all?.paidPledges ?? 0)} pledges paid in full (to the day of the
        payment that completed each).
      </p>
      <DataTable
        caption="Median days from pledge to payment"
        head={['Pledges in', 'Paid in full', 'Median']}
        rows={r.timeToPayment.map((t) => [
          t.currency === 'all' ? 'All currencies' : t.currency === 'USD' ? 'US$' : 'J$',
          formatNumber(t.paidPledges),
          days(t.medianDays),
        ])}
      />
    </Section>
  );
}

function ByAge({ r, onOpenAge }: { r: FulfilmentReport; onOpenAge: (bucket: AgeBucket) => void }) {
  return (
    <Section id="report-by-age" title="Outstanding money by age" table="outstanding">
      <BarChart
        title="Meal containers still owed, by the age of the pledge"
        bars={r.outstandingByAge.map((a) => ({
          label: AGE_BUCKET_LABELS[a.bucket],
          value: a.outstandingContainers,
        }))}
        className="fill-sun-500"
      />
      <DataTable
        caption="Money still owed, by the age of the pledge in days"
        head={['Age', 'Pledges', 'Owed US$', 'Owed J$', 'Containers']}
        rows={r.outstandingByAge.map((a) => [
          <a
            key={a.bucket}
            href={`/admin?age=${encodeURIComponent(a.bucket)}`}
            className="text-brand-800 underline underline-offset-2 hover:text-brand-900"
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onOpenAge(a.bucket);
            }}
          >
            {AGE_BUCKET_LABELS[a.bucket]}
            <span className="sr-only">: show these pledges</span>
          </a>,
          formatNumber(a.pledges),
          usd(a.outstandingUSD),
          jmd(a.outstandingJMD),
          formatNumber(a.outstandingContainers),
        ])}
      />
    </Section>
  );
}

function ByReminder({ r }: { r: FulfilmentReport }) {
  return (
    <Section
      id="report-by-reminder"
      title="Payments by the last reminder before them"
      table="reminders"
    >
      <BarChart
        title="Number of payments, by the last reminder sent before each"
        bars={r.paymentsByReminder.map((x) => ({
          label: reminderLabel(x.reminder),
          value: x.payments,
        }))}
      />
      <DataTable
        caption="Payments by the last reminder sent before them"
        head={['Last reminder', 'Payments', 'Received US$', 'Received J$', 'Containers']}
        rows={r.paymentsByReminder.map((x) => [
          reminderLabel(x.reminder),
          formatNumber(x.payments),
          usd(x.receivedUSD),
          jmd(x.receivedJMD),
          formatNumber(x.receivedContainers),
        ])}
      />
    </Section>
  );
}
