import { formatDateTime } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useEffect, useState } from 'react';
import { formatMoney } from '@shared/format';
import type { AuditEntry } from '@shared/schemas/audit';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { useActivity } from '../api';

/** A short, readable line of what an entry changed. */
function summary(e: AuditEntry): string {
  const d = (e.details ?? {}) as Record<string, unknown>;
  const money = (a: unknown, c: unknown) =>
    typeof a === 'number' && (c === 'USD' || c === 'JMD') ? formatMoney(a, c) : '';
  switch (e.action) {
    case 'pledge.confirm':
      return `${money(d.amountReceived, d.currencyReceived)} received of ${money(d.amount, d.currency)}${d.source === 'statement' ? ' (bank statement)' : ''}`;
    case 'pledge.edit':
    case 'update.edit':
    case 'progress.update': {
      const before = (d.before ?? {}) as Record<string, unknown>;
      const after = (d.after ?? {}) as Record<string, unknown>;
      // A changed name or e-mail is logged by field name only (no donor data in the log).
      const personal = Array.isArray(d.personalDataChanged)
        ? d.personalDataChanged.map((k) => `${String(k)} changed`)
        : [];
      return [
        ...Object.keys(after).map((k) => `${k}: ${String(before[k])} → ${String(after[k])}`),
        ...personal,
      ].join(', ');
    }
    case 'pledge.delete': {
      const p = (d.deleted ?? {}) as Record<string, unknown>;
      return `${String(e.pledgeReference ?? p.reference)}, ${money(p.amount, p.currency)}`;
    }
    case 'statement.import':
      return `${String(d.fileName ?? 'file')}: ${String(d.newLines)} new line(s), ${String(d.alreadyImported)} already imported`;
    default:
      return '';
  }
}

/** The "Activity" tab: who did what, when and from where; filterable by pledge. */
export function ActivityLog() {
  const timeZone = useCampaignTimeZone();
  const [input, setInput] = useState('');
  const [filter, setFilter] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setFilter(input), 300);
    return () => clearTimeout(t);
  }, [input]);
  const activity = useActivity(filter);
  const items = activity.data?.items ?? [];
  return (
    <section aria-labelledby="activity-heading" className="grid gap-4">
      <h2 id="activity-heading" className="text-xl font-bold text-ink-900">
        Activity
      </h2>
      <div className="grid max-w-md gap-1.5">
        <Label htmlFor="activity-pledge">Filter by pledge</Label>
        <Input
          id="activity-pledge"
          placeholder="Payment reference, e.g. MRJ-7K4Q-2"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
      </div>
      {activity.isError ? (
        <p role="alert" className="text-red-800">
          {errorMessage(activity.error, 'Could not load the activity.')}
        </p>
      ) : null}
      <Card className="overflow-x-auto">
        <table className="w-full min-w-[760px] text-left text-sm" aria-busy={activity.isFetching}>
          <caption className="sr-only">Admin activity, newest first</caption>
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              {['Time', 'Action', 'Pledge', 'Details', 'Address'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr className="border-t border-ink-100">
                <td colSpan={5} className="px-3 py-8 text-center text-ink-600">
                  {activity.isLoading ? 'Loading…' : 'No activity recorded.'}
                </td>
              </tr>
            ) : (
              items.map((e) => (
                <tr key={e.id} className="border-t border-ink-100 align-top">
                  <td className="px-3 py-2 whitespace-nowrap text-ink-700">
                    <time dateTime={e.at}>{formatDateTime(e.at, timeZone)}</time>
                  </td>
                  <td className="px-3 py-2 font-medium text-ink-900">{e.label}</td>
                  <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                    {e.pledgeReference ?? ''}
                  </td>
                  <td className="px-3 py-2 text-ink-700">{summary(e)}</td>
                  <td className="px-3 py-2 font-mono text-xs text-ink-600">{e.clientIp}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
